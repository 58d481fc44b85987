/* The deals kept on the phone, in the page around the outbox: the running totals with the
   waiting deals' points added and marked (a club session's #running-totals, a tournament
   table's totals), and the points panel of the form filled in while the connection is gone.
   Whatever efuda sends back replaces all of it (the lists are read again once the deals are
   sent, the panel with the next preview). A module of static/js/outbox.js; the points
   themselves come from static/js/outbox-points.js. */

import { scoreBody, signed } from "./outbox-points.js";

/* The open page's scoring context (#outbox-scoring, tournaments/selectors/offline.py), or
   null where the page gives none. Read each time: the lists around it are replaced. */
export function pageContext() {
  const script = document.getElementById("outbox-scoring");
  if (!script) return null;
  try {
    return JSON.parse(script.textContent);
  } catch (e) {
    return null;
  }
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function mark(pending, id, text) {
  return element("span", "pending-mark", text("pending", { points: signed(pending.points[id]) }));
}

function note(after, pending, text) {
  const parent = after.parentNode;
  let p = parent.querySelector(":scope > [data-pending-note]");
  if (!pending.count) {
    if (p) p.remove();
    return;
  }
  if (!p) {
    p = element("p", "pending-note");
    p.dataset.pendingNote = "";
    after.after(p);
  }
  p.textContent = text("included", { n: pending.count });
}

function setPoints(span, value) {
  span.textContent = signed(value);
  span.classList.toggle("pos", value > 0);
  span.classList.toggle("neg", value < 0);
}

/* A club session's totals: each player's points with the waiting deals', ranked again (ties
   share a rank; among equals efuda's order stays), new players added, the added ones marked. */
function markList(section, context, pending, text) {
  const list = section.querySelector("ol.totals-list");
  if (!list) return;
  list.querySelectorAll("li[data-pending-new]").forEach((li) => li.remove());
  const rows = Array.from(list.children).map((li, i) => {
    const span = li.querySelector("[data-total]");
    if (li.dataset.index === undefined) li.dataset.index = String(i);
    return { li, span, id: span.dataset.total, server: parseInt(span.dataset.points, 10) || 0, index: Number(li.dataset.index) };
  });
  if (section.dataset.shown === undefined) section.dataset.shown = section.hidden ? "" : "1";
  for (const id of Object.keys(pending.points)) {
    if (rows.some((r) => r.id === id)) continue;
    const li = element("li");
    li.dataset.pendingNew = "";
    const span = element("span", "pts");
    span.dataset.total = id;
    const name = element("bdi", "", (context && context.names[id]) || id);
    li.append(element("span", "who"), span);
    li.firstChild.append(name);
    rows.push({ li, span, id, server: 0, index: 1000 + rows.length });
  }
  rows.forEach((r) => { r.total = r.server + (pending.points[r.id] || 0); });
  rows.sort((a, b) => b.total - a.total || a.index - b.index);
  let rank = 0;
  rows.forEach((r, i) => {
    rank = i > 0 && rows[i - 1].total === r.total ? rank : i + 1;
    const who = r.li.querySelector(".who");
    const added = Object.prototype.hasOwnProperty.call(pending.points, r.id);
    who.replaceChildren(rank + ". ", who.querySelector("bdi"));
    if (added) who.append(" ", mark(pending, r.id, text));
    setPoints(r.span, r.total);
    r.li.classList.toggle("has-pending", added);
    list.append(r.li);
  });
  note(section.querySelector("h2"), pending, text);
  section.hidden = !pending.count && !section.dataset.shown;
}

/* A tournament table's totals: one cell per seat, its player the table's in that seat. */
function markTable(table, context, pending, text) {
  table.querySelectorAll("tbody td[data-points]").forEach((td, i) => {
    const id = String(context.table[i]);
    const server = parseInt(td.dataset.points, 10) || 0;
    const added = Object.prototype.hasOwnProperty.call(pending.points, id);
    td.textContent = signed(server + (added ? pending.points[id] : 0));
    td.classList.toggle("has-pending", added);
    if (added) td.append(" ", mark(pending, id, text));
  });
  note(table.closest(".table-wrap") || table, pending, text);
}

/* The running totals of the open page with `pending` (outbox-points.js pendingTotals) added. */
export function markTotals(context, pending, text) {
  const section = document.querySelector("#running-totals section.running");
  if (section) markList(section, context, pending, text);
  const table = document.querySelector("table.ev-totals");
  if (table && context && context.table) markTable(table, context, pending, text);
}

/* The form's points panel without a connection: the deal as the phone scores it (previous:
   the 大富豪 the round follows), or nothing where it cannot (efuda's own text stays). */
export function localPreview(form, context, body, previous, text) {
  const panel = form.querySelector("#preview");
  if (!panel) return;
  const old = panel.querySelector("[data-offline-points]");
  const answer = context ? scoreBody(context, body, previous) : null;
  if (!answer || !answer.result) {
    if (old) old.remove();
    panel.classList.remove("has-local");
    return;
  }
  const block = element("div", "offline-points");
  block.dataset.offlinePoints = "";
  if (answer.result.redeal) {
    block.append(element("p", "redeal-note", text("redeal")));
  } else {
    const list = element("ol", "points");
    answer.order.forEach((id) => {
      const li = element("li");
      const role = answer.result.roles ? answer.result.roles[id] : answer.result.titles[id];
      if (role === "napoleon" || role === "daifugo") li.className = "lead";
      const who = element("span", "who");
      who.append(element("bdi", "", context.names[id] || id));
      const pts = element("span", "pts", signed(answer.points[id]));
      pts.classList.toggle("pos", answer.points[id] > 0);
      pts.classList.toggle("neg", answer.points[id] < 0);
      pts.dataset.localPlayer = id;
      li.append(who, pts);
      list.append(li);
    });
    block.append(list);
  }
  if (old) old.replaceWith(block);
  else panel.append(block);
  panel.classList.add("has-local");
}
