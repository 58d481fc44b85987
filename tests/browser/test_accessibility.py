"""axe-core on every page the browser suite visits, in Japanese and in English (and the
deal edit form, the entry form's other use).

The vendored static/vendor/axe.min.js is injected by the test into each page (no page serves
it). Any violation axe rates serious or critical fails, with the rule and the elements named.
"""

import datetime

import pytest
from django.urls import reverse

from tests.browser.scorekeeper import Phone, make_table
from tournaments.models import Membership
from tournaments.services import events as svc
from tournaments.services.deals import deal_delete, deal_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pages(table) -> dict[str, str]:
    club, nap, dai = table.club, table.nap, table.dai
    slug = club.slug
    deal = table.deals(nap).first()
    player = table.players[0]
    t = svc.tournament_create(
        club=club,
        name="Axe Cup",
        date=datetime.date(2026, 11, 21),
        ruleset=nap.ruleset,
        is_public=True,
        seed=3,
        minutes_per_round=30,
    )
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"Player{i:02d}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    tournament_table = rnd.tables.order_by("number").first()
    return {
        "home": reverse("home"),
        "club": reverse("club_home", args=[slug]),
        "session": reverse("session_detail", args=[slug, nap.pk]),
        "daifugo session": reverse("session_detail", args=[slug, dai.pk]),
        "deal entry": reverse("deal_new", args=[slug, nap.pk]),
        "round entry": reverse("round_new", args=[slug, dai.pk]),
        "deal edit": reverse("deal_edit", args=[slug, deal.pk]),
        "standings": reverse("standings_all", args=[slug, "napoleon"]),
        "player": reverse("player_detail", args=[slug, player.id]),
        "tournament": reverse("tournament_detail", args=[t.pk]),
        "tournament standings": reverse("tournament_standings", args=[t.pk]),
        "tournament manage": reverse("tournament_manage", args=[t.pk]),
        "tournament table": reverse("tournament_table", args=[t.pk, tournament_table.pk]),
        "tournament pin": reverse("tournament_pin", args=[t.pk]),
    }


def test_axe_finds_no_serious_violation_on_any_page(browser, live_server):
    table = make_table()
    Membership.objects.filter(user=table.user).update(role="owner")  # the manage pages too
    first = table.deals(table.nap).first()
    again = deal_record(session=table.nap, data=first.data, user=table.user)
    deal_delete(deal=again, user=table.user)  # a deleted deal on the session page
    paths = pages(table)
    found = {}
    for locale in ("ja-JP", "en-US"):
        phone = Phone(browser, live_server, table.user, locale=locale, axe=True)
        try:
            for name, path in paths.items():
                phone.goto(path)
                lang = phone.page.get_attribute("html", "lang")
                assert lang == locale[:2], (name, lang)
                violations = phone.axe()
                if violations:
                    found[f"{locale} {name}"] = violations
            assert phone.errors == [], phone.errors  # no script error, nothing refused by CSP
        finally:
            phone.close()
        visitor = Phone(browser, live_server, None, locale=locale, axe=True)
        try:
            visitor.goto(reverse("login"))
            if violations := visitor.axe():
                found[f"{locale} login"] = violations
        finally:
            visitor.close()
    assert found == {}, found
