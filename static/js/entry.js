/* efuda deal entry: the live preview, steppers, tap-order buttons, Save guard, problems.

   An ES module (type="module" in <head>): it runs once the page is parsed, before
   DOMContentLoaded, and registers delegated listeners, so nothing is rebound after a morph. The
   "js" class that hides the form's no-JavaScript controls is set before the page paints by
   static/js/entry-head.js (a classic script, which a module cannot be). Everything works without
   these files: the form's own inputs are the source of truth and the "Preview" button posts the
   whole form. Its parts:
   - static/js/entry-preview.js: the live preview (what is sent, one request at a time, the
     reply morphed in place, the panel's status);
   - static/js/entry-taps.js: seats in tapped order, the finishing-order buttons, the steppers;
   - static/js/entry-problems.js: after a refused save, the first problem in view and focused.

   Hooks for other scripts (the outbox of static/js/outbox.js):
   - dispatch "efuda:problems" on the form after putting a server's refusal into it: the page
     scrolls to the first problem and focuses it;
   - dispatch "efuda:form-loaded" on the form after filling it with a form the server rendered
     (errors and all): the Save guard is released and the first problem shown, no preview asked;
   - dispatch "efuda:form-reset" on the form after reusing it for the next deal: the Save guard is
     released and the preview recomputed;
   - window.efudaEntry.preview(form) asks for a preview now. */

import { FORM, liveForm, schedule, send, state, stateKey } from "./entry-preview.js";
import { showProblems, summaryLink } from "./entry-problems.js";
import {
  ORDERED, orderOp, seatOrderInto, seatTapped, step, syncAsked, syncSeats, syncTaps, tapPlayer
} from "./entry-taps.js";

const TYPING_DELAY = 350; // ms after the last typed digit
const TAP_DELAY = 60; // ms: a burst of taps (steppers) is sent as one request
const SAVE_GUARD = 8000; // ms: a second Save within this time of the first is ignored

// Every FormData built from the form (Save, the preview, the outbox) has the seats in the
// order they were tapped.
document.addEventListener("formdata", (event) => {
  const form = liveForm(event.target);
  if (form) seatOrderInto(form, event.formData);
}, true);

document.addEventListener("click", (event) => {
  const link = event.target.closest(".error-summary a[href^='#'], [data-error-summary] a[href^='#']");
  if (link && summaryLink(link)) {
    event.preventDefault();
    return;
  }
  const form = liveForm(event.target);
  if (!form) return;
  let button = event.target.closest("[data-step]");
  if (button) {
    step(form, button);
    return;
  }
  button = event.target.closest("[data-tap-player]");
  if (button) {
    if (tapPlayer(form, button)) schedule(form, TAP_DELAY);
    return;
  }
  button = event.target.closest("[data-order]");
  if (button && orderOp(form, button)) schedule(form, TAP_DELAY);
});

document.addEventListener("input", (event) => {
  const form = liveForm(event.target);
  if (!form || event.target.name === "new_player") return;
  if (event.target.name === "discarded") syncAsked(form);
  const typed = /^(number|text|search|tel)$/.test(event.target.type || "");
  schedule(form, typed && event.isTrusted ? TYPING_DELAY : TAP_DELAY);
});

document.addEventListener("change", (event) => {
  const form = liveForm(event.target);
  if (!form || event.target.name === "new_player") return;
  if (event.target.type === "number" || event.target.type === "text") {
    send(form); // left the field: preview now
  } else {
    if (event.target.tagName === "SELECT") syncTaps(form);
    if (event.target.matches(ORDERED)) seatTapped(form, event.target);
    schedule(form, 0);
  }
});

// The "Add" (new player) and no-JavaScript "Preview" buttons preview in place; Save is a
// normal post, sent once.
document.addEventListener("submit", (event) => {
  const form = liveForm(event.target);
  if (!form) return;
  const s = state(form);
  const submitter = event.submitter;
  const action = submitter ? submitter.value : "";
  if (action === "save") {
    if (s.saving && Date.now() - s.saving < SAVE_GUARD) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    s.saving = Date.now();
    return;
  }
  event.preventDefault();
  const name = form.querySelector("input[name=new_player]");
  s.adding = Boolean(name && name.value.trim());
  send(form);
}, true);

// Keep focus (and the phone keyboard, and so the layout) where it is until a tap on a submit
// button completes, or the release could land beside the button.
document.addEventListener("mousedown", (event) => {
  if (event.target.closest(FORM + " button[type=submit]")) event.preventDefault();
}, true);

function setUp(form) {
  const s = state(form);
  s.saving = 0;
  form.removeAttribute("data-tap-order"); // read again from the server's seat numbers
  syncSeats(form);
  syncTaps(form);
  syncAsked(form);
  s.shown = stateKey(form); // the page as served is the server's view of its own state
  if (form.querySelector(".field-error") || document.querySelector(".form-errors")) {
    showProblems(form);
  }
}

document.addEventListener("efuda:problems", (event) => {
  const form = liveForm(event.target) || document.querySelector(FORM);
  if (form) showProblems(form);
});
document.addEventListener("efuda:form-reset", (event) => {
  const form = liveForm(event.target);
  if (!form) return;
  state(form).saving = 0;
  state(form).shown = null;
  form.removeAttribute("data-tap-order");
  syncSeats(form);
  syncTaps(form);
  syncAsked(form);
  schedule(form, 0);
});
// A form that another script filled from the server (the outbox reopening a refused deal)
// is, like a page just served, the server's view of its own state: no preview is asked.
document.addEventListener("efuda:form-loaded", (event) => {
  const form = liveForm(event.target);
  if (form) setUp(form);
});
document.addEventListener("htmx:afterSettle", (event) => {
  const form = liveForm(event.target) || (event.target.querySelector && event.target.querySelector(FORM));
  if (form) setUp(form);
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(FORM).forEach(setUp);
});
// The connection is back: previews that failed are asked again.
window.addEventListener("online", () => {
  document.querySelectorAll(FORM).forEach((form) => {
    if (state(form).failed) {
      state(form).failed = false;
      state(form).shown = null;
      schedule(form, 0);
    }
  });
});
// Back/forward cache: a page shown again is asked again, never shown as it was (its totals
// would be stale; a form being filled in comes back from its draft, static/js/outbox.js).
window.addEventListener("pageshow", (event) => {
  if (event.persisted) window.location.reload();
});

window.efudaEntry = { FORM, preview: send, showProblems, syncTaps, syncSeats };
