// The phone's scoring (static/js/scoring-core.js), in Node.
//
// The parity test scores the cases tests/services/test_phone_scoring_parity.py made with the
// Python core, and reads the entry forms it read with the server's forms (static/js/
// outbox-points.js, dataFromBody) (EFUDA_SCORING_CASES names their file; that pytest test runs this file with it,
// and without it the parity test is skipped). The others stand alone: a worked example of
// docs/rules.md and the balance of every score (fast-check).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";

import {
  ScoringError, parseCard, parseSuit, scoreData, scoreDaifugo, scoreNapoleon
} from "../../static/js/scoring-core.js";
import { dataFromBody } from "../../static/js/outbox-points.js";

const CASES = process.env.EFUDA_SCORING_CASES;

const NAPOLEON_KEYS = ["redeal", "army_count", "won", "solo", "plan_b", "all20", "multiplier", "bid",
  "trump", "called", "discards_to", "points", "roles", "order"];
const DAIFUGO_KEYS = ["final_order", "titles", "points", "miyako_ochi", "forbidden_applied", "exchanges",
  "next_leader", "first_round_lead"];

function answer(game, data, rules) {
  try {
    const result = scoreData(game, data, rules);
    const keys = game === "napoleon" ? NAPOLEON_KEYS : DAIFUGO_KEYS;
    return { result: Object.fromEntries(keys.map((k) => [k, result[k]])) };
  } catch (err) {
    if (!(err instanceof ScoringError)) throw err;
    return { error: { field: err.field, code: err.code } };
  }
}

test("every case scores on the phone as in the Python core", { skip: !CASES && "the cases come from tests/services/test_phone_scoring_parity.py" }, () => {
  const made = JSON.parse(readFileSync(CASES, "utf-8"));
  const wrong = [];
  for (const c of made.cases) {
    let got;
    try {
      got = answer(c.game, c.data, made.rules[c.rules]);
    } catch (err) {
      got = { crash: String(err && err.stack) };
    }
    try {
      assert.deepStrictEqual(got, c.expected);
    } catch (err) {
      wrong.push({ rules: c.rules, data: c.data, python: c.expected, phone: got });
    }
  }
  assert.ok(made.cases.length > 1000, "too few cases: " + made.cases.length);
  assert.deepStrictEqual(wrong.slice(0, 5), [], `${wrong.length} of ${made.cases.length} cases differ (seed ${made.seed})`);
  console.log(`${made.cases.length} cases agree (seed ${made.seed})`);
  const misread = made.forms.filter((f) => !same(dataFromBody(f.game, f.body, f.table), f.expected));
  assert.ok(made.forms.length >= 100, "too few forms: " + made.forms.length);
  assert.deepStrictEqual(misread.slice(0, 5), [], `${misread.length} of ${made.forms.length} forms read otherwise (seed ${made.seed})`);
  console.log(`${made.forms.length} forms agree (seed ${made.seed})`);
});

function same(a, b) {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch (e) {
    return false;
  }
}

// ---- Without Python: a rule set as efuda sends it (selectors/offline.py, ruleset_json) ------

const WIKI = {
  code: "napoleon-wiki", preset: "napoleon-wiki", game: "napoleon", players: [4, 5, 6], jokers: 0,
  widow: { 4: 4, 5: 2, 6: 4 }, bids: { 4: [10, 20], 5: [10, 20], 6: [10, 20] },
  discard_policy: "nobody", plan_b: false, all20_loses: false,
  point_tables: {
    4: { normal: { 0: [1, 1, 1] }, solo: { 0: [3, 1] } },
    5: { normal: { 0: [2, 1, 1] }, solo: { 0: [4, 1] } },
    6: { normal: { 0: [2, 2, 1] }, solo: { 0: [5, 1] } }
  },
  title_points: { daifugo: 2, fugo: 1, heimin: 0, hinmin: -1, daihinmin: -2 },
  miyako_ochi: false, forbidden_finish: false, diamond3_leads_first: false
};
const COMMON = {
  ...WIKI, code: "daifugo-common", preset: "daifugo-common", game: "daifugo", players: [3, 4, 5, 6, 7, 8],
  jokers: 2, widow: {}, bids: {}, discard_policy: null, point_tables: {},
  miyako_ochi: true, forbidden_finish: true, diamond3_leads_first: true
};

