"""Steps of the evening that ask before acting and refusals that say the way on: finishing a
round with deals still waiting, the finished tournament and its reveal, cards opened too early
or too late, drawing again, new PINs, PIN lock-outs; disputes that say what is wrong."""

import html
import io
import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from core.errors import EfudaError
from tests.events.conftest import napoleon_win
from tournaments.models import ConfirmationState, DealConfirmation, Tournament, TournamentRound
from tournaments.reports import events as event_reports
from tournaments.selectors import events as sel
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def login_pin(client, t, entry):
    pin = svc.pin_issue(entry=entry)
    client.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin})
    return pin


@pytest.fixture
def waiting(make_tournament):
    """Round 1 of 2 running at one table of 5; a player's deal waits for confirmation."""
    t = make_tournament(5, rounds_planned=2, require_confirmation=True, is_public=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    first = t.entries.get(player_id=table.seats[0])
    deal = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=first)
    return t, rnd, table, deal


def test_finishing_a_round_lists_the_waiting_deals_and_asks(client, users, waiting):
    """The evening's fault: a round finished with a deal waiting, silently uncounted."""
    t, rnd, table, deal = waiting
    client.force_login(users["scorekeeper"])
    url = reverse("tournament_round_finish", args=[t.pk, 1])
    page = client.get(url).content.decode()
    assert "1 deal is still waiting for confirmation" in page
    assert f'name="deal-{deal.pk}"' in page and "honours 14" in page  # the deal itself
    refused = client.post(url)
    assert refused.status_code == 400
    rnd.refresh_from_db()
    assert rnd.finished_at is None
    with pytest.raises(EfudaError) as err:
        svc.round_finish(rnd=rnd)
    assert err.value.code == "round_waiting"
    done = client.post(url, {f"deal-{deal.pk}": "confirm"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.finished_at is not None
    assert DealConfirmation.objects.get(deal=deal).state == ConfirmationState.CONFIRMED
    standings = sel.tournament_standings(tournament=t)
    assert standings.uncounted == 0 and max(r.total for r in standings.rows) == 2


def test_a_waiting_deal_left_disputed_or_dropped_at_the_finish(users, waiting):
    t, rnd, table, deal = waiting
    svc.round_finish(rnd=rnd, decisions={deal.pk: "dispute"}, notes={deal.pk: "slip says 14"})
    c = DealConfirmation.objects.get(deal=deal)
    assert c.state == ConfirmationState.DISPUTED and c.note == "slip says 14"
    assert [item.row.note for item in sel.open_deals(t, states=["disputed"])] == ["slip says 14"]


def test_the_last_round_finishes_the_tournament_and_offers_the_reveal(client, users, waiting):
    t, rnd, table, deal = waiting
    svc.round_finish(rnd=rnd, decisions={deal.pk: "drop"})
    deal.refresh_from_db()
    assert deal.is_deleted
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    rnd2 = svc.round_start(rnd=svc.round_draw(tournament=t))
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_round_finish", args=[t.pk, 2])).content.decode()
    assert "This is the last round: finishing it finishes the tournament" in page
    client.post(reverse("tournament_round_finish", args=[t.pk, 2]))
    t.refresh_from_db()
    rnd2.refresh_from_db()
    assert rnd2.finished_at is not None and t.finished_at is not None
    manage = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert "The tournament is finished" in manage
    assert reverse("tournament_reveal", args=[t.pk]) in manage
    assert "Draw the next round" not in manage
    with pytest.raises(EfudaError) as err:
        svc.round_draw(tournament=t)
    assert err.value.code == "tournament_finished"
    client.logout()
    public = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "The tournament is finished" in public and "once the staff reveal" in public
    hidden = client.get(reverse("tournament_results_pdf", args=[t.pk]))
    assert hidden.status_code == 404 and "The results are not shown yet" in hidden.content.decode()
    client.force_login(users["scorekeeper"])
    back = client.post(reverse("tournament_reveal", args=[t.pk]), {"next": "manage"})
    assert back["Location"].endswith(reverse("tournament_manage", args=[t.pk]) + "#finished")
    client.logout()
    public = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert 'class="standings ev-standings"' in public


def test_a_card_opened_before_its_round_starts_says_when(client, make_tournament):
    """The evening's fault: a bare English 「403 Forbidden」."""
    t = make_tournament(10, rounds_planned=3, is_public=True, minutes_per_round=40)
    svc.round_start(rnd=svc.round_draw(tournament=t))
    rnd2 = svc.round_draw(tournament=t)  # drawn while round 1 runs
    table = rnd2.tables.first()
    response = client.get(reverse("tournament_table", args=[t.pk, table.pk]))
    assert response.status_code == 409
    page = response.content.decode()
    ends = timezone.localtime(TournamentRound.objects.get(tournament=t, number=1).timer_ends_at)
    assert "Round 2 has not started yet" in page
    assert f"This card is for round 2, table {table.number}." in page
    assert f"its clock runs out at {ends:%H:%M}, and round 2 starts after it" in page
    assert "Forbidden" not in page


def test_an_old_card_says_which_round_it_is_for_and_the_way_on(client, make_tournament):
    t = make_tournament(10, rounds_planned=3, is_public=True)
    rnd1 = svc.round_start(rnd=svc.round_draw(tournament=t))
    svc.round_finish(rnd=rnd1)
    rnd2 = svc.round_start(rnd=svc.round_draw(tournament=t))
    old = rnd1.tables.first()
    response = client.get(reverse("tournament_table", args=[t.pk, old.pk]))
    assert response.status_code == 410
    page = response.content.decode()
    assert "This card is for round 1, which is finished" in page
    assert "Round 2 is being played now: your seat is on its card." in page
    assert reverse("tournament_pin", args=[t.pk]) in page
    # A player of round 2 who did not sit at that old table gets a link to their table.
    new_table = rnd2.tables.first()
    stranger = next(p for p in new_table.seats if p not in old.seats)
    login_pin(client, t, t.entries.get(player_id=stranger))
    page = client.get(reverse("tournament_table", args=[t.pk, old.pk])).content.decode()
    assert reverse("tournament_table", args=[t.pk, new_table.pk]) in page


def test_a_current_table_opened_without_a_pin_asks_for_the_pin(client, make_tournament):
    """A visitor (or a staff member whose rights ended) scanning a running table's card."""
    t = make_tournament(5, rounds_planned=2, is_public=True)
    table = svc.round_start(rnd=svc.round_draw(tournament=t)).tables.get()
    response = client.post(reverse("tournament_table_record", args=[t.pk, table.pk]), {})
    assert response.status_code == 403
    page = response.content.decode()
    assert "This table is for its players and the staff" in page
    assert f"This card is for round 1, table {table.number}." in page
    assert reverse("tournament_pin", args=[t.pk]) in page


def test_refusals_on_staff_pages_are_pages_in_the_visitors_language(client, users, waiting):
    t, rnd, table, deal = waiting
    client.force_login(users["member"])
    response = client.get(reverse("tournament_manage", args=[t.pk]))
    assert response.status_code == 403
    page = html.unescape(response.content.decode())
    assert "Only the tournament's staff can do this" in page
    assert reverse("tournament_detail", args=[t.pk]) in page
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert "大会のスタッフだけ" in page


def test_drawing_again_asks_first(client, users, make_tournament):
    t = make_tournament(10)
    rnd = svc.round_draw(tournament=t)
    before = {tb.number: tb.seats for tb in rnd.tables.all()}
    client.force_login(users["scorekeeper"])
    asked = client.post(reverse("tournament_draw", args=[t.pk]), {"method": ""})
    assert asked.status_code == 200
    assert "Every table of round 1 is drawn anew" in asked.content.decode()
    rnd.refresh_from_db()
    assert rnd.seed == t.seed * 100 + 1
    assert {tb.number: tb.seats for tb in rnd.tables.all()} == before
    done = client.post(reverse("tournament_draw", args=[t.pk]), {"method": "", "confirm": "on"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.seed == t.seed * 100 + 2


def test_a_new_pin_for_a_seated_player_asks_and_names_them(client, users, make_tournament):
    """The evening's fault: re-issuing logged a seated player's phone out in one tap."""
    t = make_tournament(5)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    player = t.entries.get(player_id=rnd.tables.get().seats[0])
    pin = svc.pin_issue(entry=player)
    client.force_login(users["scorekeeper"])
    url = reverse("tournament_entry_pin", args=[t.pk, player.pk])
    asked = client.post(url)
    page = asked.content.decode()
    assert asked.status_code == 200 and "is seated in round 1 now" in page
    assert svc.pin_check(tournament=t, pin=pin, address="x") == player  # still works
    client.post(url, {"confirm": "on"})
    with pytest.raises(EfudaError):
        svc.pin_check(tournament=t, pin=pin, address="y")


def test_seating_cards_with_pins_say_whose_phone_is_logged_out(client, users, make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    seated = t.entries.get(player_id=rnd.tables.first().seats[0])
    kept = svc.pin_issue(entry=seated)
    client.force_login(users["scorekeeper"])
    manage = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert f'action="{reverse("tournament_seating_pdf", args=[t.pk, 1])}"' not in manage
    page = client.get(reverse("tournament_seating_pins", args=[t.pk, 1])).content.decode()
    assert "9 players get a PIN on their card" in page
    assert "phones are logged out in the middle of it" in page and seated.player.name in page
    pdf = client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": "missing"})
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert len(re.findall(r"PIN (\d{6})", text)) == 9
    assert svc.pin_check(tournament=t, pin=kept, address="x") == seated  # not logged out


def test_a_dispute_says_what_is_wrong_and_staff_see_it(client, users, waiting):
    """The evening's fault: the note was never shown; dispute was one tap."""
    t, rnd, table, deal = waiting
    second = t.entries.get(player_id=table.seats[1])
    login_pin(client, t, second)
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert '<details class="ev-dispute">' in page and 'name="note"' in page
    url = reverse("tournament_deal_dispute", args=[t.pk, deal.pk])
    client.post(url, {"note": ""})
    assert DealConfirmation.objects.get(deal=deal).state == ConfirmationState.PENDING
    client.post(url, {"note": "the adjutant was 3"})
    assert DealConfirmation.objects.get(deal=deal).state == ConfirmationState.DISPUTED
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert "the adjutant was 3" in page and second.player.name in page
    client.force_login(users["scorekeeper"])
    manage = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert "the adjutant was 3" in manage and "honours 14" in manage
    assert reverse("tournament_deal_correct", args=[t.pk, table.pk, deal.pk]) in manage


def test_staff_clear_a_pin_only_lock_out(client, users, make_tournament, settings):
    t = make_tournament(5)
    svc.round_start(rnd=svc.round_draw(tournament=t))
    player = t.entries.first()
    pin = svc.pin_issue(entry=player)
    for _ in range(svc.PIN_FAILURES_ALLOWED):
        with pytest.raises(EfudaError):
            svc.pin_check(tournament=t, pin="000000" if pin != "000000" else "111111", address="a")
    with pytest.raises(EfudaError) as err:  # locked out, even with the right PIN
        svc.pin_check(tournament=t, pin=pin, address="a")
    assert err.value.code == "pin_throttled"
    client.force_login(users["scorekeeper"])
    manage = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert "1 phone cannot try a PIN now" in manage
    client.post(reverse("tournament_pin_lockouts_clear", args=[t.pk]))
    assert svc.pin_check(tournament=t, pin=pin, address="a") == player


def test_the_results_pdf_keeps_the_dropped_mark(client, users, make_tournament):
    t = make_tournament(6)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    svc.entry_leave(entry=t.entries.get(player_id=table.seats[0]))
    client.force_login(users["scorekeeper"])
    pdf = client.get(reverse("tournament_results_pdf", args=[t.pk]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "(dropped)" in text


def test_preferred_table_size_has_help(client, users, club):
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_new", args=[club.slug])).content.decode()
    assert "Players per table the draw aims for" in page
    assert Tournament.objects.count() == 0


def test_seating_cards_are_printed_in_the_organisers_language(client, users, make_tournament):
    t = make_tournament(5)
    rnd = svc.round_draw(tournament=t)
    client.force_login(users["scorekeeper"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    pdf = client.get(reverse("tournament_seating_pdf", args=[t.pk, rnd.number]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Scan the code to record your table's deals." in text
    with translation.override("en"):
        page = render_to_string(
            event_reports.SEATING_TEMPLATE, event_reports.seating_cards_context(rnd=rnd)
        )
    assert '<html lang="en">' in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    pdf = client.get(reverse("tournament_seating_pdf", args=[t.pk, rnd.number]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Scan the code" not in text
