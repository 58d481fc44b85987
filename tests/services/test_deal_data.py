"""The keys a deal's stored data names players by (``tournaments/deal_data.py``): the same keys
the scoring bridge reads players from and every entry path writes (the phone's forms, the API,
the import, the demo data), so the merge, which rewrites exactly those, never leaves a player
behind."""

import ast
import inspect
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.imports.helpers import DAIFUGO_HEADER, NAPOLEON_HEADER, csv_bytes
from tournaments import deal_data
from tournaments.deal_data import (
    PLAYER_KEY,
    PLAYER_KEYS,
    PLAYER_LIST_KEYS,
    SEATED_KEYS,
    places_renamed,
    player_ids,
    player_places,
    reason_code,
    reason_parse,
    seated,
)
from tournaments.management import demo_history
from tournaments.models import Deal
from tournaments.selectors.rulesets import ruleset_rules
from tournaments.services import scoring_bridge
from tournaments.services.api import token_create
from tournaments.services.imports import results_import

# What else a deal's data holds: never a player. A key the bridge or a writer starts to use must
# be put in one list or the other (these tests fail until it is).
OTHER_KEYS = frozenset(
    {"bid", "trump", "called", "solo", "honours", "discarded", "last_trick", "redeal"}
)


def _keys_reaching(node: ast.AST, assigned: dict[str, set[str]]) -> set[str]:
    """The string keys of ``data.get("k")`` / ``data["k"]`` inside ``node``, following local
    names assigned from them."""
    keys = set()
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
            and sub.func.attr == "get" and sub.args and isinstance(sub.args[0], ast.Constant)
        ):  # fmt: skip
            keys.add(sub.args[0].value)
        elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
            keys.add(sub.slice.value)
        elif isinstance(sub, ast.Name) and sub.id in assigned:
            keys |= assigned[sub.id]
    return {k for k in keys if isinstance(k, str)}


def _bridge_player_reads() -> set[str]:
    """Every key whose value the bridge hands to the scoring core as a player (through ``_key``
    or ``_keys``, directly or through a local name)."""
    tree = ast.parse(inspect.getsource(scoring_bridge))
    found = set()
    for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    assigned[target.id] = _keys_reaching(node.value, {})
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("_key", "_keys"):
                for arg in node.args:
                    found |= _keys_reaching(arg, assigned)
    return found


