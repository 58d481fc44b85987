"""Disputes: a player decides only a waiting deal of their own table while its round runs;
afterwards only staff change what counts, and every change keeps history."""

import pytest

from core.errors import EfudaError
from tests.events.conftest import napoleon_win
from tournaments.models import ConfirmationState, DealConfirmation
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_deals(make_tournament):
    t = make_tournament(10, require_confirmation=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table, other = rnd.tables.order_by("number")[:2]
    entries = {e.player_id: e for e in t.entries.all()}
    seated = [entries[p] for p in table.seats]
    by_player = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=seated[0])
    by_staff = svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    return t, rnd, table, other, entries, seated, by_player, by_staff


def test_player_disputes_a_waiting_deal_of_their_table(table_with_deals):
    t, rnd, table, other, entries, seated, by_player, by_staff = table_with_deals
    c = svc.deal_dispute(deal=by_player, entry=seated[1], note="wrong bid")
    assert c.state == ConfirmationState.DISPUTED
    with pytest.raises(EfudaError) as err:  # once disputed, only staff decide
        svc.deal_confirm(deal=by_player, entry=seated[2])
    assert err.value.code == "not_confirmable"


def test_player_cannot_dispute_a_confirmed_or_staff_deal(table_with_deals):
    t, rnd, table, other, entries, seated, by_player, by_staff = table_with_deals
    with pytest.raises(EfudaError) as err:
        svc.deal_dispute(deal=by_staff, entry=seated[1])
    assert err.value.code == "not_confirmable"
    svc.deal_confirm(deal=by_player, entry=seated[1])
    with pytest.raises(EfudaError):
        svc.deal_dispute(deal=by_player, entry=seated[2])
    assert DealConfirmation.objects.get(deal=by_player).state == ConfirmationState.CONFIRMED


def test_player_of_another_table_cannot_dispute(table_with_deals):
    t, rnd, table, other, entries, seated, by_player, by_staff = table_with_deals
    stranger = entries[other.seats[0]]
    with pytest.raises(EfudaError) as err:
        svc.deal_dispute(deal=by_player, entry=stranger)
    assert err.value.code == "not_at_table"


def test_after_the_round_only_staff_change_what_counts_with_history(table_with_deals, users):
    t, rnd, table, other, entries, seated, by_player, by_staff = table_with_deals
    svc.round_finish(rnd=rnd, decisions={by_player.pk: "dispute"}, notes={by_player.pk: "slip"})
    for action in (svc.deal_dispute, svc.deal_confirm):
        with pytest.raises(EfudaError) as err:
            action(deal=by_player, entry=seated[1])
        assert err.value.code == "round_finished"
    staff = users["scorekeeper"]
    svc.deal_dispute(deal=by_staff, user=staff, staff=True, note="checked the slip")
    svc.deal_confirm(deal=by_staff, user=staff, staff=True)
    c = DealConfirmation.objects.get(deal=by_staff)
    states = list(c.history.order_by("history_date").values_list("state", flat=True))
    assert states[-2:] == [ConfirmationState.DISPUTED, ConfirmationState.CONFIRMED]
    assert c.decided_by_user == staff
