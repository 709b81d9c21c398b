// Replay an inquiry's stored events one step at a time (all are in the page;
// without JavaScript they are simply all shown).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", () => {
    const items = Array.from(document.querySelectorAll("#replay > li"));
    if (!items.length) return;
    let shown = 1;
    const render = () => items.forEach((item, i) => { item.hidden = i >= shown; });
    render();
    document.querySelector('[data-action="step"]').addEventListener("click", () => {
      shown = Math.min(items.length, shown + 1);
      render();
      items[shown - 1].scrollIntoView({ block: "nearest" });
    });
    document.querySelector('[data-action="all"]').addEventListener("click", () => {
      shown = items.length;
      render();
    });
  });
})();
