"""The standings freeze: staff hide the live standings for the final rounds and reveal them at
the end. Services, pages for staff / the public / a PIN holder, and the page cache."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import factories
from tests.events.conftest import napoleon_win
from tournaments.models import Club
from tournaments.selectors import events as sel
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def win(seats, napoleon, adjutant):
    """A won deal at a table whose seats are ``seats``, with the given Napoleon and adjutant."""
    data = napoleon_win(seats)
    data["napoleon"], data["adjutant"] = napoleon, adjutant
    return data


def play(t, *, finish=True, deals=1):
    """Draw, start and (by default) finish a round; each table records ``deals`` deals."""
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    for table in rnd.tables.order_by("number"):
        for _ in range(deals):
            svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    if finish:
        svc.round_finish(rnd=rnd)
    return rnd


def totals(standings):
    return {row.player_id: row.total for row in standings.rows}


def order(html: str) -> list[str]:
    return re.findall(r'<td class="player"><bdi>(.*?)</bdi>', html)


@pytest.fixture
def evening(make_tournament):
    """Three rounds, the last one hidden: rounds 1 and 2 played, round 3 running, where the
    player last after round 2 wins three deals and goes top."""
    t = make_tournament(10, rounds_planned=3, is_public=True)
    play(t)
    play(t)
    before = sel.tournament_standings(tournament=t)
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    rnd = play(t, finish=False, deals=0)
    last = before.rows[-1].player_id
    table = next(tb for tb in rnd.tables.all() if last in tb.seats)
    partner = next(p for p in table.seats if p != last)
    for _ in range(3):
        svc.table_deal_record(table=table, data=win(table.seats, last, partner), staff=True)
    t.refresh_from_db()
    return t, before, last


# --- services --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 4, "x", "", None, "9" * 40, "1e3", "NaN"])
def test_freeze_is_range_checked_against_the_rounds(make_tournament, value):
    t = make_tournament(5, rounds_planned=3)
    with pytest.raises(EfudaError) as err:
        svc.tournament_freeze_set(tournament=t, hidden_rounds=value)
    assert err.value.field == "standings_hidden_rounds" and err.value.params == {"max": 3}
    t.refresh_from_db()
    assert t.standings_hidden_rounds == 0


def test_freeze_starts_with_the_first_hidden_round_and_keeps_history(make_tournament, users):
    t = make_tournament(10, rounds_planned=3)
    for value in (0, 3, 2):
        svc.tournament_freeze_set(tournament=t, hidden_rounds=value, user=users["scorekeeper"])
    t.refresh_from_db()
    assert t.standings_hidden_rounds == 2 and not t.standings_revealed
    assert sel.results_hidden(t)
    play(t)  # round 1 is shown: nothing frozen yet
    assert sel.freeze_round(t) is None
    play(t, finish=False)  # round 2 is the first hidden one
    assert sel.freeze_round(t) == 1
    changes = [
        (h.standings_hidden_rounds, h.history_user)
        for h in t.history.order_by("history_id")
        if h.history_change_reason and h.history_change_reason.startswith("standings hidden")
    ]
    assert changes == [(v, users["scorekeeper"]) for v in (0, 3, 2)]


def test_hiding_every_round_freezes_before_round_one(make_tournament):
    t = make_tournament(10, rounds_planned=2)
    t = svc.tournament_freeze_set(tournament=t, hidden_rounds=2)
    play(t, finish=False)
    assert sel.freeze_round(t) == 0
    frozen = sel.visible_standings(tournament=t, staff=False)
    assert frozen.frozen_after == 0 and set(totals(frozen).values()) == {0}
    assert {r.rounds for r in frozen.rows} == {0}


def test_frozen_standings_are_those_after_the_last_shown_round(evening):
    t, before, last = evening
    frozen = sel.visible_standings(tournament=t, staff=False)
    live = sel.visible_standings(tournament=t, staff=True)
    assert frozen.frozen_after == 2 and live.frozen_after is None
    assert totals(frozen) == totals(before)
    assert [r.player_id for r in frozen.rows] == [r.player_id for r in before.rows]
    assert live.rows[0].player_id == last and totals(live) != totals(before)


def test_adjustments_of_hidden_rounds_wait_for_the_reveal(evening, users):
    t, before, last = evening
    entry = t.entries.get(player_id=before.rows[0].player_id)
    svc.adjustment_add(entry=entry, points="-3", reason="late", round_number=3)
    svc.adjustment_add(entry=entry, points="-2", reason="phone")  # no round, during round 3
    svc.adjustment_add(entry=entry, points="-1", reason="round 1 slip", round_number=1)
    frozen = sel.visible_standings(tournament=t, staff=False)
    assert [a.reason for a in frozen.adjustments] == ["round 1 slip"]
    row = next(r for r in frozen.rows if r.entry_id == entry.pk)
    assert row.total == before.rows[0].total - 1
    live = sel.visible_standings(tournament=t, staff=True)
    assert len(live.adjustments) == 3


def test_reveal_shows_everything_and_is_in_the_history(evening, users):
    t, before, last = evening
    svc.tournament_standings_reveal(tournament=t, user=users["owner"])
    t.refresh_from_db()
    assert t.standings_revealed and sel.freeze_round(t) is None and not sel.results_hidden(t)
    assert sel.visible_standings(tournament=t, staff=False).rows[0].player_id == last
    record = t.history.filter(history_change_reason="standings revealed").get()
    assert record.standings_revealed and record.history_user == users["owner"]
    with pytest.raises(EfudaError) as err:  # nothing left to reveal
        svc.tournament_standings_reveal(tournament=t)
    assert err.value.code == "reveal_nothing"
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)  # hiding again
    t.refresh_from_db()
    assert sel.freeze_round(t) == 2


def test_reveal_without_a_freeze_is_refused(make_tournament):
    t = make_tournament(5)
    with pytest.raises(EfudaError) as err:
        svc.tournament_standings_reveal(tournament=t)
    assert err.value.code == "reveal_nothing"


# --- pages -----------------------------------------------------------------------------------


def test_public_player_and_staff_standings_pages(client, users, evening):
    t, before, last = evening
    names = {e.player_id: e.player.name for e in t.entries.select_related("player")}
    url = reverse("tournament_standings", args=[t.pk])
    public = client.get(url).content.decode()
    assert "Standings frozen after round 2" in public
    assert order(public) == [names[r.player_id] for r in before.rows]
    assert "Results (PDF)" not in public
    # a player with a PIN sees the same frozen standings
    player = Client()
    entry = t.entries.get(player_id=last)
    pin = svc.pin_issue(entry=entry)
    player.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin})
    seen = player.get(url).content.decode()
    assert "Standings frozen after round 2" in seen and order(seen) == order(public)
    assert player.get(reverse("tournament_results_pdf", args=[t.pk])).status_code == 404
    # the htmx fragment the page polls too
    fragment = player.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "Standings frozen after round 2" in fragment and order(fragment) == order(public)
    # staff see the live standings, and are told what the others see
    client.force_login(users["scorekeeper"])
    live = client.get(url).content.decode()
    assert "Standings frozen after round 2" not in live
    assert "shown to staff only" in live and order(live)[0] == names[last]
    assert "Results (PDF)" in live


def test_results_pdf_waits_for_the_reveal(client, users, evening):
    t, _before, _last = evening
    pdf = reverse("tournament_results_pdf", args=[t.pk])
    assert client.get(pdf).status_code == 404
    detail = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert pdf not in detail
    staff = Client()
    staff.force_login(users["scorekeeper"])
    reveal = staff.post(reverse("tournament_reveal", args=[t.pk]))
    assert reveal.status_code == 302
    response = client.get(pdf)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert pdf in client.get(reverse("tournament_detail", args=[t.pk])).content.decode()


def test_staff_page_sets_the_freeze_beside_its_field(client, users, make_tournament):
    t = make_tournament(5, rounds_planned=4)
    url = reverse("tournament_freeze", args=[t.pk])
    client.force_login(users["member"])
    assert client.post(url, {"standings_hidden_rounds": "1"}).status_code == 403
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_staff", args=[t.pk]))
    assert page.status_code == 200 and 'name="standings_hidden_rounds"' in page.content.decode()
    for value in ("5", "-1", "1e3", "9" * 40, "", "Infinity"):
        response = client.post(url, {"standings_hidden_rounds": value})
        assert response.status_code == 400, value
        assert "field-error" in response.content.decode()
    t.refresh_from_db()
    assert t.standings_hidden_rounds == 0
    response = client.post(url, {"standings_hidden_rounds": "２"})  # full-width digits
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.standings_hidden_rounds == 2
    assert client.post(reverse("tournament_reveal", args=[t.pk])).status_code == 302
    t.refresh_from_db()
    assert t.standings_revealed


def test_reveal_with_nothing_hidden_answers_on_the_page(client, users, make_tournament):
    t = make_tournament(5)
    client.force_login(users["scorekeeper"])
    response = client.post(reverse("tournament_reveal", args=[t.pk]))
    assert response.status_code == 400
    assert "nothing to reveal" in response.content.decode()


# --- the page cache --------------------------------------------------------------------------


def version(club) -> int:
    return Club.objects.values_list("data_version", flat=True).get(pk=club.pk)


def test_freeze_and_reveal_never_leave_a_stale_cached_page(
    public_club, users, django_assert_num_queries
):
    ruleset = factories.ClubRuleSetFactory(
        club=public_club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    t = svc.tournament_create(
        club=public_club, name="公開大会", date=datetime.date(2026, 11, 21), ruleset=ruleset,
        rounds_planned=2, is_public=True, seed=3,
    )  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    play(t)
    rnd = play(t, finish=False, deals=0)
    table = rnd.tables.get()
    svc.table_deal_record(
        table=table, data=win(table.seats, table.seats[4], table.seats[3]), staff=True
    )
    visitor = Client()
    url = reverse("tournament_standings", args=[t.pk])
    first = visitor.get(url).content.decode()
    assert "frozen" not in first
    with django_assert_num_queries(1):  # the club's data version: the page is in the cache
        assert order(visitor.get(url).content.decode()) == order(first)
    start = version(public_club)
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    assert version(public_club) > start
    frozen = visitor.get(url).content.decode()
    assert "Standings frozen after round 1" in frozen and order(frozen) != order(first)
    svc.tournament_standings_reveal(tournament=t)
    revealed = visitor.get(url).content.decode()
    assert "frozen" not in revealed and order(revealed) == order(first)
