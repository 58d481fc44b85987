/* The entry form's live preview: the points of the deal being entered, asked from the server
   as the form changes and morphed into the form in place. A module of static/js/entry.js.

   The live preview never fights the scorekeeper:
   - every change (tap, typed digit, stepper) is made locally and at once; the preview follows;
   - a preview request posts exactly what Save would post (the same FormData, action=live);
   - one request at a time per form: changes made while it is on its way are sent after it, and
     its reply is applied only if the form still holds the state that was sent (a slow reply
     never overwrites a newer state);
   - the reply is morphed into the form in place (vendor/idiomorph.min.js): nodes are kept, the
     focused input keeps its value, focus stays on the control just used, the preview panel (a
     live region) is updated, not replaced, and buttons never move under a finger;
   - while the shown preview is not the form's current state, the panel says so (aria-busy). */

import { showProblems } from "./entry-problems.js";
import { syncSeats, syncTaps } from "./entry-taps.js";

export const FORM = "form[data-live-url]";

export function liveForm(node) {
  return node && node.closest ? node.closest(FORM) : null;
}

/* What is kept per form: the pending request, the state the shown preview stands for, the
   time of the last Save (the Save guard), whether the last preview failed. */
export function state(form) {
  if (!form._efuda) {
    form._efuda = {
      timer: 0, busy: false, again: false, adding: false, shown: null, saving: 0, failed: false
    };
  }
  return form._efuda;
}

// ---- What is sent -------------------------------------------------------------------------

function formData(form, withNewPlayer) {
  const data = new FormData(form);
  if (!withNewPlayer) data.delete("new_player");
  data.delete("action");
  return data;
}

/* The state a preview stands for: every field Save would send (bar the CSRF token). */
export function stateKey(form) {
  const data = formData(form, false);
  data.delete("csrfmiddlewaretoken");
  return new URLSearchParams(data).toString();
}

// ---- The preview panel's status -----------------------------------------------------------

function panel(form) {
  return form.querySelector("#preview");
}

function markStatus(form) {
  const box = panel(form);
  if (!box) return;
  const s = state(form);
  const stale = s.shown !== null && s.shown !== stateKey(form);
  box.setAttribute("aria-busy", stale || s.busy ? "true" : "false");
  box.classList.toggle("is-stale", stale);
  box.classList.toggle("is-offline", s.failed);
}

// ---- Requests -----------------------------------------------------------------------------

/* Preview after `delay` ms, unless another change comes first. */
export function schedule(form, delay) {
  const s = state(form);
  clearTimeout(s.timer);
  markStatus(form);
  s.timer = setTimeout(() => { send(form); }, delay);
}

/* Preview now (after the request on its way, if there is one). */
export function send(form) {
  const s = state(form);
  clearTimeout(s.timer);
  if (s.busy) {
    s.again = true;
    return;
  }
  const key = stateKey(form);
  if (key === s.shown && !s.adding) {
    markStatus(form);
    return;
  }
  const body = formData(form, s.adding);
  body.set("action", "live");
  const adding = s.adding;
  s.busy = true;
  s.again = false;
  markStatus(form);
  fetch(form.getAttribute("data-live-url"), {
    method: "POST",
    body: new URLSearchParams(body),
    credentials: "same-origin",
    headers: { "HX-Request": "true", "X-Efuda-Preview": "1" }
  }).then((response) => {
    if (!response.ok) throw new Error(String(response.status));
    return response.text(); // a preview never navigates away from what is being entered
  }).then((html) => {
    s.busy = false;
    // A reply without the form (a login page after the session expired) is a failure too:
    // nothing is changed and nothing is asked again until the next change.
    s.failed = apply(form, html, key, adding) === "unusable";
    after(form);
  }, () => {
    s.busy = false;
    s.failed = true;
    after(form);
  });
}

function after(form) {
  const s = state(form);
  markStatus(form);
  if (s.failed) {
    form.dispatchEvent(new CustomEvent("efuda:preview-failed", { bubbles: true }));
    return; // the next change tries again
  }
  if (s.again || s.adding || stateKey(form) !== s.shown) schedule(form, 0);
}

/* The number or name being typed keeps its value (a tap control takes the server's). */
function keepTyping(attribute, node) {
  return !(attribute === "value" && node === document.activeElement &&
    /^(number|text|search|tel)$/.test(node.type || ""));
}

/* Morph the server's form into ours, if ours still holds the state that was sent. */
function apply(form, html, key, adding) {
  const s = state(form);
  if (stateKey(form) !== key) return "stale"; // the newer state is sent next
  const holder = document.createElement("template");
  holder.innerHTML = html;
  const fresh = holder.content.querySelector("form#" + form.id) || holder.content.querySelector("form");
  if (!fresh || !fresh.querySelector("#preview")) return "unusable";
  let newPlayer = form.querySelector("input[name=new_player]");
  const typedName = newPlayer ? newPlayer.value : "";
  const content = document.createDocumentFragment();
  while (fresh.firstChild) content.appendChild(fresh.firstChild);
  Idiomorph.morph(form, content, {
    morphStyle: "innerHTML",
    restoreFocus: true,
    callbacks: { beforeAttributeUpdated: keepTyping }
  });
  newPlayer = form.querySelector("input[name=new_player]");
  if (newPlayer) newPlayer.value = adding ? "" : typedName;
  if (adding) s.adding = false;
  s.shown = key;
  syncSeats(form);
  syncTaps(form);
  // The server may have normalised the form (an unseated Napoleon is no longer a choice):
  // then the state differs from what was previewed, and after() previews it again.
  if (form.querySelector(".field-error") && adding) showProblems(form);
  return "applied";
}
