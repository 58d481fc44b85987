// The rule-set form: show the options of the chosen preset only (the server renders every
// option, hidden unless it applies to the preset chosen when the page was drawn).
(function () {
  "use strict";
  const form = document.querySelector(".ruleset-form");
  if (!form) return;
  function show() {
    const chosen = form.querySelector("input[name=preset]:checked");
    const code = chosen ? chosen.value : "";
    form.querySelectorAll(".option[data-presets]").forEach((block) => {
      const applies = block.getAttribute("data-presets").split(" ").indexOf(code) !== -1;
      block.hidden = !applies;
    });
  }
  form.addEventListener("change", (event) => {
    if (event.target && event.target.name === "preset") show();
  });
  show();
})();
