// The live bracket of a tournament: follow the debate's event stream
// (/debates/<id>/events, the same SSE as debate_live.js) and, on each
// tournament event, re-fetch the server-rendered bracket partial with htmx.
// No model text is handled here: the server renders and escapes it.
(function () {
  "use strict";

  const root = document.querySelector("[data-tournament-live]");
  if (!root || !root.dataset.eventsUrl || !window.EventSource) return;
  const TYPES = [
    "match_started", "match_turns", "match_convergence", "match_finished",
    "debate_start", "debate_complete", "debate_error", "debate_resumed",
  ];
  const TERMINAL = new Set(["debate_complete"]);
  let pending = null;

  function refresh() {
    // Several events in a burst: one fetch.
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      window.htmx.ajax("GET", root.dataset.bracketUrl, { target: "#tournament-live", swap: "outerHTML" });
    }, 150);
  }

  // Too many live pages open in this account: the server says so in a sentence and
  // asks the browser (retry:) to wait half a minute before it tries again.
  function showRefusal(message) {
    let note = root.querySelector(".stream-refused");
    if (!note) {
      note = Object.assign(document.createElement("p"), { className: "notice stream-refused" });
      note.setAttribute("role", "status");
      root.prepend(note);
    }
    note.textContent = JSON.parse(message.data).detail;
    root.dataset.connection = "refused";
  }

  const source = new EventSource(root.dataset.eventsUrl);
  root.dataset.connection = "connecting";
  source.onopen = () => { root.dataset.connection = "open"; };
  source.addEventListener("stream_refused", showRefusal);
  source.onerror = () => {
    root.dataset.connection = source.readyState === EventSource.CLOSED ? "closed" : "reconnecting";
  };
  for (const type of TYPES) {
    source.addEventListener(type, (message) => {
      const event = JSON.parse(message.data);
      root.dataset.lastSeq = String(event.seq);
      refresh();
      if (TERMINAL.has(type)) {
        source.close();
        root.dataset.connection = "closed";
      }
    });
  }
})();
