// The rule-set form: show the options of the chosen preset only (the server renders every
// option, hidden unless it applies to the preset chosen when the page was drawn).
(function () {
  "use strict";
  var form = document.querySelector(".ruleset-form");
  if (!form) return;
  function show() {
    var chosen = form.querySelector("input[name=preset]:checked");
    var code = chosen ? chosen.value : "";
    form.querySelectorAll(".option[data-presets]").forEach(function (block) {
      var applies = block.getAttribute("data-presets").split(" ").indexOf(code) !== -1;
      block.hidden = !applies;
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target && event.target.name === "preset") show();
  });
  show();
})();
