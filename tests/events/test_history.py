"""Tournament actions leave history with the user who did them, as deals do."""

import pytest
from django.urls import reverse

from tournaments.models import TournamentEntry, TournamentRound
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def test_staff_actions_leave_history_with_their_user(client, users, make_tournament):
    t = make_tournament(10)
    staff = users["scorekeeper"]
    client.force_login(staff)
    entry = t.entries.order_by("id").first()
    client.post(reverse("tournament_entry_check_in", args=[t.pk, entry.pk]), {"checked_in": "0"})
    client.post(reverse("tournament_entry_pin", args=[t.pk, entry.pk]))
    client.post(reverse("tournament_draw", args=[t.pk]))
    client.post(reverse("tournament_round_start", args=[t.pk, 1]))
    client.post(reverse("tournament_round_timer", args=[t.pk, 1]), {"minutes": "20"})
    entry_history = TournamentEntry.history.filter(id=entry.pk).order_by("history_date")
    assert [h.history_user for h in entry_history][-2:] == [staff, staff]
    assert entry_history.last().pin_issued_at is not None
    assert not hasattr(entry_history.last(), "pin_hash")  # the PIN's hash is not copied
    rnd_history = TournamentRound.history.filter(tournament=t).order_by("history_date")
    assert rnd_history.count() >= 3 and {h.history_user for h in rnd_history} == {staff}
    assert rnd_history.last().timer_ends_at is not None


def test_pin_issue_all_is_one_transaction(make_tournament, monkeypatch):
    t = make_tournament(5)
    before = sorted(t.entries.values_list("pin_hash", flat=True))
    calls = []
    real = svc.pins._pin_new

    def failing(entry):
        calls.append(entry.pk)
        if len(calls) == 3:
            raise RuntimeError("printer on fire")
        return real(entry)

    monkeypatch.setattr(svc.pins, "_pin_new", failing)
    with pytest.raises(RuntimeError):
        svc.pin_issue_all(tournament=t)
    assert sorted(t.entries.values_list("pin_hash", flat=True)) == before
