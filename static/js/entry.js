/* Deal entry helpers: − / + steppers and the Daifugō tap order. The form's own inputs stay the
   source of truth (the page works without this file); each helper changes an input and fires
   "change", so htmx re-renders the form with the new preview. Delegated, so swaps need no rebinding. */
(function () {
  "use strict";
  function fire(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.addEventListener("click", function (event) {
    var step = event.target.closest("[data-step]");
    if (step) {
      var input = step.parentNode.querySelector("input[type=number]");
      var max = parseInt(input.max || "99", 10);
      var value = (parseInt(input.value || "0", 10) || 0) + parseInt(step.dataset.step, 10);
      input.value = Math.max(0, Math.min(max, value));
      fire(input);
      return;
    }
    var form = event.target.closest("form");
    if (!form) return;
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[name=order]"));
    var tap = event.target.closest("[data-tap-player]");
    if (tap) {
      var free = selects.filter(function (s) { return !s.value; })[0];
      if (free) {
        free.value = tap.dataset.tapPlayer;
        tap.disabled = true;
        fire(free);
      }
      return;
    }
    var op = event.target.closest("[data-order]");
    if (op) {
      var filled = selects.filter(function (s) { return s.value; });
      if (!filled.length) return;
      if (op.dataset.order === "undo") {
        filled[filled.length - 1].value = "";
      } else {
        filled.forEach(function (s) { s.value = ""; });
      }
      fire(filled[0]);
    }
  });
})();
