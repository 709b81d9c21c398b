// The live and replay pages of a debate: one dashboard, fed by the debate's event log.
//
// Live: an EventSource on /debates/<id>/events. The browser resends the last
// `id:` it saw as Last-Event-ID when the connection drops, so the server
// replays only what was missed; events are also de-duplicated here by seq.
// Replay: the stored events are embedded in the page (#debate-events) and
// played back one by one.
//
// Every piece of model text goes into the page with textContent, never as HTML.
(function () {
  "use strict";

  const root = document.querySelector("[data-debate-live]");
  if (!root) return;
  const strings = JSON.parse(document.getElementById("debate-strings").textContent);
  // A debate_error is not the end when its owner retries (debate_resumed follows):
  // the server ends the stream there, and the page asks again now and then
  // (live_stream.js) until the retry's events come.
  const TERMINAL = new Set(["debate_complete"]);
  const EVENT_TYPES = [
    "debate_start", "arguments_submitted", "attacks_generated", "validation_complete",
    "graph_update", "graph_convergence", "debate_complete", "debate_error",
    "persona_failed", "debate_resumed",
  ];

  const field = (name) => root.querySelector(`[data-field="${name}"]`);
  // "1 argument", "3 arguments": the server sends both forms of each phrase.
  const counted = (key, n) => {
    const forms = strings.counted[key];
    return (n === 1 ? forms.one : forms.other).replace("%(count)s", String(n));
  };
  const statusBadge = document.querySelector('[data-field="status"]');
  const attackItems = new Map(); // attack id -> <li>
  let lastSeq = 0;
  let argumentCount = 0;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // A stop is stored as a code and its params; its sentence comes in the page's
  // language from the server (strings.stopDetails). An event without a known code
  // (older than the codes) keeps its stored sentence.
  function stopDetail(p) {
    const template = p.code && (strings.stopDetails || {})[p.code];
    if (!template) return p.detail || "";
    return template.replace(/%\((\w+)\)s/g, (whole, key) =>
      p.params && key in p.params ? String(p.params[key]) : whole,
    );
  }

  function t(group, key) {
    return (strings[group] && strings[group][key]) || key;
  }

  // A built-in persona in the page's language; anyone else as their name is stored.
  const personaName = (name) => (strings.personaNames || {})[name] || name;

  function setStatus(status) {
    if (!statusBadge || !status) return;
    statusBadge.textContent = t("statuses", status);
    statusBadge.className = `badge status-${status}`;
  }

  function setStage(text) {
    field("stage").textContent = text;
  }

  function setRound(round) {
    if (typeof round !== "number") return;
    field("round").textContent = String(round);
    const progress = field("round-progress");
    progress.value = Math.min(round, Number(progress.max));
    progress.textContent = `${round} / ${progress.max}`;
  }

  function setCost(value) {
    const cost = Number.parseFloat(value);
    // As config.money writes it on the server: four decimals, the page's decimal sign
    // and the currency where the page's language puts it ("$0.0123", "0,0123 US$").
    // A student's page shows no amounts (home/spend.py): no cost field to fill.
    if (Number.isNaN(cost) || !field("cost")) return;
    const amount = cost.toFixed(4).replace(".", strings.money.decimal);
    field("cost").textContent = strings.money.pattern.replace("%(amount)s", amount);
  }

  function addArguments(list) {
    argumentCount += (list || []).length;
    field("arguments").textContent = String(argumentCount);
  }

  // The opening arguments themselves, not only how many there are: who said what.
  function showOpenings(list) {
    const target = field("openings");
    if (!target) return;
    for (const argument of list || []) {
      const item = el("li", "opening");
      item.dataset.argumentId = String(argument.id);
      const head = el("p", "opening-head");
      head.append(el("span", "arg-key", argument.id), el("span", "speaker", personaName(argument.speaker)));
      item.append(head, el("p", "claim", argument.claim));
      if ((argument.premises || []).length) {
        const premises = el("ul", "premises muted small");
        for (const premise of argument.premises) premises.append(el("li", "", premise));
        item.append(premises);
      }
      target.append(item);
    }
    field("openings-empty").hidden = target.children.length > 0;
  }

  function setAttackStatus(item, attack) {
    const badge = item.querySelector(".vstatus");
    const status = attack.status || "pending";
    badge.className = `badge vstatus ${status}`;
    let text = t("attackStatuses", status);
    if (status === "dropped" && attack.drop_reason) text += `: ${t("dropReasons", attack.drop_reason)}`;
    if (typeof attack.strength === "number" && status !== "dropped") {
      text += ` · ${strings.strength} ${attack.strength.toFixed(2)}`;
    }
    badge.textContent = text;
    const corrections = item.querySelector(".corrections");
    corrections.textContent = attack.corrections || "";
    corrections.hidden = !attack.corrections;
  }

  function logAttack(attack) {
    let item = attackItems.get(attack.id);
    if (!item) {
      item = el("li", "attack");
      item.dataset.attackId = String(attack.id);
      const head = el("p", "attack-head");
      head.append(
        el("span", `badge type ${attack.type}`, t("attackTypes", attack.type)),
        el("span", "speaker", personaName(attack.speaker)),
        el("span", "target", `${attack.from || "—"} → ${attack.to || attack.target} · ${t("components", attack.component)}[${attack.index}]`),
        el("span", "muted round-tag", `${strings.round} ${attack.round}`),
        el("span", "badge vstatus"),
      );
      item.append(head, el("p", "counter", attack.counter_proposition), el("p", "corrections muted"));
      field("attack-log").append(item);
      attackItems.set(attack.id, item);
      field("attack-log-empty").hidden = true;
    }
    setAttackStatus(item, attack);
  }

  function timeline(event, summary) {
    const item = el("li", `event ${event.type}`);
    item.append(el("span", "seq", `#${event.seq}`), el("span", "type", t("eventTypes", event.type)));
    if (summary) item.append(el("span", "summary muted", summary));
    field("timeline").append(item);
  }

  function finish(title, detail, failed) {
    field("outcome-title").textContent = title;
    field("outcome-detail").textContent = detail || "";
    field("outcome").hidden = false;
    field("outcome").classList.toggle("failed", Boolean(failed));
    const retry = field("retry");
    if (retry) retry.hidden = !failed;
    // Nothing left to stop once it has ended.
    const stop = field("stop-form");
    if (stop) stop.hidden = true;
  }

  function personaFailed(p) {
    const template = p.round === 0 ? strings.personaFailedOpening : strings.personaFailed;
    const text = template.replace("%(persona)s", personaName(p.persona) || "?").replace("%(round)s", String(p.round));
    const list = field("persona-failures");
    list.append(el("li", "", text));
    list.hidden = false;
    return text;
  }

  const handlers = {
    debate_start(p) {
      setStatus("running");
      setStage(strings.stages.opening);
      return (p.personas || []).map((persona) => personaName(persona.name)).join(", ");
    },
    arguments_submitted(p) {
      addArguments(p.arguments);
      showOpenings(p.arguments);
      setRound(0);
      setStage(strings.stages.attacks);
      return counted("arguments", (p.arguments || []).length);
    },
    attacks_generated(p) {
      addArguments(p.arguments);
      setStage(`${strings.round} ${p.round}: ${strings.stages.validation}`);
      (p.attacks || []).forEach(logAttack);
      (p.dropped || []).forEach(logAttack);
      return `${strings.round} ${p.round}: ${counted("attacks", (p.attacks || []).length)}`;
    },
    validation_complete(p) {
      (p.attacks || []).forEach(logAttack);
      const valid = (p.attacks || []).filter((a) => a.status === "valid").length;
      return `${strings.round} ${p.round}: ${counted("valid", valid)}`;
    },
    graph_update(p) {
      setRound(p.round);
      const counts = p.counts || {};
      for (const label of ["IN", "OUT", "UNDEC"]) {
        root.querySelector(`[data-count="${label}"]`).textContent = String(counts[label] || 0);
      }
      field("camps").textContent = String(p.camps ?? "—");
      setCost(p.cost_so_far);
      setStage(`${strings.round} ${p.round} ${strings.stages.done}`);
      const word = (label) => (strings.labels || {})[label] || label;
      return ["IN", "OUT", "UNDEC"].map((label) => `${word(label)} ${counts[label] || 0}`).join(" · ");
    },
    graph_convergence(p) {
      const detail = stopDetail(p);
      return `${t("stopReasons", p.stop_reason)}${detail ? ` — ${detail}` : ""}`;
    },
    debate_complete(p) {
      setStatus(p.status || "done");
      setCost(p.cost_usd);
      setStage(strings.stages.finished);
      finish(t("stopReasons", p.stop_reason), stopDetail(p));
      return t("stopReasons", p.stop_reason);
    },
    debate_error(p) {
      const named = t("failures", p.failure);
      const plain = named === p.failure ? (p.error || strings.failed) : named;
      setStatus("failed");
      setStage(strings.stages.failed);
      finish(strings.failed, plain, true);
      return plain;
    },
    persona_failed(p) {
      return personaFailed(p);
    },
    debate_resumed() {
      setStatus("queued");
      setStage(strings.resumed);
      field("outcome").hidden = true;
      return strings.resumed;
    },
  };

  function apply(event) {
    if (typeof event.seq !== "number" || event.seq <= lastSeq) return; // seen already
    lastSeq = event.seq;
    root.dataset.lastSeq = String(lastSeq);
    const handler = handlers[event.type];
    const summary = handler ? handler(event.payload || {}) : "";
    timeline(event, summary);
  }

  // The stream itself (reconnecting, refusals, asking again after a failure's end):
  // live_stream.js.
  function follow(url) {
    window.ArgueLive.follow({
      url,
      root,
      types: EVENT_TYPES,
      terminal: TERMINAL,
      onEvent: (type, event) => apply(event),
      reopenMs: Number(root.dataset.reopenMs) || undefined,
    });
  }

  function replay(events) {
    let position = 0;
    let timer = null;
    const playButton = root.querySelector('[data-action="play"]');
    const speed = root.querySelector('[data-action="speed"]');
    const shown = field("position");

    function step() {
      if (position >= events.length) return stop();
      apply(events[position]);
      position += 1;
      shown.textContent = String(position);
      if (position >= events.length) stop();
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      playButton.textContent = position >= events.length ? strings.replayDone : strings.play;
      playButton.disabled = position >= events.length;
    }
    function play() {
      if (timer) return stop();
      timer = setInterval(step, Number(speed.value));
      playButton.textContent = strings.pause;
    }
    playButton.addEventListener("click", play);
    root.querySelector('[data-action="step"]').addEventListener("click", () => { stop(); step(); });
    root.querySelector('[data-action="end"]').addEventListener("click", () => {
      stop();
      while (position < events.length) step();
    });
    speed.addEventListener("change", () => { if (timer) { stop(); play(); } });
    play();
  }

  if (root.dataset.mode === "replay") {
    replay(JSON.parse(document.getElementById("debate-events").textContent));
  } else if (root.dataset.eventsUrl) {
    follow(root.dataset.eventsUrl);
  }
})();
