"""The phone scores as the server does: static/js/scoring-core.js against the Python core.

The cases are made here, from the Python side (``scoring_bridge.score`` over rules/ and
scoring/, the rule sets as ``selectors.offline.ruleset_json`` sends them to the page): every
preset; each option value on its own; random option sets; every cell of every point table
(each table size, bid, adjutant or solo, won, lost and all 20 taken); random deals and rounds,
right and wrong; and entry forms as the phone posts them, with the deal data the server's form
makes of them. They are written as JSON and tests/js/scoring-core.test.js scores each one in
Node with the phone's modules: points, roles, titles, order, exchanges and every other result,
or the refusal's field and code, must be the same, and each form must read as the same data.

The random part changes with every run (the seed is printed on a failure; EFUDA_PARITY_SEED
replays it). Without Node the test is skipped (scripts/test installs it).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from django.http import QueryDict

import rules
from core.errors import EfudaError
from tests import factories
from tournaments.forms.entry import DaifugoRoundForm, NapoleonDealForm
from tournaments.selectors.offline import ruleset_json
from tournaments.services.scoring_bridge import score

ROOT = Path(__file__).resolve().parents[2]
NODE_TEST = ROOT / "tests" / "js" / "scoring-core.test.js"
IDS = [101, 102, 103, 104, 105, 106, 107, 108]
SUITS = ["S", "H", "D", "C"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
# Wrong values a field may get (the form sends text; stored data may hold anything JSON holds).
GARBAGE = [
    None, "", " ", "x", "13", "S", "s", "♠", "♤", "spades", "スペード", "ＳＡ", " sa ", "a♠",
    "10d", "t♦", "JK", "joker", "🃏", "ジョーカー", "H1", "napoleon", "allies", "101", 0, -1,
    12, 20, 21, 99, True, False,
]  # fmt: skip
NAPOLEON_FIELDS = ["napoleon", "bid", "trump", "called", "adjutant", "solo", "honours",
                   "discarded", "last_trick", "redeal"]  # fmt: skip


# ---- rule sets ---------------------------------------------------------------------------------


def _title_points(rng: random.Random) -> dict:
    """Title points that balance at every table size (3 to 8): 平民 0, the rest in pairs."""
    top, second = rng.randint(-3, 9), rng.randint(-3, 9)
    return {"daifugo": top, "fugo": second, "heimin": 0, "hinmin": -second, "daihinmin": -top}


def _point_table(preset: rules.RuleSet, rng: random.Random) -> dict:
    """A flat table for each table size of the preset that balances."""
    table = {}
    for n in preset.players:
        ally = rng.randint(0, 4)
        adjutant = rng.randint(0, (n - 2) * ally)
        solo_ally = rng.randint(0, 4)
        table[str(n)] = {
            "napoleon": (n - 2) * ally - adjutant, "adjutant": adjutant, "ally": ally,
            "solo_napoleon": (n - 1) * solo_ally, "solo_ally": solo_ally,
        }  # fmt: skip
    return table


def _option_values(preset: rules.RuleSet, spec: rules.OptionSpec, rng: random.Random) -> list:
    """Every value of an option (a few random ones for the mappings)."""
    if spec.key == "min_bid":
        lowest = min(low for low, _ in preset.bids.values())
        highest = min(high for _, high in preset.bids.values())
        return list(range(lowest, highest + 1))
    if spec.type == "bool":
        return [False, True]
    if spec.type == "choice":
        return list(spec.choices)
    if spec.key == "title_points":
        return [{"daifugo": 3, "daihinmin": -3}] + [_title_points(rng) for _ in range(3)]
    return [_point_table(preset, rng) for _ in range(3)]


def rulesets(rng: random.Random) -> dict[str, rules.RuleSet]:
    """Every preset, each option value on its own, and random sets of options."""
    found = {}
    for code, preset in rules.PRESETS.items():
        found[code] = rules.build_ruleset(code)
        specs = rules.options_for(code)
        for spec in specs:
            for i, value in enumerate(_option_values(preset, spec, rng)):
                found[f"{code}/{spec.key}={i}"] = rules.build_ruleset(code, {spec.key: value})
        for i in range(6):
            chosen = {
                spec.key: rng.choice(_option_values(preset, spec, rng))
                for spec in specs
                if rng.random() < 0.6
            }
            found[f"{code}/random-{i}"] = rules.build_ruleset(code, chosen)
    return found


# ---- Napoleon deals ------------------------------------------------------------------------------


def _deal(seats, *, bid, honours, solo, discarded=0, trump="S", called="SA", last_trick=None):
    return {
        "seats": list(seats), "napoleon": seats[0], "bid": bid, "trump": trump,
        "called": called, "adjutant": None if solo else seats[1], "solo": solo,
        "honours": honours, "discarded": discarded, "last_trick": last_trick, "redeal": False,
    }  # fmt: skip


def napoleon_cells(ruleset: rules.RuleSet) -> list[dict]:
    """Every cell of every table: each size, bid and role row, won, lost and all 20 taken."""
    deals = []
    for n in ruleset.players:
        low, high = ruleset.bids[n]
        for bid in range(low, high + 1):
            for solo in (False, True):
                for honours in {bid, bid - 1, 20}:
                    deals.append(_deal(IDS[:n], bid=bid, honours=honours, solo=solo))
    return deals


def _random_deal(ruleset: rules.RuleSet, rng: random.Random) -> dict:
    n = rng.choice(ruleset.players)
    seats = rng.sample(IDS, n)
    low, high = ruleset.bids[n]
    discarded = rng.randint(0, ruleset.widow[n])
    solo = rng.random() < 0.25
    cards = [s + r for s in SUITS for r in RANKS]
    called = rng.choice([None, "JK", "jk", "♠A", "A♠", "d10"] + cards)
    deal = _deal(
        seats, bid=rng.randint(low, high), honours=rng.randint(0, 20 - discarded), solo=solo,
        discarded=discarded, trump=rng.choice(SUITS + ["♥", "h", "ダイヤ"]), called=called,
        last_trick=rng.choice(["napoleon", "allies", None]),
    )  # fmt: skip
    deal["napoleon"] = rng.choice(seats)
    if not solo:
        deal["adjutant"] = rng.choice([s for s in seats if s != deal["napoleon"]])
    return deal


def _spoil_napoleon(deal: dict, rng: random.Random) -> dict:
    """The deal with one or two things wrong (or a redeal with something left in it)."""
    for _ in range(rng.choice([1, 1, 2])):
        roll = rng.random()
        if roll < 0.1:
            left = {rng.choice(NAPOLEON_FIELDS[:-1]): rng.choice(GARBAGE)}
            deal = {"seats": deal["seats"], "redeal": True} | (left if rng.random() < 0.7 else {})
        elif roll < 0.25:
            seats = list(deal["seats"])
            change = rng.choice(["drop", "add", "twice", "blank", "text"])
            if change == "drop":
                seats.pop()
            elif change == "add":
                seats.append(rng.choice([i for i in IDS if i not in seats]))
            elif change == "twice":
                seats.append(seats[0])
            elif change == "blank":
                seats[rng.randrange(len(seats))] = rng.choice(["", " ", None])
            else:
                seats = [str(s) for s in seats]
            deal = deal | {"seats": seats}
        else:
            field = rng.choice(NAPOLEON_FIELDS)
            value = rng.choice(GARBAGE + [rng.choice(IDS), rng.randint(-2, 25)])
            deal = (
                deal | {field: value}
                if rng.random() < 0.85
                else {k: v for k, v in deal.items() if k != field}
            )
    return deal


# ---- Daifugō rounds ------------------------------------------------------------------------------


def _random_round(ruleset: rules.RuleSet, rng: random.Random) -> dict:
    n = rng.randint(3, 8)
    order = rng.sample(IDS, n)
    forbidden = []
    if ruleset.forbidden_finish and rng.random() < 0.5:
        forbidden = rng.sample(order[:-1], rng.randint(1, min(3, n - 1)))
    previous = rng.choice([None, None, rng.choice(order), order[0], rng.choice(IDS)])
    data = {"order": order, "forbidden": forbidden, "previous_daifugo": previous}
    if rng.random() < 0.5:
        data["players"] = rng.sample(order, n)
    return data


def _spoil_daifugo(data: dict, rng: random.Random) -> dict:
    data = dict(data)
    change = rng.choice(["short", "long", "twice", "stranger", "missing", "forbidden-last",
                         "forbidden-stranger", "forbidden-any", "previous", "blank"])  # fmt: skip
    order = list(data["order"])
    if change == "short":
        data["order"] = order[:2]
    elif change == "long":
        data["order"] = IDS[:] + [109]
    elif change == "twice":
        data["order"] = order + [order[0]]
    elif change == "stranger":
        data["players"] = order[:-1]
    elif change == "missing":
        data["players"] = order + [rng.choice([i for i in IDS + [109] if i not in order])]
    elif change == "forbidden-last":
        data["forbidden"] = [order[-1]]
    elif change == "forbidden-stranger":
        data["forbidden"] = [999]
    elif change == "forbidden-any":
        data["forbidden"] = [order[0]]
    elif change == "previous":
        data["previous_daifugo"] = rng.choice([" ", "", 0, "x", True])
    else:
        order[rng.randrange(len(order))] = rng.choice(["", " "])
        data["order"] = order
    return data


# ---- entry forms: what the phone posts, read as the server's form reads it -------------------

FORM_TEXTS = ["", " ", "x", "abc", "solo", " solo", "12", " 12 ", "12.0", "1_2", "+5", "-3",
              "99999999999", "0", "on", "false", "True"]  # fmt: skip


def _ids_field(ids: list[int], rng: random.Random) -> list[str]:
    values = [str(i) for i in rng.sample(ids, rng.randint(0, len(ids)))]
    if values and rng.random() < 0.2:
        values.insert(rng.randrange(len(values)), rng.choice(["", " ", " 7 ", "x", values[0]]))
    return values


def _napoleon_body(ids: list[int], rng: random.Random) -> list[list[str]]:
    seats = _ids_field(ids, rng)
    pick = lambda choices: rng.choice(choices + FORM_TEXTS[:3])  # noqa: E731
    body = [["seats", s] for s in seats] + [
        ["napoleon", pick(seats or ["1"])], ["bid", pick([str(b) for b in range(9, 22)])],
        ["trump", pick(["S", "H", " D ", "♠"])], ["called_suit", pick(SUITS + ["JK"])],
        ["called_rank", pick(RANKS)], ["adjutant", pick((seats or ["1"]) + ["solo", " solo"])],
        ["honours", rng.choice([str(rng.randint(0, 20))] + FORM_TEXTS)],
        ["discarded", rng.choice([str(rng.randint(0, 4))] + FORM_TEXTS)],
        ["last_trick", pick(["napoleon", "allies"])],
    ]  # fmt: skip
    if rng.random() < 0.15:
        body.append(["redeal", rng.choice(["on", "false", "0", "", "True"])])
    return [pair for pair in body if rng.random() < 0.95]


def _daifugo_body(ids: list[int], rng: random.Random) -> list[list[str]]:
    players = _ids_field(ids, rng)
    order = [p for p in players if rng.random() < 0.9]
    rng.shuffle(order)
    forbidden = [p for p in order if rng.random() < 0.15]
    return ([["players", p] for p in players] + [["order", p] for p in order]
            + [["forbidden", p] for p in forbidden])  # fmt: skip


def form_cases(seed: int, club, players) -> list[dict]:
    """Entry forms as the phone posts them, right and wrong, with the data the server makes of
    them (``to_data``; a tournament table's drawn players fix the seats or the round's
    players), or None where the form itself is refused."""
    rng = random.Random(seed)
    ids = [p.id for p in players]
    day = datetime.date(2026, 11, 20)
    sessions = {
        "napoleon": factories.session(club=club, date=day, ruleset=factories.ClubRuleSetFactory(
            club=club, code="napoleon-wiki", preset="napoleon-wiki")),
        "daifugo": factories.session(club=club, date=day, ruleset=factories.ClubRuleSetFactory(
            club=club, code="daifugo-common", preset="daifugo-common")),
    }  # fmt: skip
    out = []
    for _ in range(300):
        game = rng.choice(["napoleon", "daifugo"])
        body = (_napoleon_body if game == "napoleon" else _daifugo_body)(ids, rng)
        table = rng.sample(ids, 5) if rng.random() < 0.3 else None
        data = QueryDict(mutable=True)
        for name, value in body:
            data.appendlist(name, value)
        form_class = NapoleonDealForm if game == "napoleon" else DaifugoRoundForm
        roster = table if game == "daifugo" else None
        form = form_class(data, session=sessions[game], roster=roster)
        made = form.to_data() if form.is_valid() else None
        if made is not None and game == "napoleon" and table is not None:
            made["seats"] = table  # views.events.tables._table_data
        out.append({"game": game, "body": body, "table": table, "expected": made})
    return out


# ---- the cases ----------------------------------------------------------------------------------


def expected(game: str, data: dict, ruleset: rules.RuleSet) -> dict:
    """The Python core's answer as JSON: the result, or the refusal's field and code."""
    try:
        result = score(game, data, ruleset)
    except EfudaError as err:
        return {"error": {"field": err.field, "code": err.code}}
    if game == "napoleon":
        keys = ("redeal", "army_count", "won", "solo", "plan_b", "all20", "multiplier", "bid",
                "trump", "called", "discards_to")  # fmt: skip
        return {"result": {k: getattr(result, k) for k in keys} | {
            "points": dict(result.points), "roles": dict(result.roles),
            "order": list(result.points),
        }}  # fmt: skip
    return {"result": {
        "final_order": list(result.final_order), "titles": dict(result.titles),
        "points": dict(result.points), "miyako_ochi": result.miyako_ochi,
        "forbidden_applied": list(result.forbidden_applied),
        "exchanges": [[e.giver, e.receiver, e.count] for e in result.exchanges],
        "next_leader": result.next_leader, "first_round_lead": result.first_round_lead,
    }}  # fmt: skip


def cases(seed: int) -> dict:
    rng = random.Random(seed)
    found = rulesets(rng)
    out = []
    for key, ruleset in found.items():
        if ruleset.game == "napoleon":
            deals = napoleon_cells(ruleset)
            for _ in range(40):
                deal = _random_deal(ruleset, rng)
                deals.append(deal)
                deals.append(_spoil_napoleon(deal, rng))
        else:
            deals = []
            for _ in range(60):
                data = _random_round(ruleset, rng)
                deals += [data, _spoil_daifugo(data, rng)]
        for data in deals:
            out.append({"rules": key, "game": ruleset.game, "data": data,
                        "expected": expected(ruleset.game, data, ruleset)})  # fmt: skip
    return {"seed": seed, "rules": {k: ruleset_json(r) for k, r in found.items()}, "cases": out}


def test_the_cases_reach_every_table_cell_and_every_refusal():
    """The generator itself: what the phone is compared on covers what the core can answer."""
    made = cases(38)
    codes = {c["expected"]["error"]["code"] for c in made["cases"] if "error" in c["expected"]}
    assert {
        "players_not_allowed", "not_a_bool", "redeal_with_deal", "napoleon_missing",
        "not_seated", "solo_not_a_bool", "adjutant_and_solo", "adjutant_missing",
        "adjutant_is_napoleon", "bid_missing", "bid_out_of_range", "trump_missing",
        "invalid_suit", "invalid_card", "no_joker", "honours_missing", "not_a_count",
        "honours_range", "discarded_missing", "too_many_honours", "too_many_discards",
        "last_trick_missing", "blank_player", "duplicate_player", "not_at_table",
        "order_incomplete", "players_out_of_range", "not_in_round", "forbidden_not_in_rules",
        "last_did_not_go_out", "invalid_player",
    } <= codes  # fmt: skip
    results = [c["expected"]["result"] for c in made["cases"] if "result" in c["expected"]]
    assert any(r.get("plan_b") for r in results) and any(r.get("all20") for r in results)
    assert any(r.get("miyako_ochi") for r in results) and any(r.get("redeal") for r in results)
    assert any(r.get("first_round_lead") for r in results)
    assert any(r.get("forbidden_applied") for r in results)
    # Every preset and every option of it is there, on its own.
    keys = set(made["rules"])
    for code in rules.PRESETS:
        assert code in keys
        for spec in rules.options_for(code):
            assert any(k.startswith(f"{code}/{spec.key}=") for k in keys), (code, spec.key)
    # Every cell of the originator's 5-player table, won and lost, normal and solo.
    table = napoleon_cells(rules.PRESETS["napoleon-originator"])
    cells = {
        (len(c["data"]["seats"]), c["data"]["bid"], c["data"]["solo"],
         c["expected"]["result"]["won"])
        for c in made["cases"]
        if c["rules"] == "napoleon-originator" and "result" in c["expected"] and c["data"] in table
    }  # fmt: skip
    every = {(5, b, s, w) for b in range(11, 21) for s in (False, True) for w in (True, False)}
    assert every <= cells


@pytest.mark.django_db
def test_the_phone_scores_every_case_as_the_server(tmp_path, club, players):
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed (scripts/test installs it)")
    seed = int(os.environ.get("EFUDA_PARITY_SEED") or random.SystemRandom().randrange(2**32))
    made = cases(seed) | {"forms": form_cases(seed, club, players)}
    assert sum(f["expected"] is None for f in made["forms"]) > 10  # wrong forms are there too
    path = tmp_path / "scoring-cases.json"
    path.write_text(json.dumps(made, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [node, "--test", "--test-reporter=spec", str(NODE_TEST)],
        cwd=ROOT,
        env=os.environ | {"EFUDA_SCORING_CASES": str(path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, f"EFUDA_PARITY_SEED={seed}\n{report[-6000:]}"
    # The Node side did score the cases (not skipped): it says how many agreed.
    assert f"{len(made['cases'])} cases agree" in report, report[-3000:]
    assert f"{len(made['forms'])} forms agree" in report, report[-3000:]
