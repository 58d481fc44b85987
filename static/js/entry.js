/* efuda deal entry: the live preview, steppers, tap-order buttons, Save guard, problems.

   Loaded without "defer" in <head> (it only adds the "js" class to <html> at once and registers
   delegated listeners), so the page never flashes its no-JavaScript controls and needs no inline
   script. Everything works without this file: the form's own inputs are the source of truth and
   the "Preview" button posts the whole form.

   The live preview never fights the scorekeeper:
   - every change (tap, typed digit, stepper) is made locally and at once; the preview follows;
   - a preview request posts exactly what Save would post (the same FormData, action=live);
   - one request at a time per form: changes made while it is on its way are sent after it, and
     its reply is applied only if the form still holds the state that was sent (a slow reply
     never overwrites a newer state);
   - the reply is morphed into the form in place (vendor/idiomorph.min.js): nodes are kept, the
     focused input keeps its value, focus stays on the control just used, the preview panel (a
     live region) is updated, not replaced, and buttons never move under a finger;
   - while the shown preview is not the form's current state, the panel says so (aria-busy).

   Hooks for other scripts (the outbox of static/js/outbox.js):
   - dispatch "efuda:problems" on the form after putting a server's refusal into it: the page
     scrolls to the first problem and focuses it;
   - dispatch "efuda:form-loaded" on the form after filling it with a form the server rendered
     (errors and all): the Save guard is released and the first problem shown, no preview asked;
   - dispatch "efuda:form-reset" on the form after reusing it for the next deal: the Save guard is
     released and the preview recomputed;
   - window.efudaEntry.preview(form) asks for a preview now. */
