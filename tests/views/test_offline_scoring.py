"""What an entry page gives the phone to score a deal without a connection (#outbox-scoring,
tournaments/selectors/offline.py): the session's rule set as the server builds it, the names
of the players its form offers, the 大富豪 the next Daifugō round follows and, at a tournament
table, its drawn players in seat order. The scoring that reads it is tested against the
Python core in tests/services/test_phone_scoring_parity.py."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from tests import factories
from tournaments.selectors.offline import ruleset_json
from tournaments.selectors.rulesets import session_rules
from tournaments.services import events as svc
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def scoring_of(html: str) -> dict | None:
    found = re.search(r'<script id="outbox-scoring" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1)) if found else None


def test_a_club_entry_page_carries_its_rule_set_and_players(keeper, club, players):
    ruleset = factories.ClubRuleSetFactory(
        club=club, code="wiki-12", preset="napoleon-wiki",
        options={"min_bid": 12, "discard_policy": "last_trick"},
    )  # fmt: skip
    session = factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20))
    url = reverse("deal_new", args=[club.slug, session.pk])
    scoring = scoring_of(keeper.get(url).content.decode())
    assert scoring["game"] == "napoleon" and scoring["previous"] is None
    assert scoring["table"] is None
    rules = scoring["rules"]
    assert rules == ruleset_json(session_rules(session))
    assert rules["bids"]["5"] == [12, 20] and rules["discard_policy"] == "last_trick"
    assert rules["point_tables"]["5"] == {"normal": {"0": [2, 1, 1]}, "solo": {"0": [4, 1]}}
    assert scoring["names"] == {str(p.id): p.name for p in players}
    # The running totals are there to add the waiting deals to, hidden while there are none.
    assert re.search(r'<section class="running" hidden>', keeper.get(url).content.decode())


def test_a_daifugo_page_says_whom_the_next_round_follows(keeper, daifugo_session, players, users):
    url = reverse("round_new", args=[daifugo_session.club.slug, daifugo_session.pk])
    assert scoring_of(keeper.get(url).content.decode())["previous"] is None
    ids = [p.id for p in players[:4]]
    deal_record(session=daifugo_session, user=users["scorekeeper"],
                data={"players": ids, "order": ids[1:] + ids[:1], "forbidden": []})  # fmt: skip
    scoring = scoring_of(keeper.get(url).content.decode())
    assert scoring["previous"] == str(ids[1])
    assert scoring["rules"]["forbidden_finish"] is True and scoring["rules"]["miyako_ochi"] is True


def test_an_edit_page_carries_none(keeper, napoleon_session, players, users):
    ids = [p.id for p in players[:5]]
    deal = deal_record(
        session=napoleon_session, user=users["scorekeeper"],
        data={"seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called": "SA",
              "adjutant": ids[1], "solo": False, "honours": 13, "discarded": 0},
    )  # fmt: skip
    html = keeper.get(reverse("deal_edit", args=[napoleon_session.club.slug, deal.pk])).content
    assert scoring_of(html.decode()) is None


def test_a_tournament_table_gives_its_seats(client, club, users):
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=5)
    table = factories.started_round(t).tables.get()
    pin = svc.pin_issue(entry=t.entries.get(player_id=table.seats[2]))
    client.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin})
    html = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    scoring = scoring_of(html)
    assert scoring["table"] == list(table.seats)
    assert set(scoring["names"]) == {str(p) for p in table.seats}
    assert scoring["rules"] == ruleset_json(session_rules(table.session))
    # Each seat's total carries its points as efuda counts them (the phone adds to them).
    assert html.count('<td class="num" data-points="0">+0</td>') == 5
