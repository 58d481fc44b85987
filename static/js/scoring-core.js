/* efuda's scoring on the phone: a port of the Python scoring core (scoring/napoleon.py,
   scoring/daifugo.py, scoring/cards.py, scoring/validation.py, and what they read of rules/:
   the point tables and the Daifugō titles), so a deal kept on the phone without a connection
   shows its points before efuda has it.

   A plain ES module with no page behind it: the entry pages import it (static/js/outbox.js),
   Node imports it for its tests. It never decides anything efuda does not: the server scores
   every deal again when it arrives, and its numbers win. So that the two never drift,
   tests/services/test_phone_scoring_parity.py scores every preset, each option on its own,
   random option sets, every cell of every point table and random deals with the Python core
   and has tests/js/scoring-core.test.js score the same cases here: they must agree, refusals
   (field and code) included.

   The rule set is the pure rules.RuleSet as JSON (tournaments/selectors/offline.py,
   ``ruleset_json``): {game, players, jokers, widow: {n: size}, bids: {n: [low, high]},
   discard_policy, plan_b, all20_loses, point_tables: {n: {normal: {bid: [N, adj, ally]},
   solo: {bid: [N, ally]}}} (bid "0": every bid), title_points, miyako_ochi, forbidden_finish,
   diamond3_leads_first}. A deal is the stored deal data (``Deal.data``, player ids as keys):
   scoreData(game, data, rules) is ``scoring_bridge.score``. Messages are the core's English
   msgids with their parameters; the phone shows its own texts, never these. */

export const TOTAL_HONOURS = 20;
export const LAST_TRICK_SIDES = ["napoleon", "allies"];
export const FIRST_ROUND_LEAD = "Whoever holds ♦3 leads the first round.";
const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const JOKER = "JK";
const ANY_BID = "0";

/* core.errors.EfudaError: the field it concerns, a stable code, the msgid and its values. */
export class ScoringError extends Error {
  constructor(field, code, message, params) {
    super(message);
    this.name = "ScoringError";
    this.field = field;
    this.code = code;
    this.params = params || {};
  }
}

function fail(field, code, message, params) {
  return new ScoringError(field, code, message, params);
}

const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// ---- Python's own small rules, where JavaScript's differ ----------------------------------

// What Python's str.strip() strips (str.isspace), which is not quite String.prototype.trim's.
const SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");

export function pyStrip(text) {
  return text.replace(STRIP, "");
}

/* Python's isinstance(value, int) and not a bool. */
export function isInt(value) {
  return typeof value === "number" && Number.isInteger(value);
}

