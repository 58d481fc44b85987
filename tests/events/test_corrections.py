"""A tournament's deals change only through the tournament: corrected on the table (by staff,
or by its players where deals need confirmation), with the table's players only, whichever
page sends the change; the club's edit page hands over to the table. Every correction keeps
history and re-counts the standings."""

import re

import pytest
from django.urls import reverse

from core.errors import EfudaError
from tests import factories
from tests.events.conftest import napoleon_win
from tests.views.helpers import napoleon_fields
from tournaments.models import ConfirmationState, Deal, DealConfirmation
from tournaments.selectors import events as sel
from tournaments.services import deals as deal_services
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def edit_post(seats, deal, **changes):
    """The entry form's POST for ``napoleon_win(seats)`` as an edit of ``deal``."""
    data = {
        **napoleon_fields(seats),
        "version": deal.version,
        "action": "save",
    }
    data.update(changes)
    return data


@pytest.fixture
def evening(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    mine, other = rnd.tables.order_by("number")
    deal = svc.table_deal_record(table=mine, data=napoleon_win(mine.seats), staff=True)
    return t, rnd, mine, other, deal


def totals(t):
    return {r.player_id: (r.total, r.rounds) for r in sel.tournament_standings(tournament=t).rows}


def test_the_club_edit_page_cannot_seat_a_player_of_another_table(client, users, evening):
    """The evening's fault: club Sessions → E-R1-T1 → Edit unseated one player and seated one
    from table 2; the standings then gave the outsider a second round and points."""
    t, rnd, mine, other, deal = evening
    before = totals(t)
    outsider = other.seats[0]
    seats = [*mine.seats[:4], outsider]
    client.force_login(users["scorekeeper"])
    url = reverse("deal_edit", args=[t.club.slug, deal.pk])
    response = client.post(url, edit_post(seats, deal))
    assert response.status_code == 200  # the form again, with the refusal
    page = response.content.decode()
    names = sel.names_of(t)
    assert f"{names[outsider]} did not play at table R1-T1" in page
    assert names[mine.seats[4]] in page  # the table's players are named, never ids
    assert f": {outsider} did not" not in page
    deal.refresh_from_db()
    assert sorted(deal.data["seats"]) == sorted(mine.seats) and deal.version == 1
    assert totals(t) == before and totals(t)[outsider][1] == 1


def test_the_services_refuse_an_outsider_whoever_calls_them(evening, users):
    t, rnd, mine, other, deal = evening
    wrong = napoleon_win([*mine.seats[:4], other.seats[0]])
    with pytest.raises(EfudaError) as err:
        deal_services.deal_update(deal=deal, data=wrong, version=deal.version)
    assert err.value.code == "seats_outsider" and err.value.field == "seats"
    with pytest.raises(EfudaError) as err:
        deal_services.deal_record(session=mine.session, data=wrong)
    assert err.value.code == "seats_outsider"
    short = napoleon_win(mine.seats[:4])
    with pytest.raises(EfudaError) as err:
        deal_services.deal_update(deal=deal, data=short, version=deal.version)
    assert err.value.code == "seats_missing"
    assert Deal.objects.filter(session=mine.session).count() == 1


def test_the_club_pages_hand_a_tournament_deal_over_to_its_table(client, users, evening):
    t, rnd, mine, other, deal = evening
    client.force_login(users["scorekeeper"])
    response = client.get(reverse("deal_edit", args=[t.club.slug, deal.pk]), follow=True)
    correct = reverse("tournament_deal_correct", args=[t.pk, mine.pk, deal.pk])
    assert response.redirect_chain[0][0] == correct
    page = response.content.decode()
    assert "it is corrected there" in page and "R1-T1" in page
    new = client.get(reverse("deal_new", args=[t.club.slug, mine.session_id]))
    assert new.status_code == 302
    assert new["Location"] == reverse("tournament_table", args=[t.pk, mine.pk])
    # A club session of its own is edited where it always was.
    own_session = factories.session(club=t.club, ruleset=t.ruleset, date=t.date, table="A")
    club_session = deal_services.deal_record(session=own_session, data=napoleon_win(mine.seats))
    own = client.get(reverse("deal_edit", args=[t.club.slug, club_session.pk]))
    assert own.status_code == 200


def test_staff_correct_a_disputed_deal_on_the_table(client, users, make_tournament):
    t = make_tournament(5, require_confirmation=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    entries = {e.player_id: e for e in t.entries.all()}
    deal = svc.table_deal_record(
        table=table, data=napoleon_win(table.seats), entry=entries[table.seats[0]]
    )
    svc.deal_dispute(deal=deal, entry=entries[table.seats[1]], note="the bid was 14")
    assert table.seats[0] not in {r.player_id for r in sel.tournament_standings(tournament=t).rows
                                  if r.total}  # fmt: skip
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    correct = reverse("tournament_deal_correct", args=[t.pk, table.pk, deal.pk])
    assert "the bid was 14" in page and correct in page  # the note, the correction one tap away
    response = client.post(correct, edit_post(table.seats, deal, bid=14))
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.data["bid"] == 14 and deal.version == 2
    c = DealConfirmation.objects.get(deal=deal)
    assert c.state == ConfirmationState.CONFIRMED and c.decided_by_user == users["scorekeeper"]
    assert [h.data["bid"] for h in deal.history.order_by("history_date")] == [13, 14]
    by = {r.player_id: r.points for r in sel.tournament_standings(tournament=t).rows}
    assert by[table.seats[0]] == deal.lines.get(player_id=table.seats[0]).points != 0


def test_players_correct_with_a_second_players_confirmation(client, make_tournament):
    t = make_tournament(5, require_confirmation=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    entries = {e.player_id: e for e in t.entries.all()}
    a, b, c = (entries[p] for p in table.seats[:3])
    deal = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=a)
    corrected = napoleon_win(table.seats, bid=14)
    svc.table_deal_correct(deal=deal, data=corrected, version=deal.version, entry=b)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.state == ConfirmationState.PENDING and confirmation.recorded_by == b
    with pytest.raises(EfudaError) as err:  # the corrector does not confirm their correction
        svc.deal_confirm(deal=deal, entry=b)
    assert err.value.code == "confirm_own"
    svc.deal_confirm(deal=deal, entry=c)
    deal.refresh_from_db()
    assert deal.data["bid"] == 14
    with pytest.raises(EfudaError) as err:  # once it counts, only staff change it
        svc.table_deal_correct(deal=deal, data=corrected, version=deal.version, entry=c)
    assert err.value.code == "correct_counted"


def test_without_confirmation_players_ask_the_staff(make_tournament):
    t = make_tournament(5)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    a = t.entries.get(player_id=table.seats[0])
    deal = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=a)
    with pytest.raises(EfudaError) as err:
        svc.table_deal_correct(
            deal=deal, data=napoleon_win(table.seats, bid=14), version=deal.version, entry=a
        )
    assert err.value.code == "correct_staff_only"


def test_a_player_at_the_correction_page_of_another_table_is_refused(client, evening):
    t, rnd, mine, other, deal = evening
    stranger = t.entries.get(player_id=other.seats[0])
    pin = svc.pin_issue(entry=stranger)
    client.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin})
    url = reverse("tournament_deal_correct", args=[t.pk, mine.pk, deal.pk])
    response = client.get(url)
    assert response.status_code == 403
    page = response.content.decode()
    assert "This is not your table" in page
    assert reverse("tournament_table", args=[t.pk, other.pk]) in page  # the way on