(() => {
  "use strict";
  document.documentElement.classList.add("js");

  const FORM = "form[data-live-url]";
  const TYPING_DELAY = 350; // ms after the last typed digit
  const TAP_DELAY = 60; // ms: a burst of taps (steppers) is sent as one request
  const SAVE_GUARD = 8000; // ms: a second Save within this time of the first is ignored

  function liveForm(node) {
    return node && node.closest ? node.closest(FORM) : null;
  }

  function state(form) {
    if (!form._efuda) {
      form._efuda = {
        timer: 0, busy: false, again: false, adding: false, shown: null, saving: 0, failed: false,
        autoLabel: ""
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
  function stateKey(form) {
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

  function schedule(form, delay) {
    const s = state(form);
    clearTimeout(s.timer);
    markStatus(form);
    s.timer = setTimeout(() => { send(form); }, delay);
  }

  function send(form) {
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

  // ---- Seats in the order they were tapped ---------------------------------------------------
  // Seat toggles are checkboxes in a fixed order (".taps.seats", or any "[data-ordered]" group):
  // they never move. The order they were tapped in is the clockwise seating: kept on the form
  // (data-tap-order, which a morph of the form's content leaves alone), shown as each seat's
  // number, and put into every FormData built from the form (Save, the preview, the outbox) by
  // the "formdata" event, in place of the checkboxes' document order.

  const ORDERED = ".taps.seats input[type=checkbox], [data-ordered] input[type=checkbox]";

  function orderedBoxes(form) {
    return Array.from(form.querySelectorAll(ORDERED));
  }

  function badgeNumber(box) {
    const badge = box.parentNode.querySelector(".n");
    const n = badge ? parseInt(badge.textContent, 10) : NaN;
    return isNaN(n) ? 1000 : n;
  }

  /* The tapped order, reconciled with what is checked (a restored page, a server's reply). */
  function tapOrder(form) {
    const boxes = orderedBoxes(form);
    const checked = boxes.filter((b) => { return b.checked; });
    const ids = checked.map((b) => { return b.value; });
    const saved = form.getAttribute("data-tap-order");
    const order = saved === null ? [] : saved.split(",").filter((v) => {
      return ids.indexOf(v) >= 0;
    });
    if (saved === null) {
      checked.sort((a, b) => { return badgeNumber(a) - badgeNumber(b); });
    }
    checked.forEach((b) => {
      if (order.indexOf(b.value) < 0) order.push(b.value);
    });
    form.setAttribute("data-tap-order", order.join(","));
    return order;
  }

  function syncSeats(form) {
    const order = tapOrder(form);
    orderedBoxes(form).forEach((box) => {
      const place = order.indexOf(box.value);
      const face = box.nextElementSibling || box.parentNode;
      let badge = face.querySelector(".n");
      if (place >= 0 && !badge) {
        badge = document.createElement("b");
        badge.className = "n";
        face.insertBefore(badge, face.firstChild);
      }
      if (badge) {
        if (place >= 0) badge.textContent = String(place + 1);
        else badge.remove();
      }
      box.parentNode.classList.toggle("placed", place >= 0);
    });
  }

  function seatTapped(form, box) {
    const order = tapOrder(form);
    const at = order.indexOf(box.value);
    if (box.checked && at < 0) order.push(box.value);
    if (!box.checked && at >= 0) order.splice(at, 1);
    form.setAttribute("data-tap-order", order.join(","));
    syncSeats(form);
  }

  document.addEventListener("formdata", (event) => {
    const form = liveForm(event.target);
    if (!form) return;
    const boxes = orderedBoxes(form);
    if (!boxes.length) return;
    const name = boxes[0].name;
    const order = tapOrder(form);
    event.formData.delete(name);
    order.forEach((id) => { event.formData.append(name, id); });
  }, true);

  // ---- Tap-order buttons (Daifugō finishing order; seats where the form uses them) ----------
  // Markup: a container [data-tap-field="order"] (default "order") whose buttons
  // [data-tap-player=ID] fill the form's <select name="order"> elements (the no-JavaScript
  // controls) in tap order. A tapped player shows aria-pressed="true" and its number; tapping it
  // again takes it out (those after move up a place); buttons never move.

  function tapField(node) {
    const box = node.closest("[data-tap-field]");
    return box ? box.getAttribute("data-tap-field") : "order";
  }

  function selectsOf(form, field) {
    return Array.from(form.querySelectorAll('select[name="' + field + '"]'));
  }

  function orderOf(form, field) {
    return selectsOf(form, field).map((s) => { return s.value; }).filter(Boolean);
  }

  function setOrder(form, field, order) {
    const selects = selectsOf(form, field);
    selects.forEach((select, i) => { select.value = order[i] || ""; });
  }


  /* Per tap field: the order tapped and the one player left, placed automatically once all
     but one are placed (shown, not pressed; the server does the same on Save). */
  function tapState(form, field) {
    const buttons = Array.from(form.querySelectorAll("[data-tap-player]")).filter((b) => {
      return tapField(b) === field;
    });
    const order = orderOf(form, field);
    const left = buttons.filter((b) => {
      return order.indexOf(b.getAttribute("data-tap-player")) < 0;
    });
    const auto = order.length > 0 && left.length === 1 ? left[0].getAttribute("data-tap-player") : null;
    return { buttons, order, auto };
  }

  function nameOf(form, id) {
    const b = form.querySelector('[data-tap-player="' + id + '"] bdi');
    return b ? b.textContent : id;
  }

  function syncTaps(form) {
    const fields = {};
    // The server's word for a last finisher placed automatically, kept with the form.
    const said = form.querySelector("[data-tap-player] .n.auto");
    if (said && said.textContent) state(form).autoLabel = said.textContent;
    const autoLabel = state(form).autoLabel || "";
    form.querySelectorAll("[data-tap-player]").forEach((button) => {
      const field = tapField(button);
      if (!fields[field]) fields[field] = tapState(form, field);
      const id = button.getAttribute("data-tap-player");
      const place = fields[field].order.indexOf(id);
      const auto = fields[field].auto === id && Boolean(autoLabel);
      button.disabled = false;
      button.setAttribute("aria-pressed", place >= 0 ? "true" : "false");
      button.classList.toggle("placed", place >= 0 || auto);
      let badge = button.querySelector(".n");
      if (!badge) {
        badge = document.createElement("b");
        badge.className = "n";
        button.insertBefore(badge, button.firstChild);
      }
      badge.classList.toggle("auto", auto);
      badge.textContent = place >= 0 ? String(place + 1) : (auto ? autoLabel : "");
    });
    form.querySelectorAll("ol.order-list").forEach((list) => {
      const field = list.getAttribute("data-tap-field") || "order";
      const st = fields[field] || tapState(form, field);
      const empty = list.querySelector(".empty");
      list.querySelectorAll("li:not(.empty)").forEach((li) => li.remove());
      const ids = st.order.concat(st.auto && autoLabel ? [st.auto] : []);
      ids.forEach((id) => {
        const li = document.createElement("li");
        const bdi = document.createElement("bdi");
        bdi.textContent = nameOf(form, id);
        li.appendChild(bdi);
        if (id === st.auto) {
          const mark = document.createElement("span");
          mark.className = "mark auto";
          mark.textContent = autoLabel;
          li.appendChild(document.createTextNode(" "));
          li.appendChild(mark);
        }
        list.appendChild(li);
      });
      if (empty) {
        empty.hidden = ids.length > 0;
        list.appendChild(empty);
      }
    });
  }

  function tapPlayer(form, button) {
    const field = tapField(button);
    const id = button.getAttribute("data-tap-player");
    const order = orderOf(form, field);
    const at = order.indexOf(id);
    if (at >= 0) {
      order.splice(at, 1);
    } else {
      if (order.length >= selectsOf(form, field).length) return; // every place is taken
      order.push(id);
    }
    setOrder(form, field, order);
    syncTaps(form);
    schedule(form, TAP_DELAY);
  }

  function orderOp(form, button) {
    const field = tapField(button);
    let order = orderOf(form, field);
    if (!order.length) return;
    if (button.getAttribute("data-order") === "undo") order.pop();
    else order = [];
    setOrder(form, field, order);
    syncTaps(form);
    schedule(form, TAP_DELAY);
  }

  // ---- Steppers ------------------------------------------------------------------------------
  // − / + change the number at once (a tap is never lost, whatever the latency); the preview
  // follows. On an empty honours field (or any input naming a start, data-step-from="bid"),
  // the first tap starts from the chosen bid: + gives the bid, − one less.

  function stepStart(form, input, delta) {
    const from = input.getAttribute("data-step-from") || (input.name === "honours" ? "bid" : "");
    if (from) {
      const chosen = form.querySelector('input[name="' + from + '"]:checked');
      if (chosen && /^\d+$/.test(chosen.value)) {
        return parseInt(chosen.value, 10) + (delta > 0 ? 0 : -1);
      }
    }
    return delta > 0 ? 1 : 0;
  }

  function step(form, button) {
    const input = button.parentNode.querySelector("input");
    if (!input) return;
    const delta = parseInt(button.getAttribute("data-step"), 10) || 0;
    const min = input.min === "" ? 0 : parseInt(input.min, 10);
    const max = input.max === "" ? 99 : parseInt(input.max, 10);
    const current = input.value.trim();
    const value = /^\d+$/.test(current) ? parseInt(current, 10) + delta : stepStart(form, input, delta);
    input.value = String(Math.max(min, Math.min(max, value)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // ---- After a refused save: the first problem in view and focused --------------------------

  function shown(node) {
    return !node.disabled && node.getClientRects().length > 0;
  }

  /* The control a problem is about: the input just before its message in the same area (for
     a group of taps, its chosen one or its first), else the area's first input or button. */
  function problemControl(area, problem) {
    const inputs = Array.from(
      area.querySelectorAll("input:not([type=hidden]), select, textarea")
    ).filter(shown);
    const before = problem ? inputs.filter((i) => {
      return problem.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_PRECEDING;
    }) : [];
    let pick = before.length ? before[before.length - 1] : inputs[0];
    if (pick && (pick.type === "radio" || pick.type === "checkbox")) {
      const group = inputs.filter((i) => { return i.name === pick.name; });
      pick = group.filter((i) => { return i.checked; })[0] || group[0];
    }
    if (pick) return pick;
    return Array.from(area.querySelectorAll("button, [tabindex]")).filter(shown)[0];
  }

  function showProblems(form) {
    const problem = form.querySelector(".field-error");
    const summary = document.querySelector("[data-error-summary], .error-summary, .form-errors");
    let target = null;
    let area = null;
    if (problem) {
      area = problem.closest("fieldset, .field, label") || problem.parentNode;
      target = problemControl(area, problem) || problem;
    } else if (summary) {
      area = summary;
      target = summary;
    }
    if (!target) return;
    if (target === summary || target === problem) {
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    }
    area.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }

  // A link of the error summary moves to its field and focuses the field's first control.
  function summaryLink(link) {
    const target = document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return false;
    target.scrollIntoView({ block: "center" });
    const control = target.matches("input, select, textarea, button") ? target : problemControl(target, null);
    (control || target).focus({ preventScroll: true });
    return true;
  }

  // ---- Listeners (delegated: nothing to rebind after a morph) --------------------------------

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
      tapPlayer(form, button);
      return;
    }
    button = event.target.closest("[data-order]");
    if (button) orderOp(form, button);
  });

  document.addEventListener("input", (event) => {
    const form = liveForm(event.target);
    if (!form || event.target.name === "new_player") return;
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
})();
