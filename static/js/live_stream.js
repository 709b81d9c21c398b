// Following a run's event stream (engine/sse.py) on a live page: debate_live.js,
// tournament_live.js and inquiry_live.js share it.
//
// EventSource reconnects by itself (sending Last-Event-ID) when a connection drops.
// When the server ends the stream on purpose (the run failed: nothing more comes
// until someone retries it), the reconnection gets 204 and EventSource gives up for
// good: a retry started in another tab, or by another person, would never reach this
// page. So after such an end the page asks again after a while (reopenMs, doubling
// up to ten minutes, back to reopenMs once events come), from the last event it has
// (?last_event_id=), until a terminal event.
(function () {
  "use strict";

  const LONGEST_WAIT_MS = 10 * 60 * 1000;

  // Too many live pages open in this account: the server says so in a sentence and
  // asks the browser (retry:) to wait half a minute before it tries again.
  function showRefusal(root, message) {
    let note = root.querySelector(".stream-refused");
    if (!note) {
      note = Object.assign(document.createElement("p"), { className: "notice stream-refused" });
      note.setAttribute("role", "status");
      root.prepend(note);
    }
    note.textContent = JSON.parse(message.data).detail;
    root.dataset.connection = "refused";
  }

  // onEvent(type, event) for each event of `types` after event `fromSeq` (0: the whole
  // log; a page rendered from the saved state passes the last event it shows); after one
  // of `terminal`, nothing more.
  function follow({ url, root, types, terminal, onEvent, reopenMs = 30000, fromSeq = 0 }) {
    let lastSeq = fromSeq;
    let wait = reopenMs;
    let over = false;

    function open() {
      const from = lastSeq ? `${url.includes("?") ? "&" : "?"}last_event_id=${lastSeq}` : "";
      const source = new EventSource(url + from);
      root.dataset.connection = "connecting";
      source.onopen = () => { root.dataset.connection = "open"; };
      source.addEventListener("stream_refused", (message) => showRefusal(root, message));
      source.onerror = () => {
        if (source.readyState !== EventSource.CLOSED) {
          root.dataset.connection = "reconnecting";
          return;
        }
        root.dataset.connection = "closed";
        if (over) return;
        window.setTimeout(open, wait);
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      };
      for (const type of types) {
        source.addEventListener(type, (message) => {
          const event = JSON.parse(message.data);
          if (typeof event.seq === "number" && event.seq > lastSeq) lastSeq = event.seq;
          wait = reopenMs;
          onEvent(type, event);
          if (terminal.has(type)) {
            over = true;
            source.close();
            root.dataset.connection = "closed";
          }
        });
      }
    }

    open();
  }

  window.ArgueLive = { follow };
})();
