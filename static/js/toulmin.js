// The argument's diagram page: the Print button prints it (print CSS keeps the diagram only).
(function () {
  "use strict";
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
})();
