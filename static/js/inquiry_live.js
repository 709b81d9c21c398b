// The inquiry's live page: each event of the stream fetches the live part again
// (graph with the current node, what each agent said); the end reloads the page
// for the result. Without JavaScript the page still shows everything saved.
(function () {
  "use strict";
  function start() {
    const root = document.getElementById("inquiry-live");
    if (!root || root.dataset.finished === "1" || !window.EventSource) return;
    const source = new EventSource(root.dataset.events);
    // Too many live pages open: a sentence, and the browser waits (retry:) before asking again.
    source.addEventListener("stream_refused", (message) => {
      let note = document.getElementById("stream-refused");
      if (!note) {
        note = Object.assign(document.createElement("p"), { className: "notice", id: "stream-refused" });
        note.setAttribute("role", "status");
        root.before(note);
      }
      note.textContent = JSON.parse(message.data).detail;
    });
    let pending = false;
    const refresh = () => {
      if (pending) return;
      pending = true;
      window.setTimeout(() => {
        pending = false;
        htmx.ajax("GET", root.dataset.live, { target: "#inquiry-live", swap: "outerHTML" });
      }, 150);
    };
    ["inquiry_output", "agent_dropped", "evidence_retrieved", "arbiter_decision", "stop_check",
     "muhasabah_validated", "debate_start", "debate_resumed"].forEach((type) =>
      source.addEventListener(type, refresh));
    ["debate_complete", "debate_error"].forEach((type) =>
      source.addEventListener(type, () => { source.close(); window.location.reload(); }));
  }
  document.addEventListener("DOMContentLoaded", start);
})();
