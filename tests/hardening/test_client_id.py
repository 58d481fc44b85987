"""The deal id from the phone (``Deal.client_id``): a repeat returns the deal already recorded,
on every path that records a deal, also when two requests with the same id arrive at once;
an id is bound to its session.

The races use real threads, each with its own connection (see test_concurrency.py): PostgreSQL
as it is, SQLite through an on-disk file with the production OPTIONS.
"""

import datetime
import uuid

import pytest

from core.errors import EfudaError
from tests import factories
from tests.hardening.helpers import aggregates_match_lines, build_club, napoleon_data, run_threads
from tournaments.i18n import error_text
from tournaments.models import Deal, DealConfirmation, ScoreLine
from tournaments.services import events as svc
from tournaments.services.deals import deal_record


def _table(club):
    wiki = factories.ClubRuleSetFactory(club=club, code="wiki-t", preset="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=wiki, entrants=10)
    rnd = factories.started_round(tournament)
    table = rnd.tables.order_by("number").first()
    entries = {e.player_id: e for e in tournament.entries.all()}
    return rnd, table, entries[table.seats[0]]


@pytest.mark.django_db
def test_repeat_returns_the_recorded_deal_whatever_it_carries():
    club, players, nap, _dai = build_club(deals=0)
    ids = [p.id for p in players]
    phone_id = uuid.uuid4()
    first = deal_record(session=nap, data=napoleon_data(ids, n=1), client_id=phone_id)
    assert first.client_id == phone_id and not first.already_recorded
    # The outbox sends the text form; a different body under the same id is the same deal.
    again = deal_record(session=nap, data=napoleon_data(ids, n=2), client_id=str(phone_id))
    assert again.pk == first.pk and again.already_recorded
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5
    assert aggregates_match_lines(club)


@pytest.mark.django_db
def test_an_id_is_bound_to_its_session(english):
    club, players, nap, _dai = build_club(deals=0)
    other = factories.session(club=club, ruleset=nap.ruleset, date=nap.date, table="B")
    ids = [p.id for p in players]
    phone_id = uuid.uuid4()
    deal_record(session=nap, data=napoleon_data(ids, n=1), client_id=phone_id)
    with pytest.raises(EfudaError) as info:
        deal_record(session=other, data=napoleon_data(ids, n=1), client_id=phone_id)
    err = info.value
    assert err.field == "client_id" and err.code == "client_id_other_session"
    text = error_text(err)
    assert "already recorded in another session" in text
    assert not Deal.objects.filter(session=other).exists()


@pytest.mark.django_db
def test_a_refusal_says_nothing_of_another_clubs_session(english):
    """A known id posted to another club's session: refused, naming neither the date, the
    table nor the deal number of the session that holds it."""
    club, players, nap, _dai = build_club(deals=0)
    secret = factories.session(
        club=club, ruleset=nap.ruleset, date=datetime.date(2026, 3, 14), table="秘密卓"
    )
    phone_id = uuid.uuid4()
    for n in range(3):
        deal_record(session=secret, data=napoleon_data([p.id for p in players], n=n),
                    client_id=phone_id if n == 2 else None)  # fmt: skip
    outsider, their_players, theirs, _ = build_club(deals=0)
    with pytest.raises(EfudaError) as info:
        deal_record(session=theirs, data=napoleon_data([p.id for p in their_players]),
                    client_id=phone_id)  # fmt: skip
    text = error_text(info.value)
    assert info.value.params == {}
    for detail in ("2026-03-14", "秘密卓", "3"):
        assert detail not in text


@pytest.mark.django_db
def test_a_damaged_id_is_refused():
    _club, players, nap, _dai = build_club(deals=0)
    with pytest.raises(EfudaError) as info:
        deal_record(session=nap, data=napoleon_data([p.id for p in players]), client_id="x-1")
    assert info.value.code == "client_id_invalid"
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_table_repeat_and_wrong_session():
    club, players, nap, _dai = build_club(deals=0)
    rnd, table, entry = _table(club)
    phone_id = uuid.uuid4()
    data = napoleon_data(table.seats, n=0)
    deal = svc.table_deal_record(table=table, data=data, entry=entry, client_id=phone_id)
    again = svc.table_deal_record(table=table, data=data, entry=entry, client_id=phone_id)
    assert again.pk == deal.pk and again.already_recorded
    assert DealConfirmation.objects.filter(deal=deal).count() == 1
    # The same id sent to a club session is refused; nothing is recorded there.
    with pytest.raises(EfudaError) as info:
        deal_record(session=nap, data=napoleon_data([p.id for p in players]), client_id=phone_id)
    assert info.value.code == "client_id_other_session"
    assert Deal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("threaded_db")
@pytest.mark.parametrize("threads", [2, 4])
def test_same_id_at_once_records_one_deal(threads):
    club, players, nap, _dai = build_club(deals=0)
    ids = [p.id for p in players]
    phone_id = uuid.uuid4()

    def send(i):
        deal = deal_record(session=nap, data=napoleon_data(ids, n=1), client_id=phone_id)
        return deal.pk, deal.already_recorded

    results, errors = run_threads(threads, send)
    assert not errors, errors
    assert len({pk for pk, _repeat in results.values()}) == 1
    assert sorted(repeat for _pk, repeat in results.values()) == [False] + [True] * (threads - 1)
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5
    assert aggregates_match_lines(club)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("threaded_db")
def test_same_id_at_once_at_a_tournament_table():
    club, _players, _nap, _dai = build_club(deals=0)
    _rnd, table, entry = _table(club)
    phone_id = uuid.uuid4()
    data = napoleon_data(table.seats, n=0)

    def send(i):
        return svc.table_deal_record(table=table, data=data, entry=entry, client_id=phone_id).pk

    results, errors = run_threads(3, send)
    assert not errors, errors
    assert len(set(results.values())) == 1
    assert Deal.objects.filter(session=table.session).count() == 1
    assert DealConfirmation.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("threaded_db")
def test_same_id_at_once_for_two_sessions_one_deal_one_refusal():
    club, players, nap, _dai = build_club(deals=0)
    other = factories.session(club=club, ruleset=nap.ruleset, date=nap.date, table="B")
    ids = [p.id for p in players]
    phone_id = uuid.uuid4()
    sessions = [nap, other]

    def send(i):
        return deal_record(session=sessions[i], data=napoleon_data(ids, n=1), client_id=phone_id)

    results, errors = run_threads(2, send)
    assert len(results) == 1 and len(errors) == 1, (results, errors)
    (err,) = errors.values()
    assert isinstance(err, EfudaError) and err.code == "client_id_other_session"
    assert Deal.objects.count() == 1