class Reading(dict):
    """A deal's data that notes every key read from it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)


def test_the_bridge_reads_players_from_exactly_the_listed_keys():
    assert _bridge_player_reads() == set(PLAYER_KEYS)


def test_every_key_the_bridge_reads_is_either_a_player_key_or_never_a_player():
    assert not OTHER_KEYS & set(PLAYER_KEYS)
    napoleon = Reading(seats=["1", "2", "3", "4", "5"], napoleon="1", adjutant="2", bid=13,
                       trump="S", called="SA", solo=False, honours=14, discarded=0)  # fmt: skip
    scoring_bridge.napoleon_deal_from_data(napoleon)
    scoring_bridge.deal_columns("napoleon", napoleon)
    daifugo = Reading(players=["1", "2", "3"], order=["1", "2", "3"], forbidden=[],
                      previous_daifugo="2")  # fmt: skip
    scoring_bridge.daifugo_round_from_data(daifugo)
    read = napoleon.read | daifugo.read
    assert read <= set(PLAYER_KEYS) | OTHER_KEYS, read - set(PLAYER_KEYS) - OTHER_KEYS
    assert set(PLAYER_KEYS) <= read  # the list names no key the bridge has stopped reading


def test_the_lists_are_what_the_module_says():
    assert PLAYER_KEY == ("napoleon", "adjutant", "previous_daifugo")
    assert PLAYER_LIST_KEYS == ("seats", "players", "order", "forbidden")
    assert PLAYER_KEYS == PLAYER_KEY + PLAYER_LIST_KEYS
    assert SEATED_KEYS == ("seats", "players", "order")


WEB_ROUND = {"players": [7, 12, 3, 9], "order": [12, 7, 3, 9], "forbidden": [7],
             "previous_daifugo": "12"}  # fmt: skip


def test_places_name_every_key_and_index():
    assert player_places(WEB_ROUND, "7") == {"players": [0], "order": [1], "forbidden": [0]}
    assert player_places(WEB_ROUND, "12") == {
        "previous_daifugo": True, "players": [1], "order": [0],
    }  # fmt: skip
    napoleon = {"seats": ["5", "6", "7"], "napoleon": "6", "adjutant": 6, "bid": 7}
    assert player_places(napoleon, "6") == {"napoleon": True, "adjutant": True, "seats": [1]}
    assert player_places(napoleon, "7") == {"seats": [2]}  # a bid of 7 names nobody
    assert player_places({"adjutant": None, "napoleon": "", "seats": "5"}, "5") == {}
    assert player_places(WEB_ROUND, "99") == {}


def test_seated_counts_seats_players_and_order_only():
    assert seated(WEB_ROUND, "7") and seated(WEB_ROUND, "12")
    only_previous = {"players": [1, 2], "order": [2, 1], "previous_daifugo": "3"}
    assert not seated(only_previous, "3")
    assert seated({"seats": [4, 5]}, "5") and not seated({"seats": [4, 5]}, "6")
    assert not seated({"napoleon": "5", "adjutant": "5", "forbidden": ["5"]}, "5")
    assert seated({"order": ["8"]}, "8") and seated({"players": [8]}, "8")
    assert not seated({"seats": "8"}, "8")  # not a list: names nobody


def test_player_ids_are_every_id_named():
    assert player_ids(WEB_ROUND) == {"7", "12", "3", "9"}
    assert player_ids({"seats": [1, 2], "napoleon": 2, "adjutant": None, "bid": 15}) == {"1", "2"}
    assert player_ids({"previous_daifugo": "4", "order": []}) == {"4"}
    assert player_ids({"napoleon": "", "forbidden": None}) == set()


def test_renaming_keeps_each_value_in_its_stored_form():
    places = player_places(WEB_ROUND, "12")
    renamed = places_renamed(WEB_ROUND, places, "12", "40")
    assert renamed == {"players": [7, 40, 3, 9], "order": [40, 7, 3, 9], "forbidden": [7],
                       "previous_daifugo": "40"}  # fmt: skip
    assert WEB_ROUND["players"] == [7, 12, 3, 9]  # the stored data itself is left alone
    assert type(renamed["players"][1]) is int and type(renamed["previous_daifugo"]) is str
    imported = {"seats": ["1", "2"], "napoleon": "2", "adjutant": "1", "solo": False}
    back = places_renamed(imported, {"napoleon": True, "seats": [1]}, "2", "30")
    assert back == {"seats": ["1", "30"], "napoleon": "30", "adjutant": "1", "solo": False}
    assert places_renamed({"solo": True}, {}, "1", "2") == {"solo": True}


def test_renaming_refuses_places_that_no_longer_name_the_player():
    assert places_renamed(WEB_ROUND, {"order": [1]}, "12", "40") is None  # order[1] is 7
    assert places_renamed(WEB_ROUND, {"order": [4]}, "12", "40") is None  # past the end
    assert places_renamed(WEB_ROUND, {"napoleon": True}, "12", "40") is None
    assert places_renamed({"napoleon": ""}, {"napoleon": True}, "", "40") is None
    assert places_renamed(WEB_ROUND, {"order": [0]}, "12", "40")["order"] == [40, 7, 3, 9]


def test_reasons_are_short_codes_read_back_exactly():
    assert reason_code("after", 3) == "after:3"
    assert reason_code("merge", 12) == "merge:12" and reason_code("merge-undo", 5) == "merge-undo:5"
    with pytest.raises(ValueError):
        reason_code("edit", 1)
    assert reason_parse("merge-undo:5") == ("merge-undo", 5)
    assert reason_parse("after:3") == ("after", 3) and reason_parse("merge:12") == ("merge", 12)
    for text in (None, "", "席の訂正", "merge:", "merge:x", "merge:１", "edit:3", "merge 12"):
        assert reason_parse(text) is None, text
    assert deal_data.REASON_KINDS == ("after", "merge", "merge-undo", "late")


# --- every entry path stores players under the listed keys only ------------------------------


def _stored_keys(deals) -> set[str]:
    return {key for deal in deals for key in deal.data}


@pytest.mark.django_db
def test_the_web_forms_store_players_under_listed_keys(client, users, players, napoleon_session,
                                                       daifugo_session):  # fmt: skip
    client.force_login(users["scorekeeper"])
    ids = [p.id for p in players[:5]]
    slug = napoleon_session.club.slug
    client.post(reverse("deal_new", args=[slug, napoleon_session.pk]), {
        "seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called_suit": "S",
        "called_rank": "A", "adjutant": "solo", "honours": 14, "discarded": 0, "action": "save",
    })  # fmt: skip
    url = reverse("round_new", args=[slug, daifugo_session.pk])
    for n in range(2):
        order = ids[n:] + ids[:n]
        client.post(url, {"players": ids, "order": order[:-1], "forbidden": [order[1]],
                          "action": "save"})  # fmt: skip
    deals = list(Deal.objects.filter(club=napoleon_session.club))
    assert len(deals) == 3
    keys = _stored_keys(deals)
    assert keys <= set(PLAYER_KEYS) | OTHER_KEYS and {"players", "previous_daifugo"} <= keys


@pytest.mark.django_db
def test_the_api_stores_players_under_listed_keys(users, players, napoleon_session,
                                                  daifugo_session):  # fmt: skip
    token = token_create(user=users["scorekeeper"], name="bot", scope="write")[1]
    ids = [p.id for p in players[:5]]
    base = f"/api/v1/clubs/{napoleon_session.club.slug}/sessions"
    for url, body in (
        (f"{base}/{napoleon_session.pk}/deals", {
            "seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called_suit": "S",
            "called_rank": "A", "adjutant": "solo", "honours": 14, "discarded": 0}),
        (f"{base}/{daifugo_session.pk}/rounds", {"players": ids, "order": ids[:4]}),
        (f"{base}/{daifugo_session.pk}/rounds", {"players": ids, "order": ids[1:],
                                                 "forbidden": [ids[2]]}),
    ):  # fmt: skip
        answer = Client().post(url, json.dumps(body), content_type="application/json",
                               HTTP_AUTHORIZATION=f"Bearer {token}")  # fmt: skip
        assert answer.status_code == 201, answer.content
    keys = _stored_keys(Deal.objects.filter(club=napoleon_session.club))
    assert keys <= set(PLAYER_KEYS) | OTHER_KEYS and {"players", "previous_daifugo"} <= keys


@pytest.mark.django_db
def test_the_import_and_the_demo_store_players_under_listed_keys(club, players):
    factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    results_import(club=club, file=csv_bytes(
        NAPOLEON_HEADER, "2026-11-01,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,S,SA,花子,14,0",
    ))  # fmt: skip
    results_import(club=club, file=csv_bytes(
        DAIFUGO_HEADER, "2026-11-01,B,daifugo-common,太郎;花子;Ken;ゆき,花子",
        "2026-11-01,B,daifugo-common,花子;太郎;Ken;ゆき,",
    ))  # fmt: skip
    rng = random.Random(1)
    seats = [str(p.id) for p in players[:5]]
    wiki = ruleset_rules(club.rulesets.get(code="napoleon-wiki"))
    demo = [
        demo_history.daifugo_round(rng, seats, seats[0]),
        demo_history.napoleon_deal(rng, seats, wiki),
    ]
    keys = _stored_keys(Deal.objects.filter(club=club)) | {k for d in demo for k in d}
    assert keys <= set(PLAYER_KEYS) | OTHER_KEYS and "previous_daifugo" in keys
