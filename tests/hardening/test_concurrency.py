"""Concurrent scorekeepers: real threads, each with its own database connection.

Runs on SQLite (BEGIN IMMEDIATE + 20 s busy timeout) and on PostgreSQL (row lock on the session).
"""

import uuid
from collections import Counter

import pytest
from django.db import close_old_connections
from django.db.models import Sum

from core.errors import EfudaError
from tests import factories
from tests.hardening.helpers import aggregates_match_lines, build_club, napoleon_data, run_threads
from tournaments.i18n import error_text
from tournaments.models import Deal, ScoreLine, StandingAggregate
from tournaments.services.deals import deal_record, deal_update

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _fresh_session():
    club, players, nap, _dai = build_club(deals=0)
    return club, [p.id for p in players], nap


def test_two_phones_recording_at_once_both_land_in_order():
    club, ids, session = _fresh_session()
    a, b = factories.UserFactory(username="phone-a"), factories.UserFactory(username="phone-b")
    users = [a, b]

    def record(i):
        deal = deal_record(
            session=session, data=napoleon_data(ids, n=i), user=users[i], client_id=uuid.uuid4()
        )
        return deal.seq

    results, errors = run_threads(2, record)
    assert not errors, errors
    assert sorted(results.values()) == [1, 2]
    deals = list(Deal.objects.filter(session=session).order_by("seq"))
    assert [d.seq for d in deals] == [1, 2]
    # Stable order: seq follows commit order, and each phone got the deal it sent.
    assert {d.created_by.username: d.seq for d in deals} == {
        "phone-a": results[0],
        "phone-b": results[1],
    }
    assert aggregates_match_lines(club)
    first = str(ids[0])
    total = sum(d.outcome["points"].get(first, 0) for d in deals)
    assert StandingAggregate.objects.get(player_id=ids[0], period="all").points == total


def test_many_scorekeepers_every_deal_once_without_gaps():
    club, ids, session = _fresh_session()
    threads, per_thread = 8, 10

    def record(i):
        seqs = []
        for j in range(per_thread):
            key = uuid.uuid4()
            deal = deal_record(
                session=session, data=napoleon_data(ids, n=i * per_thread + j), client_id=key
            )
            # A resent form (double tap) must return the same deal, not record it twice.
            if j % 3 == 0:
                assert (
                    deal_record(session=session, data=napoleon_data(ids, n=0), client_id=key).pk
                    == deal.pk
                )
            seqs.append(deal.seq)
        close_old_connections()
        return seqs

    results, errors = run_threads(threads, record)
    assert not errors, errors
    total = threads * per_thread
    seqs = sorted(s for r in results.values() for s in r)
    assert seqs == list(range(1, total + 1))
    assert Deal.objects.filter(session=session).count() == total
    keys = Counter(Deal.objects.filter(session=session).values_list("client_id", flat=True))
    assert len(keys) == total and set(keys.values()) == {1}
    assert aggregates_match_lines(club)
    for period in ("2026-10", "2026", "all"):
        sums = dict(
            ScoreLine.objects.filter(club=club)
            .values_list("player_id")
            .annotate(s=Sum("points"))
            .values_list("player_id", "s")
        )
        rows = dict(
            StandingAggregate.objects.filter(club=club, period=period).values_list(
                "player_id", "points"
            )
        )
        assert rows == sums, period


def test_concurrent_edits_of_one_deal_one_wins_the_other_is_told():
    club, ids, session = _fresh_session()
    deal = deal_record(session=session, data=napoleon_data(ids, n=0))
    editors = [factories.UserFactory(username=f"editor-{i}") for i in range(2)]
    started_from = deal.version

    def edit(i):
        updated = deal_update(
            deal=deal, data=napoleon_data(ids, n=5 + i), user=editors[i], version=started_from
        )
        return updated.version

    results, errors = run_threads(2, edit)
    assert len(results) == 1 and len(errors) == 1, (results, errors)
    ((loser, err),) = errors.items()
    winner = 1 - loser
    assert isinstance(err, EfudaError) and err.field == "version"
    assert err.params["user"] == f"editor-{winner}"
    deal.refresh_from_db()
    assert deal.version == started_from + 1 and deal.updated_by.username == f"editor-{winner}"
    assert deal.data["napoleon"] == napoleon_data(ids, n=5 + winner)["napoleon"]
    assert aggregates_match_lines(club)


def test_stale_edit_is_refused_and_shows_the_other_change():
    club, ids, session = _fresh_session()
    alice = factories.UserFactory(username="alice")
    bob = factories.UserFactory(username="bob")
    deal = deal_record(session=session, data=napoleon_data(ids, n=0), user=alice)
    old_version = deal.version
    deal_update(deal=deal, data=napoleon_data(ids, n=6), user=alice, version=old_version)
    before = (
        Deal.objects.get(pk=deal.pk).data,
        list(ScoreLine.objects.values_list("player_id", "points").order_by("player_id")),
    )
    with pytest.raises(EfudaError) as info:
        deal_update(deal=deal, data=napoleon_data(ids, n=9), user=bob, version=old_version)
    err = info.value
    assert err.field == "version" and err.code == "deal_stale"
    names = {str(p.id): p.name for p in club.players.all()}
    text = error_text(err, names)
    assert "alice" in text
    # The message shows what the other person saved (the Napoleon of the new version).
    new_napoleon = names[str(napoleon_data(ids, n=6)["napoleon"])]
    assert new_napoleon in text
    after = (
        Deal.objects.get(pk=deal.pk).data,
        list(ScoreLine.objects.values_list("player_id", "points").order_by("player_id")),
    )
    assert after == before  # never a silent overwrite
