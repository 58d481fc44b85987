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
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var FORM = "form[data-live-url]";
  var TYPING_DELAY = 350; // ms after the last typed digit
  var TAP_DELAY = 60; // ms: a burst of taps (steppers) is sent as one request
  var SAVE_GUARD = 8000; // ms: a second Save within this time of the first is ignored

  function liveForm(node) {
    return node && node.closest ? node.closest(FORM) : null;
  }

  function state(form) {
    if (!form._efuda) {
      form._efuda = {
        timer: 0, busy: false, again: false, adding: false, shown: null, saving: 0, failed: false
      };
    }
    return form._efuda;
  }

  // ---- What is sent -------------------------------------------------------------------------

  function formData(form, withNewPlayer) {
    var data = new FormData(form);
    if (!withNewPlayer) data.delete("new_player");
    data.delete("action");
    return data;
  }

  /* The state a preview stands for: every field Save would send (bar the CSRF token). */
  function stateKey(form) {
    var data = formData(form, false);
    data.delete("csrfmiddlewaretoken");
    return new URLSearchParams(data).toString();
  }

  // ---- The preview panel's status -----------------------------------------------------------

  function panel(form) {
    return form.querySelector("#preview");
  }

  function markStatus(form) {
    var box = panel(form);
    if (!box) return;
    var s = state(form);
    var stale = s.shown !== null && s.shown !== stateKey(form);
    box.setAttribute("aria-busy", stale || s.busy ? "true" : "false");
    box.classList.toggle("is-stale", stale);
    box.classList.toggle("is-offline", s.failed);
  }

  // ---- Requests -----------------------------------------------------------------------------

  function schedule(form, delay) {
    var s = state(form);
    clearTimeout(s.timer);
    markStatus(form);
    s.timer = setTimeout(function () { send(form); }, delay);
  }

  function send(form) {
    var s = state(form);
    clearTimeout(s.timer);
    if (s.busy) {
      s.again = true;
      return;
    }
    var key = stateKey(form);
    if (key === s.shown && !s.adding) {
      markStatus(form);
      return;
    }
    var body = formData(form, s.adding);
    body.set("action", "live");
    var adding = s.adding;
    s.busy = true;
    s.again = false;
    markStatus(form);
    fetch(form.getAttribute("data-live-url"), {
      method: "POST",
      body: new URLSearchParams(body),
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-Efuda-Preview": "1" }
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text(); // a preview never navigates away from what is being entered
    }).then(function (html) {
      s.busy = false;
      // A reply without the form (a login page after the session expired) is a failure too:
      // nothing is changed and nothing is asked again until the next change.
      s.failed = apply(form, html, key, adding) === "unusable";
      after(form);
    }, function () {
      s.busy = false;
      s.failed = true;
      after(form);
    });
  }

  function after(form) {
    var s = state(form);
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
    var s = state(form);
    if (stateKey(form) !== key) return "stale"; // the newer state is sent next
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var fresh = holder.content.querySelector("form#" + form.id) || holder.content.querySelector("form");
    if (!fresh || !fresh.querySelector("#preview")) return "unusable";
    var newPlayer = form.querySelector("input[name=new_player]");
    var typedName = newPlayer ? newPlayer.value : "";
    var content = document.createDocumentFragment();
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

  var ORDERED = ".taps.seats input[type=checkbox], [data-ordered] input[type=checkbox]";

  function orderedBoxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll(ORDERED));
  }

  function badgeNumber(box) {
    var badge = box.parentNode.querySelector(".n");
    var n = badge ? parseInt(badge.textContent, 10) : NaN;
    return isNaN(n) ? 1000 : n;
  }

  /* The tapped order, reconciled with what is checked (a restored page, a server's reply). */
  function tapOrder(form) {
    var boxes = orderedBoxes(form);
    var checked = boxes.filter(function (b) { return b.checked; });
    var ids = checked.map(function (b) { return b.value; });
    var saved = form.getAttribute("data-tap-order");
    var order = saved === null ? [] : saved.split(",").filter(function (v) {
      return ids.indexOf(v) >= 0;
    });
    if (saved === null) {
      checked.sort(function (a, b) { return badgeNumber(a) - badgeNumber(b); });
    }
    checked.forEach(function (b) {
      if (order.indexOf(b.value) < 0) order.push(b.value);
    });
    form.setAttribute("data-tap-order", order.join(","));
    return order;
  }

  function syncSeats(form) {
    var order = tapOrder(form);
    orderedBoxes(form).forEach(function (box) {
      var place = order.indexOf(box.value);
      var face = box.nextElementSibling || box.parentNode;
      var badge = face.querySelector(".n");
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
    var order = tapOrder(form);
    var at = order.indexOf(box.value);
    if (box.checked && at < 0) order.push(box.value);
    if (!box.checked && at >= 0) order.splice(at, 1);
    form.setAttribute("data-tap-order", order.join(","));
    syncSeats(form);
  }

  document.addEventListener("formdata", function (event) {
    var form = liveForm(event.target);
    if (!form) return;
    var boxes = orderedBoxes(form);
    if (!boxes.length) return;
    var name = boxes[0].name;
    var order = tapOrder(form);
    event.formData.delete(name);
    order.forEach(function (id) { event.formData.append(name, id); });
  }, true);

  // ---- Tap-order buttons (Daifugō finishing order; seats where the form uses them) ----------
  // Markup: a container [data-tap-field="order"] (default "order") whose buttons
  // [data-tap-player=ID] fill the form's <select name="order"> elements (the no-JavaScript
  // controls) in tap order. A tapped player shows aria-pressed="true" and its number; tapping it
  // again takes it out (those after move up a place); buttons never move.

  function tapField(node) {
    var box = node.closest("[data-tap-field]");
    return box ? box.getAttribute("data-tap-field") : "order";
  }

  function selectsOf(form, field) {
    return Array.prototype.slice.call(form.querySelectorAll('select[name="' + field + '"]'));
  }

  function orderOf(form, field) {
    return selectsOf(form, field).map(function (s) { return s.value; }).filter(Boolean);
  }

  function setOrder(form, field, order) {
    var selects = selectsOf(form, field);
    selects.forEach(function (select, i) { select.value = order[i] || ""; });
  }

  var autoLabel = ""; // the server's word for a last finisher placed automatically

  /* Per tap field: the order tapped and the one player left, placed automatically once all
     but one are placed (shown, not pressed; the server does the same on Save). */
  function tapState(form, field) {
    var buttons = Array.prototype.filter.call(form.querySelectorAll("[data-tap-player]"), function (b) {
      return tapField(b) === field;
    });
    var order = orderOf(form, field);
    var left = buttons.filter(function (b) {
      return order.indexOf(b.getAttribute("data-tap-player")) < 0;
    });
    var auto = order.length > 0 && left.length === 1 ? left[0].getAttribute("data-tap-player") : null;
    return { buttons: buttons, order: order, auto: auto };
  }

  function nameOf(form, id) {
    var b = form.querySelector('[data-tap-player="' + id + '"] bdi');
    return b ? b.textContent : id;
  }

  function syncTaps(form) {
    var fields = {};
    Array.prototype.forEach.call(form.querySelectorAll("[data-tap-player] .n.auto"), function (b) {
      autoLabel = b.textContent;
    });
    Array.prototype.forEach.call(form.querySelectorAll("[data-tap-player]"), function (button) {
      var field = tapField(button);
      if (!fields[field]) fields[field] = tapState(form, field);
      var id = button.getAttribute("data-tap-player");
      var place = fields[field].order.indexOf(id);
      var auto = fields[field].auto === id && Boolean(autoLabel);
      button.disabled = false;
      button.setAttribute("aria-pressed", place >= 0 ? "true" : "false");
      button.classList.toggle("placed", place >= 0 || auto);
      var badge = button.querySelector(".n");
      if (!badge) {
        badge = document.createElement("b");
        badge.className = "n";
        button.insertBefore(badge, button.firstChild);
      }
      badge.classList.toggle("auto", auto);
      badge.textContent = place >= 0 ? String(place + 1) : (auto ? autoLabel : "");
    });
    Array.prototype.forEach.call(form.querySelectorAll("ol.order-list"), function (list) {
      var field = list.getAttribute("data-tap-field") || "order";
      var st = fields[field] || tapState(form, field);
      var empty = list.querySelector(".empty");
      Array.prototype.forEach.call(list.querySelectorAll("li:not(.empty)"), function (li) {
        li.remove();
      });
      var ids = st.order.concat(st.auto && autoLabel ? [st.auto] : []);
      ids.forEach(function (id) {
        var li = document.createElement("li");
        var bdi = document.createElement("bdi");
        bdi.textContent = nameOf(form, id);
        li.appendChild(bdi);
        if (id === st.auto) {
          var mark = document.createElement("span");
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
    var field = tapField(button);
    var id = button.getAttribute("data-tap-player");
    var order = orderOf(form, field);
    var at = order.indexOf(id);
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
    var field = tapField(button);
    var order = orderOf(form, field);
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
    var from = input.getAttribute("data-step-from") || (input.name === "honours" ? "bid" : "");
    if (from) {
      var chosen = form.querySelector('input[name="' + from + '"]:checked');
      if (chosen && /^\d+$/.test(chosen.value)) {
        return parseInt(chosen.value, 10) + (delta > 0 ? 0 : -1);
      }
    }
    return delta > 0 ? 1 : 0;
  }

  function step(form, button) {
    var input = button.parentNode.querySelector("input");
    if (!input) return;
    var delta = parseInt(button.getAttribute("data-step"), 10) || 0;
    var min = input.min === "" ? 0 : parseInt(input.min, 10);
    var max = input.max === "" ? 99 : parseInt(input.max, 10);
    var current = input.value.trim();
    var value = /^\d+$/.test(current) ? parseInt(current, 10) + delta : stepStart(form, input, delta);
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
    var inputs = Array.prototype.filter.call(
      area.querySelectorAll("input:not([type=hidden]), select, textarea"), shown
    );
    var before = problem ? inputs.filter(function (i) {
      return problem.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_PRECEDING;
    }) : [];
    var pick = before.length ? before[before.length - 1] : inputs[0];
    if (pick && (pick.type === "radio" || pick.type === "checkbox")) {
      var group = inputs.filter(function (i) { return i.name === pick.name; });
      pick = group.filter(function (i) { return i.checked; })[0] || group[0];
    }
    if (pick) return pick;
    return Array.prototype.filter.call(area.querySelectorAll("button, [tabindex]"), shown)[0];
  }

  function showProblems(form) {
    var problem = form.querySelector(".field-error");
    var summary = document.querySelector("[data-error-summary], .error-summary, .form-errors");
    var target = null;
    var area = null;
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
    var target = document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return false;
    target.scrollIntoView({ block: "center" });
    var control = target.matches("input, select, textarea, button") ? target : problemControl(target, null);
    (control || target).focus({ preventScroll: true });
    return true;
  }

  // ---- Listeners (delegated: nothing to rebind after a morph) --------------------------------

  document.addEventListener("click", function (event) {
    var link = event.target.closest(".error-summary a[href^='#'], [data-error-summary] a[href^='#']");
    if (link && summaryLink(link)) {
      event.preventDefault();
      return;
    }
    var form = liveForm(event.target);
    if (!form) return;
    var button = event.target.closest("[data-step]");
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

  document.addEventListener("input", function (event) {
    var form = liveForm(event.target);
    if (!form || event.target.name === "new_player") return;
    var typed = /^(number|text|search|tel)$/.test(event.target.type || "");
    schedule(form, typed && event.isTrusted ? TYPING_DELAY : TAP_DELAY);
  });

  document.addEventListener("change", function (event) {
    var form = liveForm(event.target);
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
  document.addEventListener("submit", function (event) {
    var form = liveForm(event.target);
    if (!form) return;
    var s = state(form);
    var submitter = event.submitter;
    var action = submitter ? submitter.value : "";
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
    var name = form.querySelector("input[name=new_player]");
    s.adding = Boolean(name && name.value.trim());
    send(form);
  }, true);

  // Keep focus (and the phone keyboard, and so the layout) where it is until a tap on a submit
  // button completes, or the release could land beside the button.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest(FORM + " button[type=submit]")) event.preventDefault();
  }, true);

  function setUp(form) {
    var s = state(form);
    s.saving = 0;
    form.removeAttribute("data-tap-order"); // read again from the server's seat numbers
    syncSeats(form);
    syncTaps(form);
    s.shown = stateKey(form); // the page as served is the server's view of its own state
    if (form.querySelector(".field-error") || document.querySelector(".form-errors")) {
      showProblems(form);
    }
  }

  document.addEventListener("efuda:problems", function (event) {
    var form = liveForm(event.target) || document.querySelector(FORM);
    if (form) showProblems(form);
  });
  document.addEventListener("efuda:form-reset", function (event) {
    var form = liveForm(event.target);
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
  document.addEventListener("efuda:form-loaded", function (event) {
    var form = liveForm(event.target);
    if (form) setUp(form);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var form = liveForm(event.target) || (event.target.querySelector && event.target.querySelector(FORM));
    if (form) setUp(form);
  });
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll(FORM), setUp);
  });
  // The connection is back: previews that failed are asked again.
  window.addEventListener("online", function () {
    Array.prototype.forEach.call(document.querySelectorAll(FORM), function (form) {
      if (state(form).failed) {
        state(form).failed = false;
        state(form).shown = null;
        schedule(form, 0);
      }
    });
  });
  // Back/forward cache: a page shown again may Save again only through a fresh tap.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    Array.prototype.forEach.call(document.querySelectorAll(FORM), function (form) {
      state(form).saving = 0;
    });
  });

  window.efudaEntry = {
    preview: send, showProblems: showProblems, syncTaps: syncTaps, syncSeats: syncSeats
  };
})();
