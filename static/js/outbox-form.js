/* The entry form as the outbox uses it: the deal's id (client_id), what the form holds, the
   next deal, a form the server rendered put into ours, and the draft of the deal being filled
   in (kept per person and page, so a reload keeps the taps; dropped once the deal is saved or
   discarded). A module of static/js/outbox.js; the form is static/js/entry.js's. */

export const FORM = window.efudaEntry ? window.efudaEntry.FORM : "form[data-live-url]"; // entry.js's
const DRAFT_DELAY = 300; // ms after the last change before the draft is written
const USED = "efuda-outbox-used";

export function entryForm() {
  return document.querySelector(FORM);
}

export function idField(form) {
  return form ? form.querySelector("input[name=client_id]") : null;
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
}

// ---- What the form holds ------------------------------------------------------------------

/* Every field Save sends (bar the CSRF token and a name being typed), as [name, value]. */
export function body(form, submitter) {
  const data = new FormData(form, submitter);
  data.delete("csrfmiddlewaretoken");
  data.delete("new_player");
  data.delete("action");
  return Array.from(data.entries()).filter((pair) => typeof pair[1] === "string");
}

function stateOf(form) {
  return new URLSearchParams(body(form).filter((pair) => pair[0] !== "client_id")).toString();
}

/* What the deal looks like in the list: the faces of the tapped buttons as shown (the
   words only a screen reader hears are left out), then the finishing order. */
export function summary(form) {
  const parts = [];
  form.querySelectorAll("label.tap input:checked").forEach((input) => {
    if (input.name === "seats") return;
    const face = input.nextElementSibling;
    if (!face) return;
    const shown = face.cloneNode(true);
    shown.querySelectorAll(".sr-only, .n, .note").forEach((n) => n.remove());
    const label = shown.textContent.trim();
    if (label && parts.indexOf(label) < 0) parts.push(label);
  });
  form.querySelectorAll("input[type=number]").forEach((input) => {
    if (input.value !== "") parts.push(input.value);
  });
  const order = Array.from(form.querySelectorAll("ol.order-list li:not(.empty) bdi"))
    .map((b) => b.textContent.trim());
  if (order.length) parts.push(order.join(" → "));
  return parts.join(" ").slice(0, 120);
}

/* Put a form the server rendered (errors beside the fields, or a draft) into ours. */
export function replaceForm(form, html) {
  const holder = document.createElement("template");
  holder.innerHTML = html;
  const fresh = holder.content.querySelector("#deal-form") || holder.content.querySelector("form");
  if (!fresh) return false;
  form.replaceChildren(...fresh.childNodes);
  return true;
}

/* Without a connection a draft is put back by hand: each kept value into its control. */
function applyValues(form, values) {
  form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach((input) => {
    input.checked = values.some((pair) => pair[0] === input.name && pair[1] === input.value);
  });
  const byName = {};
  values.forEach((pair) => { (byName[pair[0]] = byName[pair[0]] || []).push(pair[1]); });
  form.querySelectorAll("input[type=number], input[type=text], select").forEach((field) => {
    const kept = byName[field.name];
    if (kept && kept.length) field.value = kept.shift();
  });
  const seats = values.filter((pair) => pair[0] === "seats").map((pair) => pair[1]);
  if (seats.length) form.setAttribute("data-tap-order", seats.join(","));
}

/* The form of this page's deals. ctx: box (#outbox), core (static/js/outbox-core.js), outbox
   (its items), transport (for a fresh CSRF token), author and page (of this page), kv
   (localStorage). */
export function createDealForm(ctx) {
  const { box, core, outbox, transport, author, page, kv } = ctx;
  const reopened = box.querySelector("[data-outbox=reopened]");
  let initialForm = null;
  let pristine = null; // the form's state as served or cleared: nothing entered yet
  let draftTimer = 0;

  // ---- Ids already used (a page opened from the phone's cache may carry one) -------------

  function usedIds() {
    try {
      return JSON.parse(kv.getItem(USED) || "[]");
    } catch (e) {
      return [];
    }
  }

  function markUsed(id) {
    const ids = usedIds().filter((x) => x !== id);
    ids.push(id);
    try {
      kv.setItem(USED, JSON.stringify(ids.slice(-500)));
    } catch (e) { /* private mode: the outbox itself still knows its ids */ }
  }

  /* Nothing entered since the form was served or cleared (and not a refused deal reopened). */
  function untouched(form) {
    return stateOf(form) === pristine && !form.dataset.editing;
  }

  /* The form as the page first showed it, with a new id: the next deal. */
  function nextDeal(form) {
    if (initialForm !== null) form.innerHTML = initialForm;
    idField(form).value = newId();
    delete form.dataset.editing;
    reopened.hidden = true;
    pristine = stateOf(form);
    form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
  }

  /* Ask the server to render the form from kept values: action "preview" shows the problems
     beside their fields, "live" the form in progress. Never saves. */
  async function loadForm(form, values, action) {
    const data = new URLSearchParams(values);
    data.set("action", action);
    const token = await transport.freshToken();
    if (token === null) return false;
    try {
      const response = await fetch(box.dataset.reopenUrl || form.getAttribute("data-live-url"), {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "X-CSRFToken": token }
      });
      return response.ok || response.status === 400 ? replaceForm(form, await response.text()) : false;
    } catch (e) {
      return false;
    }
  }

  // ---- Drafts --------------------------------------------------------------------------------

  function keepDraft() {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      const form = entryForm();
      if (!form || !author || !idField(form)) return;
      if (untouched(form)) {
        core.draftDrop(kv, author, page, idField(form).value);
        return;
      }
      core.draftSave(kv, author, page, idField(form).value, body(form), Date.now());
    }, DRAFT_DELAY);
  }

  function dropDraft(id) {
    core.draftDrop(kv, author, page, id);
  }

  /* The newest draft of this person on this page comes back into the form; drafts of forms
     saved meanwhile are dropped. */
  async function restoreDraft(form) {
    if (!author) return;
    const kept = (await outbox.items(author)).map((r) => r.id);
    let draft = core.draftLoad(kv, author, page);
    while (draft && (usedIds().indexOf(draft.id) >= 0 || kept.indexOf(draft.id) >= 0)) {
      core.draftDrop(kv, author, page, draft.id);
      draft = core.draftLoad(kv, author, page);
    }
    if (!draft) return;
    const values = draft.body.filter((pair) => pair[0] !== "client_id");
    if (!(await loadForm(form, values, "live"))) {
      applyValues(form, values);
      form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
    } else {
      form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
      window.efudaEntry.preview(form);
    }
    idField(form).value = draft.id;
  }

  /* The form as the page opens: kept as the next deal's, given an id not used yet, then
     the draft put back. */
  async function open(form) {
    initialForm = form.innerHTML;
    const field = idField(form);
    // A page opened from the phone's cache carries an id that may be used already.
    if (field && (!field.value || usedIds().indexOf(field.value) >= 0)) field.value = newId();
    if (field && (await outbox.items(author)).some((r) => r.id === field.value)) field.value = newId();
    pristine = stateOf(form);
    await restoreDraft(form);
  }

  return { open, untouched, nextDeal, loadForm, keepDraft, dropDraft, markUsed };
}