/* str(value) of the values deal data holds (text, whole numbers, yes/no). */
export function pyStr(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

/* validation.shown: a value for a message, nothing as empty. */
function shown(value) {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : pyStr(value);
}

// ---- scoring/validation.py ------------------------------------------------------------------

export function playerKeys(value, field) {
  if (!Array.isArray(value)) throw fail(field, "not_a_list", "List the players in order.");
  for (const key of value) {
    if (typeof key !== "string" || !pyStrip(key)) {
      throw fail(field, "blank_player", "Every player needs a name or key.");
    }
  }
  const seen = new Set();
  for (const key of value) {
    if (seen.has(key)) throw fail(field, "duplicate_player", "%(player)s is listed twice.", { player: key });
    seen.add(key);
  }
  return value.slice();
}

function seated(value, players, field) {
  if (typeof value !== "string" || players.indexOf(value) < 0) {
    throw fail(field, "not_seated", "“%(player)s” is not one of the players at this table.",
      { player: shown(value) });
  }
  return value;
}

function count(value, field) {
  if (!isInt(value) || value < 0) {
    throw fail(field, "not_a_count", "Enter a whole number of 0 or more.", { value: pyStr(value) });
  }
  return value;
}

// ---- scoring/cards.py -----------------------------------------------------------------------

const SUIT_ALIASES = {
  s: "S", h: "H", d: "D", c: "C",
  "♠": "S", "♥": "H", "♦": "D", "♣": "C",
  "♤": "S", "♡": "H", "♢": "D", "♧": "C",
  spade: "S", spades: "S", heart: "H", hearts: "H",
  diamond: "D", diamonds: "D", club: "C", clubs: "C",
  "スペード": "S", "ハート": "H", "ダイヤ": "D", "ダイア": "D", "ダイヤモンド": "D",
  "ダイアモンド": "D", "クラブ": "C"
};
const RANK_ALIASES = Object.fromEntries(RANKS.map((r) => [r.toLowerCase(), r]).concat([["t", "10"]]));
const JOKER_ALIASES = new Set(["jk", "joker", "jo", "ジョーカー", "🃏"]);
const SUIT_ERROR = "“%(value)s” is not a suit: use ♠ ♥ ♦ ♣ or S H D C.";
const CARD_ERROR = "“%(value)s” is not a card: write e.g. ♠A, SA, A♠, ♦10, D10 or JK.";

function normalise(text) {
  if (typeof text !== "string") return null;
  return pyStrip(text.normalize("NFKC")).toLowerCase().split(" ").join("");
}

export function parseSuit(text, field) {
  const key = normalise(text);
  if (key !== null && has(SUIT_ALIASES, key)) return SUIT_ALIASES[key];
  if (typeof text === "string" && has(SUIT_ALIASES, pyStrip(text))) return SUIT_ALIASES[pyStrip(text)];
  throw fail(field || "trump", "invalid_suit", SUIT_ERROR, { value: shown(text) });
}

/* A card as its code ("SA", "H10", "JK") and label ("♠A", "♥10", "JK"). */
export function parseCard(text, field, jokers) {
  const key = normalise(text);
  field = field || "called";
  if (!key) throw fail(field, "invalid_card", CARD_ERROR, { value: shown(text) });
  if (JOKER_ALIASES.has(key)) {
    if (jokers === 0) throw fail(field, "no_joker", "This rule set plays without a joker.", { value: shown(text) });
    return { code: JOKER, label: JOKER };
  }
  const chars = Array.from(key); // Python slices by code point
  const splits = [
    [chars.slice(0, 1).join(""), chars.slice(1).join("")],
    [chars.slice(-1).join(""), chars.slice(0, -1).join("")]
  ];
  for (const [suitPart, rankPart] of splits) {
    const suit = has(SUIT_ALIASES, suitPart) ? SUIT_ALIASES[suitPart] : null;
    const rank = has(RANK_ALIASES, rankPart) ? RANK_ALIASES[rankPart] : null;
    if (suit && rank) return { code: suit + rank, label: SUIT_SYMBOLS[suit] + rank };
  }
  throw fail(field, "invalid_card", CARD_ERROR, { value: shown(text) });
}

// ---- rules/tables.py and rules/titles.py ----------------------------------------------------

function tableRow(table, bid, solo) {
  const rows = solo ? table.solo : table.normal;
  const row = has(rows, ANY_BID) ? rows[ANY_BID] : rows[String(bid)];
  return solo ? { napoleon: row[0], adjutant: null, ally: row[1] } : { napoleon: row[0], adjutant: row[1], ally: row[2] };
}

export function pointRow(rules, players, bid, solo) {
  const table = rules.point_tables[String(players)];
  if (!table) {
    throw fail("seats", "no_point_table", "There is no point table for %(players)s-player tables.", { players });
  }
  const [low, high] = rules.bids[String(players)];
  if (!(low <= bid && bid <= high)) {
    throw fail("bid", "bid_out_of_range",
      "Bid %(bid)s is out of range: at a %(players)s-player table bid %(min)s to %(max)s.",
      { bid, players, min: low, max: high });
  }
  return tableRow(table, bid, solo);
}

export function daifugoTitles(players) {
  if (!isInt(players) || players < 3 || players > 8) {
    throw fail("order", "players_out_of_range", "Daifugō needs %(min)s to %(max)s players, not %(players)s.",
      { min: 3, max: 8, players: pyStr(players) });
  }
  if (players === 3) return ["daifugo", "heimin", "daihinmin"];
  return ["daifugo", "fugo"].concat(Array(players - 4).fill("heimin"), ["hinmin", "daihinmin"]);
}

// ---- scoring/napoleon.py ----------------------------------------------------------------------

export function scoreNapoleon(deal, rules) {
  if (!rules || rules.game !== "napoleon") throw fail("preset", "wrong_game", "This is not a Napoleon rule set.");
  if (!deal || typeof deal !== "object") throw fail("deal", "not_a_deal", "This is not a Napoleon deal.");
  const seats = playerKeys(deal.seats, "seats");
  if (rules.players.indexOf(seats.length) < 0) {
    throw fail("seats", "players_not_allowed",
      "These rules are not played at a table of %(players)s; they are played at tables of %(allowed)s.",
      { players: seats.length, allowed: rules.players.join(", ") });
  }
  if (typeof deal.redeal !== "boolean") throw fail("redeal", "not_a_bool", "Say whether the deal was a redeal.");
  if (deal.redeal) {
    checkRedeal(deal);
    return {
      points: {}, roles: {}, order: [], army_count: 0, won: false, solo: false, plan_b: false,
      all20: false, multiplier: 0, redeal: true, bid: null, trump: null, called: null, discards_to: null
    };
  }
  return score(checkDeal(deal, seats, rules), rules);
}

function checkRedeal(deal) {
  const given = deal.napoleon !== null || deal.bid !== null || deal.trump !== null ||
    deal.called !== null || deal.adjutant !== null || deal.solo !== false ||
    !(deal.honours === null || deal.honours === 0 || deal.honours === false) ||
    !(deal.discarded === null || deal.discarded === 0 || deal.discarded === false) ||
    deal.last_trick !== null;
  if (given) {
    throw fail("redeal", "redeal_with_deal", "A 流れ (redeal) has no Napoleon, bid, adjutant or honours: " +
      "either clear them or take back the redeal.");
  }
}

function checkDeal(deal, seats, rules) {
  if (deal.napoleon === null) throw fail("napoleon", "napoleon_missing", "Choose the Napoleon, or 流れ (redeal) if nobody bid.");
  const napoleon = seated(deal.napoleon, seats, "napoleon");
  const adjutant = checkAdjutant(deal, seats, napoleon);
  const players = seats.length;
  const [low, high] = rules.bids[String(players)];
  if (deal.bid === null) {
    throw fail("bid", "bid_missing", "Choose the bid (%(min)s to %(max)s at a %(players)s-player table).",
      { min: low, max: high, players });
  }
  if (!isInt(deal.bid) || !(low <= deal.bid && deal.bid <= high)) {
    throw fail("bid", "bid_out_of_range",
      "The bid must be a whole number from %(min)s to %(max)s at a %(players)s-player table, not %(bid)s.",
      { min: low, max: high, players, bid: shown(deal.bid) });
  }
  if (deal.trump === null) throw fail("trump", "trump_missing", "Choose the trump suit.");
  const trump = parseSuit(deal.trump, "trump");
  const called = deal.called === null ? null : parseCard(deal.called, "called", rules.jokers).code;
  if (deal.honours === null) {
    throw fail("honours", "honours_missing", "Enter the honours the Napoleon army took in tricks (0 to 20).");
  }
  const honours = count(deal.honours, "honours");
  if (honours > TOTAL_HONOURS) {
    throw fail("honours", "honours_range", "Honours are counted from 0 to 20 (the deck has 20), not %(honours)s.", { honours });
  }
  if (deal.discarded === null) throw fail("discarded", "discarded_missing", "Enter the honours among the discards (0 if none).");
  const discarded = count(deal.discarded, "discarded");
  if (honours + discarded > TOTAL_HONOURS) {
    throw fail("honours", "too_many_honours",
      "The army's %(honours)s honours and %(discarded)s discarded make more than the 20 honours in the deck.",
      { honours, discarded });
  }
  const widow = rules.widow[String(players)];
  if (discarded > widow) {
    throw fail("discarded", "too_many_discards",
      "At a %(players)s-player table the widow holds %(widow)s, so %(discarded)s cannot be discarded.",
      { widow, players, discarded });
  }
  let lastTrick = null;
  if (rules.discard_policy === "last_trick" && discarded > 0) {
    if (typeof deal.last_trick !== "string" || LAST_TRICK_SIDES.indexOf(deal.last_trick) < 0) {
      throw fail("last_trick", "last_trick_missing", "Say who won the last trick (the Napoleon army or the " +
        "allies): the discarded honours go to them.");
    }
    lastTrick = deal.last_trick;
  }
  return { seats, napoleon, adjutant, bid: deal.bid, trump, called, honours, discarded, lastTrick };
}

function checkAdjutant(deal, seats, napoleon) {
  if (typeof deal.solo !== "boolean") throw fail("adjutant", "solo_not_a_bool", "Say whether the Napoleon plays solo.");
  if (deal.solo) {
    if (deal.adjutant !== null) {
      throw fail("adjutant", "adjutant_and_solo", "Choose either an adjutant or 独り立ち (solo), not both.");
    }
    return null;
  }
  if (deal.adjutant === null) {
    throw fail("adjutant", "adjutant_missing", "Choose the adjutant, or 独り立ち (solo) if the Napoleon has none.");
  }
  const adjutant = seated(deal.adjutant, seats, "adjutant");
  if (adjutant === napoleon) {
    throw fail("adjutant", "adjutant_is_napoleon", "The Napoleon cannot be their own adjutant: if the called card " +
      "was in the Napoleon's hand or in the widow, choose 独り立ち (solo).");
  }
  return adjutant;
}

function discardsTo(deal, rules) {
  if (rules.discard_policy === "last_trick") return deal.lastTrick || "nobody";
  return { allies: "allies", nobody: "nobody", napoleon: "napoleon" }[rules.discard_policy];
}

function score(deal, rules) {
  const solo = deal.adjutant === null;
  const to = discardsTo(deal, rules);
  const army = deal.honours + (to === "napoleon" ? deal.discarded : 0);
  const tookAll = army === TOTAL_HONOURS;
  const planB = Boolean(rules.plan_b) && tookAll && deal.bid < TOTAL_HONOURS;
  const all20 = Boolean(rules.all20_loses) && tookAll;
  const won = planB || (all20 && deal.bid < TOTAL_HONOURS) ? false : army >= deal.bid;
  const multiplier = all20 ? 2 : 1;
  const row = pointRow(rules, deal.seats.length, deal.bid, solo);
  const sign = won ? multiplier : -multiplier;
  const times = (a, b) => a * b + 0; // never −0: Python's integers have none
  const roles = {};
  const points = {};
  let sum = 0;
  for (const seat of deal.seats) {
    if (seat === deal.napoleon) {
      roles[seat] = "napoleon";
      points[seat] = times(sign, row.napoleon);
    } else if (seat === deal.adjutant) {
      roles[seat] = "adjutant";
      points[seat] = times(sign, row.adjutant);
    } else {
      roles[seat] = "ally";
      points[seat] = times(-sign, row.ally);
    }
    sum += points[seat];
  }
  if (sum !== 0) throw new Error("points do not balance"); // the tables balance: a bug
  return {
    points, roles, order: deal.seats, army_count: army, won, solo, plan_b: planB, all20,
    multiplier, redeal: false, bid: deal.bid, trump: deal.trump, called: deal.called, discards_to: to
  };
}

// ---- scoring/daifugo.py ---------------------------------------------------------------------

export function scoreDaifugo(round, rules) {
  if (!rules || rules.game !== "daifugo") throw fail("preset", "wrong_game", "This is not a Daifugō rule set.");
  if (!round || typeof round !== "object") throw fail("order", "not_a_round", "This is not a Daifugō round.");
  const order = playerKeys(round.order, "order");
  checkComplete(order, round.players === undefined ? null : round.players);
  const byPosition = daifugoTitles(order.length);
  const forbidden = checkForbidden(round.forbidden, order, rules);
  const previous = checkPrevious(round.previous_daifugo === undefined ? null : round.previous_daifugo);

  const normal = order.filter((p) => !forbidden.has(p));
  const fell = rules.miyako_ochi && previous !== null && order.indexOf(previous) >= 0 && normal[0] !== previous
    ? previous : null;
  const top = normal.filter((p) => p !== fell);
  const penalised = order.filter((p) => forbidden.has(p) && p !== fell);
  const final = top.concat(penalised.slice().reverse(), fell ? [fell] : []);

  const titles = {};
  const points = {};
  const byTitle = {};
  final.forEach((p, i) => {
    titles[p] = byPosition[i];
    points[p] = rules.title_points[byPosition[i]];
    if (byPosition[i] !== "heimin") byTitle[byPosition[i]] = p;
  });
  const exchanges = [[byTitle.daihinmin, byTitle.daifugo, 2], [byTitle.daifugo, byTitle.daihinmin, 2]];
  if (has(byTitle, "fugo")) {
    exchanges.push([byTitle.hinmin, byTitle.fugo, 1], [byTitle.fugo, byTitle.hinmin, 1]);
  }
  return {
    final_order: final, titles, points, miyako_ochi: fell,
    forbidden_applied: order.filter((p) => forbidden.has(p)), exchanges,
    next_leader: byTitle.daihinmin,
    first_round_lead: rules.diamond3_leads_first && previous === null ? FIRST_ROUND_LEAD : null
  };
}

function checkComplete(order, players) {
  if (players === null) return;
  const table = playerKeys(players, "players");
  const strangers = order.filter((p) => table.indexOf(p) < 0);
  if (strangers.length) {
    throw fail("order", "not_at_table", "%(player)s is not one of the players at this table.", { player: strangers[0] });
  }
  const missing = table.filter((p) => order.indexOf(p) < 0);
  if (missing.length) {
    throw fail("order", "order_incomplete", "The order must name every player at the table: %(players)s still " +
      "has no place. Tap the players in the order they went out, the last one too.", { players: missing.join(", ") });
  }
}

function checkForbidden(value, order, rules) {
  if (value === null || value === undefined) return new Set();
  if (!Array.isArray(value) && !(value instanceof Set)) {
    throw fail("forbidden", "not_a_list", "List the players who went out on a forbidden card.");
  }
  const players = Array.from(value);
  for (const player of players) {
    if (typeof player !== "string" || order.indexOf(player) < 0) {
      throw fail("forbidden", "not_in_round", "“%(player)s” did not play this round.", { player: shown(player) });
    }
  }
  if (players.length && !rules.forbidden_finish) {
    throw fail("forbidden", "forbidden_not_in_rules", "These rules have no forbidden finishing cards.");
  }
  if (players.indexOf(order[order.length - 1]) >= 0) {
    throw fail("forbidden", "last_did_not_go_out", "%(player)s was left last and did not go out on any card.",
      { player: order[order.length - 1] });
  }
  return new Set(players);
}

function checkPrevious(value) {
  if (value === null) return null;
  if (typeof value !== "string" || !pyStrip(value)) {
    throw fail("previous_daifugo", "invalid_player", "The previous 大富豪 (grand millionaire) must be a player.");
  }
  return value;
}

// ---- tournaments/services/scoring_bridge.py: stored deal data to the core's input -----------

function key(value) {
  return value === null || value === undefined || value === "" ? null : pyStr(value);
}

function keys(values) {
  if (values === null || values === undefined) return [];
  if (typeof values === "string") return [values];
  return Array.from(values, pyStr);
}

function get(data, name, fallback) {
  return has(data, name) ? data[name] : fallback;
}

export function napoleonDealFromData(data) {
  return {
    seats: keys(data.seats),
    napoleon: key(data.napoleon),
    bid: get(data, "bid", null),
    trump: data.trump || null,
    called: data.called || null,
    adjutant: key(data.adjutant),
    solo: get(data, "solo", false),
    honours: get(data, "honours", null),
    discarded: get(data, "discarded", null),
    last_trick: data.last_trick || null,
    redeal: get(data, "redeal", false)
  };
}

export function daifugoRoundFromData(data) {
  const players = get(data, "players", null);
  return {
    order: keys(data.order),
    forbidden: Array.from(new Set(keys(data.forbidden))),
    previous_daifugo: key(data.previous_daifugo),
    players: players === null ? null : keys(players)
  };
}

/* Score one deal's stored data under the rule set; throws ScoringError as the core refuses. */
export function scoreData(game, data, rules) {
  if (game === "napoleon") return scoreNapoleon(napoleonDealFromData(data), rules);
  return scoreDaifugo(daifugoRoundFromData(data), rules);
}