def test_staff_drop_and_restore_a_deal_on_the_table(client, users, evening):
    t, rnd, mine, other, deal = evening
    client.force_login(users["scorekeeper"])
    client.post(reverse("tournament_deal_drop", args=[t.pk, mine.pk, deal.pk]))
    deal.refresh_from_db()
    assert deal.is_deleted
    assert sel.tournament_standings(tournament=t).rows[0].total == 0
    page = client.get(reverse("tournament_table", args=[t.pk, mine.pk])).content.decode()
    assert reverse("tournament_deal_restore", args=[t.pk, mine.pk, deal.pk]) in page
    client.post(reverse("tournament_deal_restore", args=[t.pk, mine.pk, deal.pk]))
    deal.refresh_from_db()
    assert not deal.is_deleted


def test_deals_per_round_are_enforced_and_shown(client, users, make_tournament):
    t = make_tournament(5, deals_per_round=2)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    first = svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert "1 of 2 deals recorded" in page and 'id="deal-form"' in page
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    with pytest.raises(EfudaError) as err:
        svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    assert err.value.code == "deals_done" and "every deal of this round (2)" in str(err.value)
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert "All 2 deals of this round are recorded" in page and 'id="deal-form"' not in page
    svc.table_deal_drop(deal=first)
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    with pytest.raises(EfudaError) as err:  # restoring would make three
        svc.table_deal_restore(deal=first)
    assert err.value.code == "deals_done"
    detail = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "2 deals per round" in detail


def test_the_table_shows_each_deal_itself(client, users, evening):
    t, rnd, mine, other, deal = evening
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_table", args=[t.pk, mine.pk])).content.decode()
    names = sel.names_of(t)
    card = re.search(r'<li id="deal-1".*?</li>\s*</ol>', page, re.S).group(0)
    assert names[mine.seats[0]] in card and "13" in card and "♠" in card
    assert "honours 14" in card and "+2" in card and names[mine.seats[1]] in card
