// The live bracket of a tournament: follow the debate's event stream
// (/debates/<id>/events, the same SSE as debate_live.js) and, on each
// tournament event, re-fetch the server-rendered bracket partial with htmx.
// No model text is handled here: the server renders and escapes it.
(function () {
  "use strict";

  const root = document.querySelector("[data-tournament-live]");
  if (!root || !root.dataset.eventsUrl || !window.EventSource || !window.ArgueLive) return;
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

  window.ArgueLive.follow({
    url: root.dataset.eventsUrl,
    root,
    types: TYPES,
    terminal: TERMINAL,
    onEvent: (type, event) => {
      root.dataset.lastSeq = String(event.seq);
      refresh();
    },
  });
})();
