/* The entry form's tap controls: seats in the order they were tapped, the finishing-order
   buttons and the − / + steppers. A module of static/js/entry.js, which listens for the taps
   and asks the preview when these functions say the form changed. Buttons never move. */

// ---- Seats in the order they were tapped ---------------------------------------------------
// Seat toggles are checkboxes in a fixed order (".taps.seats", or any "[data-ordered]" group):
// they never move. The order they were tapped in is the clockwise seating: kept on the form
// (data-tap-order, which a morph of the form's content leaves alone), shown as each seat's
// number, and put into every FormData built from the form (Save, the preview, the outbox) by
// the "formdata" event, in place of the checkboxes' document order (seatOrderInto).

export const ORDERED = ".taps.seats input[type=checkbox], [data-ordered] input[type=checkbox]";

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

export function syncSeats(form) {
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

export function seatTapped(form, box) {
  const order = tapOrder(form);
  const at = order.indexOf(box.value);
  if (box.checked && at < 0) order.push(box.value);
  if (!box.checked && at >= 0) order.splice(at, 1);
  form.setAttribute("data-tap-order", order.join(","));
  syncSeats(form);
}

/* The seats of a FormData built from the form, in the order they were tapped. */
export function seatOrderInto(form, formData) {
  const boxes = orderedBoxes(form);
  if (!boxes.length) return;
  const name = boxes[0].name;
  const order = tapOrder(form);
  formData.delete(name);
  order.forEach((id) => { formData.append(name, id); });
}

// ---- Tap-order buttons (Daifugō finishing order; seats where the form uses them) ----------
// Markup: a container [data-tap-field="order"] (default "order") whose buttons
// [data-tap-player=ID] fill the form's <select name="order"> elements (the no-JavaScript
// controls) in tap order. A tapped player shows aria-pressed="true" and its number; tapping it
// again takes it out (those after move up a place); buttons never move.

// Per form: the server's word for a last finisher placed automatically, kept with the form.
const autoLabels = new WeakMap();

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

function syncButtons(form, fields, autoLabel) {
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
}

function syncLists(form, fields, autoLabel) {
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

/* The buttons and the order lists shown as the form's selects hold the order. */
export function syncTaps(form) {
  const fields = {};
  const said = form.querySelector("[data-tap-player] .n.auto");
  if (said && said.textContent) autoLabels.set(form, said.textContent);
  const autoLabel = autoLabels.get(form) || "";
  syncButtons(form, fields, autoLabel);
  syncLists(form, fields, autoLabel);
}

/* A player tapped: placed next, or taken out. False when nothing changed (every place taken). */
export function tapPlayer(form, button) {
  const field = tapField(button);
  const id = button.getAttribute("data-tap-player");
  const order = orderOf(form, field);
  const at = order.indexOf(id);
  if (at >= 0) {
    order.splice(at, 1);
  } else {
    if (order.length >= selectsOf(form, field).length) return false; // every place is taken
    order.push(id);
  }
  setOrder(form, field, order);
  syncTaps(form);
  return true;
}

/* "Undo" (the last placed) or "clear" (all). False when nothing was placed. */
export function orderOp(form, button) {
  const field = tapField(button);
  let order = orderOf(form, field);
  if (!order.length) return false;
  if (button.getAttribute("data-order") === "undo") order.pop();
  else order = [];
  setOrder(form, field, order);
  syncTaps(form);
  return true;
}

// ---- Steppers ------------------------------------------------------------------------------
// − / + change the number at once (a tap is never lost, whatever the latency); the "input"
// event they dispatch asks the preview. On an empty honours field (or any input naming a
// start, data-step-from="bid"), the first tap starts from the chosen bid: + gives the bid, −
// one less.

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

export function step(form, button) {
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

/* "Last trick won by" is asked only when at least one honour was discarded (docs/rules.md):
   shown or hidden as the count changes, as the server renders it. */
export function syncAsked(form) {
  const box = form.querySelector("[data-asked-if-discarded]");
  const discarded = form.querySelector("input[name=discarded]");
  if (!box || !discarded) return;
  box.hidden = !(parseInt(discarded.value, 10) > 0);
}
