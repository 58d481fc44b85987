/* A page that shows deals and totals is never shown stale after Back: when the browser brings
   it back from its back-forward cache, it is asked again (the session page, after a deal was
   recorded on the entry page). The server also sends it with Cache-Control: no-store. */
"use strict";

window.addEventListener("pageshow", (event) => {
  if (event.persisted) window.location.reload();
});
