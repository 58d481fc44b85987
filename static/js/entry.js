/* Deal entry helpers: − / + steppers and the Daifugō tap order. The form's own inputs stay the
   source of truth (the page works without this file); each helper changes an input and fires
   "change" (or "efuda-step"), so htmx re-renders the form with the new preview. Delegated, so swaps need no rebinding. */
(function () {
  "use strict";
  function fire(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // A live preview that lands between the press and the release of "Save" would replace the
  // button under the finger and lose the tap: while Save is being pressed, skip previews.
  var saving = 0;
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest("#deal-form button[value=save]")) saving = Date.now();
  }, true);
  // Keep focus (and the phone keyboard, and so the layout) where it is until the tap on a
  // submit button completes: otherwise the blur of a number field can shift the page and the
  // release lands beside the button.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest("#deal-form button[type=submit]")) event.preventDefault();
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (Date.now() - saving < 1500 && event.target.id === "deal-form") event.preventDefault();
  });
  document.addEventListener("click", function (event) {
    var step = event.target.closest("[data-step]");
    if (step) {
      var input = step.parentNode.querySelector("input[type=number]");
      var max = parseInt(input.max || "99", 10);
      var value = (parseInt(input.value || "0", 10) || 0) + parseInt(step.dataset.step, 10);
      input.value = Math.max(0, Math.min(max, value));
      input.dispatchEvent(new CustomEvent("efuda-step", { bubbles: true }));
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
