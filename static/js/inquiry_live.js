// The inquiry's live page: each event of the run's stream fetches the live part again
// (graph with the current node, what each agent said); its end, or a failure, reloads
// the page for the result or the retry button. The stream is followed with
// live_stream.js, as the debate's and the tournament's: after a failed run's stream has
// ended, the page asks again now and then, so a retry started elsewhere reaches it.
// Without JavaScript the page still shows everything saved.
(function () {
  "use strict";
  function start() {
    const root = document.querySelector("[data-inquiry-live]");
    if (!root || root.dataset.follows !== "1" || !window.EventSource || !window.ArgueLive) return;
    const REFRESH = [
      "inquiry_output", "agent_dropped", "evidence_retrieved", "arbiter_decision", "stop_check",
      "muhasabah_validated", "debate_start", "debate_resumed",
    ];
    const RELOAD = new Set(["debate_complete", "debate_error"]);
    let pending = false;
    const refresh = () => {
      if (pending) return;
      pending = true;
      window.setTimeout(() => {
        pending = false;
        window.htmx.ajax("GET", root.dataset.live, { target: "#inquiry-live", swap: "outerHTML" });
      }, 150);
    };
    window.ArgueLive.follow({
      url: root.dataset.events,
      root,
      types: [...REFRESH, ...RELOAD],
      terminal: RELOAD,
      onEvent: (type) => (RELOAD.has(type) ? window.location.reload() : refresh()),
      reopenMs: Number(root.dataset.reopenMs) || undefined,
      // The page shows the saved state up to this event: an older debate_error (a run
      // since retried) must not reload it again and again.
      fromSeq: Number(root.dataset.lastSeq) || 0,
    });
  }
  document.addEventListener("DOMContentLoaded", start);
})();
