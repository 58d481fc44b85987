// The import job page polls its progress every second (htmx, templates/tournaments/imports/_job.html).
// When a poll cannot reach the server (no connection, a timeout), say that the progress shown is
// not up to date; the next poll that gets through replaces the section, note hidden again.
(() => {
  "use strict";
  function note(show) {
    const el = document.querySelector("#import-job [data-import-offline]");
    if (el) el.hidden = !show;
  }
  function fromJob(event) {
    const target = event.target;
    return target && target.closest && target.closest("#import-job");
  }
  document.addEventListener("htmx:sendError", (event) => { if (fromJob(event)) note(true); });
  document.addEventListener("htmx:timeout", (event) => { if (fromJob(event)) note(true); });
  window.addEventListener("offline", () => { note(true); });
})();
