/* The points of deals kept on the phone: what the entry form holds turned into a deal, scored
   with the club's own rule set by static/js/scoring-core.js, added into running totals, and
   held against the points efuda sends back once it has the deal.

   Plain logic with no page behind it (tested in Node, tests/js/outbox-points.test.js); the page
   side is static/js/outbox-totals.js and static/js/outbox-list.js.

   A page that can score gives its context as JSON (#outbox-scoring, from
   tournaments/selectors/offline.py): {game, rules, names: {id: name}, previous: the 大富豪 of
   the session's latest round, table: a tournament table's players in seat order or null}. The
   outbox keeps that context with each deal saved on the page (item.scoring), so a deal is
   scored under the rules it was entered with, on any page, even after a reload offline. */

import { ScoringError, pyStrip, scoreData } from "./scoring-core.js";

const INT32 = 2 ** 31;

// ---- The entry form's fields, as tournaments/forms/entry.py reads them ----------------------

function all(body, name) {
  return body.filter((pair) => pair[0] === name).map((pair) => pair[1]);
}

function last(body, name) {
  const values = all(body, name);
  return values.length ? values[values.length - 1] : ""; // QueryDict.get: the last one
}

/* forms.entry.is_row_id */
function isRowId(text) {
  return /^[0-9]{1,18}$/.test(text);
}

/* IntListField: player ids in posted order, blanks dropped; null when one is not an id. */
function ids(body, name) {
  const out = [];
  for (const raw of all(body, name)) {
    const text = pyStrip(String(raw));
    if (!text) continue;
    if (!isRowId(text)) return null;
    out.push(Number(text));
  }
  return out;
}

/* IntegerField (a 32-bit whole number, "12.0" read as 12): null when empty, undefined when
   the form would refuse it. */
function integer(body, name) {
  const raw = last(body, name);
  if (raw === "") return null;
  const text = pyStrip(String(raw).replace(/\.0*\s*$/, ""));
  if (!/^[+-]?[0-9]+(_[0-9]+)*$/.test(text)) return undefined;
  const value = Number(text.split("_").join(""));
  return value >= -INT32 && value < INT32 ? value : undefined;
}

/* A tapped choice's id, or the text as sent (the scoring core names what is wrong with it). */
function idOrText(value) {
  return isRowId(value) ? Number(value) : (value || null);
}

function checked(body, name) {
  if (!body.some((pair) => pair[0] === name)) return false;
  const value = last(body, name);
  if (value.toLowerCase() === "true") return true;
  if (value.toLowerCase() === "false") return false;
  return Boolean(value);
}

function napoleonData(body, table) {
  const posted = ids(body, "seats");
  const honours = integer(body, "honours");
  const discarded = integer(body, "discarded");
  if (posted === null || honours === undefined || discarded === undefined) return null; // refused
  const seats = table ? table.slice() : posted;
  if (checked(body, "redeal")) return { seats, redeal: true };
  const suit = pyStrip(last(body, "called_suit"));
  const rank = pyStrip(last(body, "called_rank"));
  const adjutant = pyStrip(last(body, "adjutant"));
  return {
    seats,
    napoleon: idOrText(last(body, "napoleon")),
    bid: idOrText(last(body, "bid")),
    trump: pyStrip(last(body, "trump")) || null,
    called: suit === "JK" ? "JK" : (suit || rank ? suit + rank : null),
    adjutant: adjutant === "" || adjutant === "solo" ? null : idOrText(adjutant),
    solo: adjutant === "solo",
    honours,
    discarded,
    last_trick: last(body, "last_trick") || null,
    redeal: false
  };
}

function daifugoData(body, table) {
  const order = ids(body, "order");
  const posted = ids(body, "players");
  const forbidden = ids(body, "forbidden");
  if (order === null || posted === null || forbidden === null) return null; // refused
  const players = table ? table.slice() : posted;
  const left = players.filter((p) => order.indexOf(p) < 0);
  if (players.length >= 2 && left.length === 1 && order.length === players.length - 1) {
    order.push(left[0]); // the last one left, placed as the form places them
  }
  return { players, order, forbidden };
}

