// The points of deals kept on the phone (static/js/outbox-points.js), in Node: scored as efuda
// will score them when they arrive (a Daifugō round after the rounds saved before it), added
// into the running totals, and held against efuda's own points.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  dataFromBody, differences, nextPrevious, pendingTotals, pointsLine, scoreItems
} from "../../static/js/outbox-points.js";

const WIKI = {
  game: "napoleon", players: [4, 5, 6], jokers: 0, widow: { 4: 4, 5: 2, 6: 4 },
  bids: { 4: [10, 20], 5: [10, 20], 6: [10, 20] }, discard_policy: "nobody", plan_b: false, all20_loses: false,
  point_tables: { 5: { normal: { 0: [2, 1, 1] }, solo: { 0: [4, 1] } } }
};
const HYOUSUBE = {
  game: "daifugo", players: [3, 4, 5, 6, 7, 8], jokers: 0,
  title_points: { daifugo: 2, fugo: 1, heimin: 0, hinmin: -1, daihinmin: -2 },
  miyako_ochi: true, forbidden_finish: false, diamond3_leads_first: false
};
const NAMES = { 1: "太郎", 2: "花子", 3: "Ken", 4: "ゆき", 5: "Sam", 6: "次郎" };

function napoleonBody(napoleon, adjutant, honours) {
  return [["client_id", "x"], ...[1, 2, 3, 4, 5].map((s) => ["seats", String(s)]), ["napoleon", String(napoleon)],
    ["bid", "13"], ["trump", "S"], ["called_suit", "S"], ["called_rank", "A"], ["adjutant", adjutant],
    ["honours", String(honours)], ["discarded", "0"]];
}

function item(id, page, body, context) {
  return { id, page, body, scoring: context, state: "waiting" };
}

test("the form reads as the server's form: seats in tapped order, solo, the called card", () => {
  const body = napoleonBody(3, "solo", 14).concat([["called_suit", "JK"]]);
  body.splice(1, 0, ["seats", "6"]);
  assert.deepStrictEqual(dataFromBody("napoleon", body, null), {
    seats: [6, 1, 2, 3, 4, 5], napoleon: 3, bid: 13, trump: "S", called: "JK", adjutant: null, solo: true,
    honours: 14, discarded: 0, last_trick: null, redeal: false
  });
  // A tournament table's drawn seats fix the seats; a form the server refuses reads as none.
  assert.deepStrictEqual(dataFromBody("napoleon", napoleonBody(3, "2", 13), [5, 4, 3, 2, 1]).seats, [5, 4, 3, 2, 1]);
  assert.equal(dataFromBody("napoleon", napoleonBody(3, "2", "x"), null), null);
  // Daifugō: the last one left is placed, as the form places them.
  const round = [["players", "1"], ["players", "2"], ["players", "3"], ["order", "2"], ["order", "3"]];
  assert.deepStrictEqual(dataFromBody("daifugo", round, null), { players: [1, 2, 3], order: [2, 3, 1], forbidden: [] });
});

test("waiting deals are scored, each with its own page's context, and added into the totals", () => {
  const context = { game: "napoleon", rules: WIKI, names: NAMES, previous: null, table: null };
  const items = [
    item("a", "/p/", napoleonBody(1, "2", 13), context), // won: 太郎 +2, 花子 +1, the rest -1
    item("b", "/p/", napoleonBody(3, "solo", 5), context), // lost solo: Ken -4, the rest +1
    item("c", "/other/", napoleonBody(1, "2", 13), context), // another session: not in these totals
    item("d", "/p/", napoleonBody(1, "1", 13), context), // the Napoleon as adjutant: refused
    { id: "e", page: "/p/", body: [], scoring: null } // kept before the phone could score
  ];
  const scored = scoreItems(items, { page: "/p/", context });
  assert.deepStrictEqual(scored.get("a").points, { 1: 2, 2: 1, 3: -1, 4: -1, 5: -1 });
  assert.equal(pointsLine(scored.get("a").points, scored.get("a").order, NAMES), "太郎 +2 · 花子 +1 · Ken -1 · ゆき -1 · Sam -1");
  assert.equal(scored.get("d").error.code, "adjutant_is_napoleon");
  assert.equal(scored.has("e"), false);
  assert.deepStrictEqual(pendingTotals(items, scored, "/p/"), {
    points: { 1: 3, 2: 2, 3: -5, 4: 0, 5: 0 }, count: 2, unscored: 2
  });
});

test("a Daifugō round kept offline follows the 大富豪 of the round kept before it", () => {
  const page = { game: "daifugo", rules: HYOUSUBE, names: NAMES, previous: "1", table: null };
  const round = (...order) => order.map((p) => ["players", String(p)]).concat(order.map((p) => ["order", String(p)]));
  const items = [item("r1", "/d/", round(2, 1, 3, 4), page), item("r2", "/d/", round(3, 2, 1, 4), page)];
  const scored = scoreItems(items, { page: "/d/", context: page });
  assert.equal(scored.get("r1").result.miyako_ochi, "1"); // last round's 大富豪 (1) not first: falls
  assert.equal(scored.get("r2").result.miyako_ochi, "2"); // r1's 大富豪 (2) not first in r2
  assert.equal(nextPrevious(items, scored, "/d/", page), "3");
  // The open page knows better (a round recorded meanwhile): its 大富豪 starts the chain.
  const fresher = scoreItems(items, { page: "/d/", context: { ...page, previous: "2" } });
  assert.equal(fresher.get("r1").result.miyako_ochi, null);
});

test("efuda's points against the phone's", () => {
  assert.deepStrictEqual(differences({ 1: 2, 2: -2 }, { 1: 2, 2: -2 }), []);
  assert.deepStrictEqual(differences({}, {}), []);
  assert.deepStrictEqual(differences({ 1: 2, 2: -2 }, { 1: 4, 2: -2, 3: -2 }), [
    { id: "1", mine: 2, efuda: 4 }, { id: "3", mine: 0, efuda: -2 }
  ]);
});
