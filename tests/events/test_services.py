"""Tournament services: entries, draw, start, swaps, PINs, confirmation, penalties, timer."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone

from core.errors import EfudaError
from tests import factories
from tests.events.conftest import napoleon_win
from tournaments.models import ConfirmationState, Deal, GameSession, PinAttempt
from tournaments.selectors import events as sel
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def seated(rnd):
    return [p for t in rnd.tables.all() for p in t.seats]


def test_draw_seats_checked_in_players_in_allowed_tables(make_tournament):
    t = make_tournament(23)
    rnd = svc.round_draw(tournament=t)
    sizes = sorted(len(tb.seats) for tb in rnd.tables.all())
    assert sizes == [4, 4, 5, 5, 5]
    assert sorted(seated(rnd)) == sorted(t.entries.values_list("player_id", flat=True))


def test_not_checked_in_and_late_arrival(make_tournament):
    t = make_tournament(9)
    late = svc.entry_add(tournament=t, name="遅刻さん")
    rnd = svc.round_draw(tournament=t)
    assert late.player_id not in seated(rnd) and late.player_id not in rnd.sitouts
    svc.entry_check_in(entry=late)
    rnd = svc.round_draw(tournament=t)  # drawn again before the start
    assert late.player_id in seated(rnd) and len(seated(rnd)) == 10


def test_redraw_changes_seed_and_refused_after_start(make_tournament):
    t = make_tournament(10)
    first = svc.round_draw(tournament=t)
    seed = first.seed
    again = svc.round_draw(tournament=t)
    assert again.pk == first.pk and again.seed == seed + 1
    svc.round_start(rnd=again)
    with pytest.raises(EfudaError) as err:
        svc.round_swap(rnd=again, a=seated(again)[0], b=seated(again)[1])
    assert err.value.code == "swap_started"
    # Drawing now makes round 2, it does not touch round 1.
    nxt = svc.round_draw(tournament=t)
    assert nxt.number == 2 and again.tables.count() == 2


def test_start_creates_one_session_per_table(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    tables = list(rnd.tables.all())
    assert all(tb.session_id for tb in tables)
    labels = set(GameSession.objects.filter(club=t.club).values_list("table", flat=True))
    assert labels == {f"E{t.pk}-R1-T1", f"E{t.pk}-R1-T2"}


def test_manual_swap_including_sitout(club, wiki, make_tournament):
    t = make_tournament(7)  # one table of 6, one sit-out
    rnd = svc.round_draw(tournament=t)
    out = rnd.sitouts[0]
    player = rnd.tables.get().seats[2]
    svc.round_swap(rnd=rnd, a=player, b=out)
    rnd.refresh_from_db()
    assert rnd.sitouts == [player] and rnd.tables.get().seats[2] == out
    with pytest.raises(EfudaError):
        svc.round_swap(rnd=rnd, a=out, b=999999)


def test_leaving_takes_the_player_out_of_the_drawn_round_only(make_tournament):
    t = make_tournament(11)
    rnd = svc.round_draw(tournament=t)
    before = {tb.number: list(tb.seats) for tb in rnd.tables.all()}
    entry = t.entries.get(player_id=seated(rnd)[0])
    svc.entry_leave(entry=entry)
    rnd.refresh_from_db()
    entry.refresh_from_db()
    assert entry.player_id not in seated(rnd) and len(seated(rnd)) == 10
    assert entry.dropped_at_round == 1
    after = {tb.number: list(tb.seats) for tb in rnd.tables.all()}
    changed = [n for n in before if before[n] != after[n]]
    assert len(changed) == 1  # no other table moved
    assert after[changed[0]] == [p for p in before[changed[0]] if p != entry.player_id]


def test_sitouts_rotate(club, make_tournament):
    joker = factories.ClubRuleSetFactory(club=club, code="napoleon-joker", preset="napoleon-joker")
    t = make_tournament(12, ruleset=joker, rounds_planned=6)  # 2 tables of 5, 2 sit out
    out = []
    for _ in range(6):
        rnd = svc.round_draw(tournament=t)
        out += rnd.sitouts
        svc.round_start(rnd=rnd)
        svc.round_finish(rnd=rnd)
    counts = [out.count(p) for p in t.entries.values_list("player_id", flat=True)]
    assert sum(counts) == 12 and max(counts) == 1


def test_rounds_limit(make_tournament):
    t = make_tournament(5, rounds_planned=1)
    svc.round_start(rnd=svc.round_draw(tournament=t))
    with pytest.raises(EfudaError) as err:
        svc.round_draw(tournament=t)
    assert err.value.code == "rounds_done"


def test_pin_issue_reissue_revoke_and_throttle(make_tournament):
    t = make_tournament(5)
    entry = t.entries.first()
    pin = svc.pin_issue(entry=entry)
    assert len(pin) == 6 and pin not in entry.pin_hash  # only a keyed hash is stored
    assert svc.pin_check(tournament=t, pin=pin, address="1.1.1.1") == entry
    new = svc.pin_issue(entry=entry)
    if new != pin:
        with pytest.raises(EfudaError):
            svc.pin_check(tournament=t, pin=pin, address="1.1.1.1")
    assert svc.pin_check(tournament=t, pin=new, address="1.1.1.1") == entry
    other = make_tournament(5)  # a PIN works for its own tournament only
    with pytest.raises(EfudaError):
        svc.pin_check(tournament=other, pin=new, address="1.1.1.2")
    svc.pin_revoke(entry=entry)
    with pytest.raises(EfudaError) as err:
        svc.pin_check(tournament=t, pin=new, address="1.1.1.1")
    assert err.value.code == "pin_wrong"
    for _ in range(svc.PIN_FAILURES_ALLOWED):
        with pytest.raises(EfudaError):
            svc.pin_check(tournament=t, pin="000000", address="9.9.9.9")
    pin = svc.pin_issue(entry=entry)
    with pytest.raises(EfudaError) as err:
        svc.pin_check(tournament=t, pin=pin, address="9.9.9.9")
    assert err.value.code == "pin_throttled"
    assert svc.pin_check(tournament=t, pin=pin, address="8.8.8.8") == entry
    PinAttempt.objects.update(created_at=timezone.now() - datetime.timedelta(hours=1))
    assert svc.pin_check(tournament=t, pin=pin, address="9.9.9.9") == entry


def _started(make_tournament, **kwargs):
    t = make_tournament(10, **kwargs)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.order_by("number").first()
    entries = {e.player_id: e for e in t.entries.all()}
    return t, rnd, table, entries


def test_table_deal_needs_seated_entry_and_the_table_players(make_tournament):
    t, rnd, table, entries = _started(make_tournament)
    outsider = next(e for p, e in entries.items() if p not in table.seats)
    with pytest.raises(EfudaError) as err:
        svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=outsider)
    assert err.value.code == "not_at_table"
    wrong = napoleon_win([*table.seats[:4], outsider.player_id])
    with pytest.raises(EfudaError) as err:
        svc.table_deal_record(table=table, data=wrong, entry=entries[table.seats[0]])
    assert err.value.field == "seats"
    key = uuid.uuid4()
    deal = svc.table_deal_record(
        table=table,
        data=napoleon_win(table.seats),
        entry=entries[table.seats[0]],
        client_id=key,
    )
    assert deal.session_id == table.session_id
    again = svc.table_deal_record(
        table=table,
        data=napoleon_win(table.seats),
        entry=entries[table.seats[0]],
        client_id=key,
    )
    assert again.pk == deal.pk and again.already_recorded and Deal.objects.count() == 1
    svc.round_finish(rnd=rnd)
    # A reply lost before the round was finished: the resend still finds the deal.
    late = svc.table_deal_record(
        table=table, data=napoleon_win(table.seats), entry=entries[table.seats[0]], client_id=key
    )
    assert late.pk == deal.pk and Deal.objects.count() == 1
    with pytest.raises(EfudaError) as err:
        svc.table_deal_record(
            table=table, data=napoleon_win(table.seats), entry=entries[table.seats[0]]
        )
    assert err.value.code == "round_finished_late"  # the staff may count it late


def _points(t):
    return {r.player_id: r.total for r in sel.tournament_standings(tournament=t).rows}


def test_confirmation_flow(make_tournament):
    t, rnd, table, entries = _started(make_tournament, require_confirmation=True)
    napoleon, adjutant, ally = (entries[p] for p in table.seats[:3])
    deal = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=napoleon)
    assert deal.confirmation.state == ConfirmationState.PENDING
    assert _points(t)[napoleon.player_id] == 0  # not counted yet
    assert sel.tournament_standings(tournament=t).uncounted == 1
    with pytest.raises(EfudaError) as err:
        svc.deal_confirm(deal=deal, entry=napoleon)
    assert err.value.code == "confirm_own"
    svc.deal_confirm(deal=deal, entry=ally)
    assert _points(t)[napoleon.player_id] == 2
    # A second deal disputed: flagged to staff, not counted until staff confirm.
    second = svc.table_deal_record(table=table, data=napoleon_win(table.seats), entry=adjutant)
    svc.deal_dispute(deal=second, entry=ally, note="bid was 12")
    disputed = sel.open_deals(t, states=[ConfirmationState.DISPUTED])
    assert [(o.row.deal.pk, o.row.note) for o in disputed] == [(second.pk, "bid was 12")]
    assert _points(t)[napoleon.player_id] == 2
    with pytest.raises(EfudaError):
        svc.deal_confirm(deal=second, entry=napoleon)  # players cannot overrule a dispute
    svc.deal_confirm(deal=second, staff=True)
    assert _points(t)[napoleon.player_id] == 4
    assert not sel.open_deals(t, states=[ConfirmationState.DISPUTED])


def test_without_confirmation_deals_count_at_once(make_tournament):
    t, rnd, table, entries = _started(make_tournament)
    svc.table_deal_record(
        table=table, data=napoleon_win(table.seats), entry=entries[table.seats[3]]
    )
    pts = _points(t)
    assert [pts[p] for p in table.seats] == [2, 1, -1, -1, -1]


def test_penalties_in_standings_and_history(make_tournament, users):
    t, rnd, table, entries = _started(make_tournament)
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    victim = entries[table.seats[0]]
    adj = svc.adjustment_add(
        entry=victim, points="-1.5", reason="slow play", round_number=1, user=users["owner"]
    )
    standings = sel.tournament_standings(tournament=t)
    row = next(r for r in standings.rows if r.player_id == victim.player_id)
    assert row.points == 2 and row.adjustments == Decimal("-1.5") and row.total == Decimal("0.5")
    assert standings.adjustments == [adj]
    assert adj.history.first().reason == "slow play"
    with pytest.raises(EfudaError) as err:
        svc.adjustment_add(entry=victim, points="abc", reason="x")
    assert err.value.field == "points"
    with pytest.raises(EfudaError) as err:
        svc.adjustment_add(entry=victim, points="1", reason="  ")
    assert err.value.field == "reason"
    svc.adjustment_delete(adjustment=adj)
    assert _points(t)[victim.player_id] == 2


def test_rank_points_mode_and_tiebreaks(make_tournament):
    t, rnd, table, entries = _started(make_tournament, standings_mode="rank")
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    standings = sel.tournament_standings(tournament=t)
    by = {r.player_id: r for r in standings.rows}
    first, second = table.seats[0], table.seats[1]
    assert by[first].rank_points == Decimal(10) and by[second].rank_points == Decimal("7.5")
    assert by[table.seats[2]].rank_points == Decimal("2.5")  # three tied last: share 0,0..
    assert standings.rows[0].player_id == first and standings.rows[0].rank == 1
    # The other table has no deal: everyone tied at 5 rank points, sharing a rank.
    other = [by[p] for p in rnd.tables.order_by("number")[1].seats]
    assert {r.rank_points for r in other} == {Decimal(5)} and len({r.rank for r in other}) == 1


def test_rank_points_function():
    assert sel.rank_points({1: 3, 2: 1, 3: 1, 4: -5}) == {
        1: Decimal("10.00"),
        2: Decimal("5.00"),
        3: Decimal("5.00"),
        4: Decimal("0.00"),
    }


def test_timer_start_stop_resume(make_tournament):
    t, rnd, table, entries = _started(make_tournament, minutes_per_round=45)
    assert 44 * 60 < sel.seconds_left(rnd) <= 45 * 60
    rnd = svc.timer_stop(rnd=rnd)
    left = rnd.timer_left
    assert rnd.timer_ends_at is None and 44 * 60 < left <= 45 * 60
    rnd = svc.timer_start(rnd=rnd)
    assert abs(sel.seconds_left(rnd) - left) <= 1
    rnd = svc.timer_start(rnd=rnd, minutes=10)
    assert 9 * 60 < sel.seconds_left(rnd) <= 600
    with pytest.raises(EfudaError):
        svc.timer_start(rnd=rnd, minutes="x")


def test_swiss_needs_finished_round_and_uses_standings(make_tournament):
    t, rnd, table, entries = _started(make_tournament, draw_method="swiss")
    with pytest.raises(EfudaError) as err:
        svc.round_draw(tournament=t)
    assert err.value.code == "round_unfinished"
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    svc.round_finish(rnd=rnd)
    r2 = svc.round_draw(tournament=t)
    assert r2.method == "swiss" and r2.tables.count() == 2


def test_create_validates(club, wiki):
    with pytest.raises(EfudaError) as err:
        svc.tournament_create(club=club, name=" ", date=datetime.date(2026, 1, 1), ruleset=wiki)
    assert err.value.field == "name"
    with pytest.raises(EfudaError) as err:
        svc.tournament_create(
            club=club, name="x", date=datetime.date(2026, 1, 1), ruleset=wiki, table_size=7
        )
    assert err.value.field == "table_size"
    other = factories.ClubRuleSetFactory(club=factories.ClubFactory())
    with pytest.raises(EfudaError) as err:
        svc.tournament_create(club=club, name="x", date=datetime.date(2026, 1, 1), ruleset=other)
    assert err.value.field == "ruleset"