/* The deal data the server makes of a posted entry form (``to_data``; at a tournament table
   the drawn players fix the seats or the round's players), or null when the form itself
   would be refused. */
export function dataFromBody(game, body, table) {
  return game === "napoleon" ? napoleonData(body, table) : daifugoData(body, table);
}

// ---- Scoring what waits ---------------------------------------------------------------------

/* Score one entry form under a page's context; previous: the 大富豪 the round follows.
   {result, points, order} or {error} (a ScoringError, or "form" when the form is refused). */
export function scoreBody(context, body, previous) {
  const data = dataFromBody(context.game, body, context.table);
  if (data === null) return { error: "form" };
  if (context.game === "daifugo") data.previous_daifugo = previous === undefined ? context.previous : previous;
  try {
    const result = scoreData(context.game, data, context.rules);
    return { result, points: result.points, order: result.order || result.final_order };
  } catch (err) {
    if (err instanceof ScoringError) return { error: err };
    throw err;
  }
}

/* Every item (oldest first) scored as it will be when it arrives: a Daifugō round follows the
   大富豪 of the round saved before it on the same page, the first one the 大富豪 its page
   knows (the page open now: as it knows it now). here: {page, context} of the open page.
   Returns Map id → scoreBody's answer (items kept without a context are left out). */
export function scoreItems(items, here) {
  const scored = new Map();
  const previous = new Map(); // page → the 大富豪 the next round there follows
  for (const item of items) {
    const context = item.scoring;
    if (!context || !context.rules) continue;
    if (!previous.has(item.page)) {
      const current = here && here.context && item.page === here.page ? here.context : context;
      previous.set(item.page, current.previous === undefined ? null : current.previous);
    }
    const answer = scoreBody(context, item.body, previous.get(item.page));
    if (answer.result && answer.result.final_order) previous.set(item.page, answer.result.final_order[0]);
    scored.set(item.id, answer);
  }
  return scored;
}

/* The 大富豪 the next round entered on `page` follows: the last waiting round's there, else
   the one the page knows. */
export function nextPrevious(items, scored, page, context) {
  let previous = context ? context.previous : null;
  for (const item of items) {
    const answer = item.page === page ? scored.get(item.id) : null;
    if (answer && answer.result && answer.result.final_order) previous = answer.result.final_order[0];
  }
  return previous;
}

/* What the waiting items of one page add to its running totals: {points: {id: sum}, count,
   unscored} (count: the items added; unscored: those the phone could not score). */
export function pendingTotals(items, scored, page) {
  const points = {};
  let count = 0;
  let unscored = 0;
  for (const item of items) {
    if (item.page !== page) continue;
    const answer = scored.get(item.id);
    if (!answer || !answer.points) {
      unscored += 1;
      continue;
    }
    count += 1;
    for (const [id, value] of Object.entries(answer.points)) points[id] = (points[id] || 0) + value;
  }
  return { points, count, unscored };
}

/* As the server writes points ("+2", "+0", "-1"). */
export function signed(value) {
  return (value < 0 ? "-" : "+") + Math.abs(value);
}

/* "太郎 +2 · 花子 +1 · Ken -1", in the order given (a redeal has none: ""). */
export function pointsLine(points, order, names) {
  return (order || Object.keys(points || {}))
    .filter((id) => points && Object.prototype.hasOwnProperty.call(points, id))
    .map((id) => ((names && names[id]) || id) + " " + signed(points[id]))
    .join(" · ");
}

/* Where efuda's points (its reply) and the phone's differ: [{id, mine, efuda}] ([] when they
   agree; a player missing on one side counts 0 there). */
export function differences(mine, efuda) {
  const out = [];
  const keys = new Set(Object.keys(mine || {}).concat(Object.keys(efuda || {})));
  for (const id of keys) {
    const a = (mine && mine[id]) || 0;
    const b = (efuda && efuda[id]) || 0;
    if (a !== b) out.push({ id, mine: a, efuda: b });
  }
  return out;
}