test("a Napoleon deal of the wiki rules: 13 ♠ made with 13 honours", () => {
  const result = scoreData("napoleon", {
    seats: [1, 2, 3, 4, 5], napoleon: 1, bid: 13, trump: "S", called: "SA", adjutant: 2,
    solo: false, honours: 13, discarded: 0, last_trick: null, redeal: false
  }, WIKI);
  assert.deepStrictEqual(result.points, { 1: 2, 2: 1, 3: -1, 4: -1, 5: -1 });
  assert.deepStrictEqual(result.order, ["1", "2", "3", "4", "5"]);
  assert.equal(result.won, true);
  assert.equal(result.called, "SA");
});

test("a refusal names its field and code", () => {
  const deal = { seats: [1, 2, 3, 4, 5], napoleon: 1, bid: 13, trump: "S", adjutant: 2, honours: 20, discarded: 1 };
  assert.throws(() => scoreData("napoleon", deal, WIKI), { field: "honours", code: "too_many_honours" });
  assert.throws(() => scoreData("napoleon", { ...deal, honours: 12, bid: 9 }, WIKI), { field: "bid", code: "bid_out_of_range" });
  assert.throws(() => parseCard("JK", "called", 0), { code: "no_joker" });
  assert.equal(parseCard("１０♦", "called").code, "D10"); // full-width digits, as NFKC reads them
  assert.equal(parseSuit(" ハート ", "trump"), "H");
});

test("Daifugō: 都落ち and a forbidden finish, under the common rules", () => {
  const result = scoreDaifugo({ order: ["a", "b", "c", "d", "e"], forbidden: ["a"], previous_daifugo: "c", players: null }, COMMON);
  assert.deepStrictEqual(result.final_order, ["b", "d", "e", "a", "c"]);
  assert.equal(result.miyako_ochi, "c");
  assert.deepStrictEqual(result.points, { b: 2, d: 1, e: 0, a: -1, c: -2 });
  assert.equal(result.next_leader, "c");
  assert.equal(result.first_round_lead, null);
});

test("every score balances: the points of a deal or a round sum to zero", () => {
  const napoleon = fc.record({
    n: fc.constantFrom(4, 5, 6), bid: fc.integer({ min: 10, max: 20 }), honours: fc.integer({ min: 0, max: 20 }),
    solo: fc.boolean(), napoleon: fc.nat(), adjutant: fc.nat()
  });
  fc.assert(fc.property(napoleon, (d) => {
    const seats = [1, 2, 3, 4, 5, 6].slice(0, d.n);
    const nap = seats[d.napoleon % d.n];
    const others = seats.filter((s) => s !== nap);
    const result = scoreNapoleon({
      seats: seats.map(String), napoleon: String(nap), bid: d.bid, trump: "H", called: null,
      adjutant: d.solo ? null : String(others[d.adjutant % others.length]), solo: d.solo,
      honours: d.honours, discarded: 0, last_trick: null, redeal: false
    }, WIKI);
    return Object.values(result.points).reduce((a, b) => a + b, 0) === 0 && result.won === (d.honours >= d.bid);
  }));
  const round = fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { minLength: 3, maxLength: 8 });
  fc.assert(fc.property(round, fc.option(fc.constantFrom("a", "b", "z")), (order, previous) => {
    const result = scoreDaifugo({ order, forbidden: [], previous_daifugo: previous, players: null }, COMMON);
    return Object.values(result.points).reduce((a, b) => a + b, 0) === 0 && result.final_order.length === order.length;
  }));
});
