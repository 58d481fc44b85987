"""Changes of plan in the evening's words: each says exactly what changes, with names, and
changes no other table unless the organiser draws again."""

import pytest
from django.urls import reverse

from core.errors import EfudaError
from tests import factories
from tests.events.conftest import napoleon_win
from tournaments.models import Deal, TournamentEntry
from tournaments.selectors import events as sel
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def seats_of(rnd):
    return {t.number: list(t.seats) for t in rnd.tables.order_by("number")}


def texts(change):
    return [str(line) for line in change.lines]


def entry(t, player_id):
    return TournamentEntry.objects.select_related("player").get(tournament=t, player_id=player_id)


def test_a_substitute_during_a_round_plays_the_seat_from_the_next_deal(make_tournament):
    """The evening's fault: once a round had started there was no change of seat at all."""
    t = make_tournament(10, standings_mode="rank")
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table, other = rnd.tables.order_by("number")
    before_other = list(other.seats)
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)  # Y +2
    y = entry(t, table.seats[0])
    change = svc.entry_replace(tournament=t, replaced=y, substitute="森")
    mori = TournamentEntry.objects.get(tournament=t, player__name="森")
    said = texts(change)
    assert "森 is entered in the tournament." in said
    assert (
        f"From deal no. 2 on, 森 plays {y.player.name}'s seat at table 1 (seat 1) of round 1. "
        f"{y.player.name} keeps the points of the deals before it; 森 scores from it."
    ) in said
    assert "No other table changes." in said
    table.refresh_from_db()
    other.refresh_from_db()
    assert table.seats[0] == mori.player_id and other.seats == before_other
    assert table.replacements == [
        {"seat": 1, "out": y.player_id, "in": mori.player_id, "from_seq": 2}
    ]
    # 森 records from the seat; the old deal keeps Y, a correction of it keeps Y too.
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)  # 森 +2
    first = Deal.objects.get(session=table.session, seq=1)
    assert first.data["seats"][0] == y.player_id
    assert sel.players_at(table, 1)[0] == y.player_id and sel.players_at(table, 2)[0] == (
        mori.player_id
    )
    with pytest.raises(EfudaError):  # the substitute cannot be written into deal 1
        svc.table_deal_correct(
            deal=first, data=napoleon_win(table.seats), version=first.version, staff=True
        )
    svc.table_deal_correct(
        deal=first, data=napoleon_win(sel.players_at(table, 1), bid=14), version=1, staff=True
    )
    rows = {r.player_id: r for r in sel.tournament_standings(tournament=t).rows}
    # Each keeps the points of the deals they played; both played the round at that table.
    assert rows[y.player_id].points == first.lines.get(player_id=y.player_id).points
    assert rows[mori.player_id].points == 2
    assert rows[y.player_id].rounds == rows[mori.player_id].rounds == 1
    # The seat's rank points (top of the table: 10) are shared by deals played, one each.
    assert rows[y.player_id].rank_points + rows[mori.player_id].rank_points == 10
    assert rows[y.player_id].rank_points == 5
    assert rows[y.player_id].table_wins + rows[mori.player_id].table_wins == 1


def test_a_sit_out_replaces_before_the_start_and_the_other_sits_out(make_tournament):
    t = make_tournament(7)  # one table of 6, one sit-out
    rnd = svc.round_draw(tournament=t)
    out = entry(t, rnd.sitouts[0])
    y = entry(t, rnd.tables.get().seats[3])
    change = svc.entry_replace(tournament=t, replaced=y, substitute=out.player.name)
    rnd.refresh_from_db()
    assert rnd.tables.get().seats[3] == out.player_id and rnd.sitouts == [y.player_id]
    assert f"{y.player.name} sits out round 1 in {out.player.name}'s place." in texts(change)


def test_a_late_arrival_sits_out_a_drawn_round_and_says_so(client, users, make_tournament):
    """The evening's fault: adding 森 after the draw changed nothing and said nothing."""
    t = make_tournament(10)
    rnd = svc.round_draw(tournament=t)
    before = seats_of(rnd)
    client.force_login(users["scorekeeper"])
    response = client.post(
        reverse("tournament_entry_add", args=[t.pk]), {"name": "森", "checked_in": "on"},
        follow=True,
    )  # fmt: skip
    page = response.content.decode()
    assert "森 is entered in the tournament." in page
    assert "Round 1 is already drawn: 森 sits it out" in page
    rnd.refresh_from_db()
    mori = t.entries.get(player__name="森")
    assert seats_of(rnd) == before and rnd.sitouts == [mori.player_id]
    # The swap lists offer the drawn players, 森 included; a swap names, never ids.
    assert f'<option value="{mori.player_id}">森</option>' in page
    svc.round_swap(rnd=rnd, a=mori.player_id, b=rnd.tables.first().seats[0])
    while_playing = svc.round_start(rnd=rnd)
    late = svc.entry_add(tournament=t, name="青木", checked_in=True)
    assert "Round 1 is being played: 青木 is drawn from round 2 on." in texts(late.change)
    assert svc.playing_ids(t, 2).count(late.player_id) == 1
    assert while_playing.pk == rnd.pk


def test_swap_refusals_name_the_player_and_dropped_players_are_not_offered(
    client, users, make_tournament
):
    """The evening's fault: 「29 is not in this round's draw.」 and a dropped player offered."""
    t = make_tournament(10)
    rnd = svc.round_draw(tournament=t)
    gone = entry(t, rnd.tables.first().seats[0])
    svc.entry_leave(entry=gone)
    stranger = svc.entry_add(tournament=t, name="木村")  # entered, not checked in
    with pytest.raises(EfudaError) as err:
        svc.round_swap(rnd=rnd, a=stranger.player_id, b=rnd.tables.first().seats[1])
    assert "木村 is not in round 1's draw" in str(err.value)
    assert str(stranger.player_id) not in str(err.value)
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    swap_form = page[page.index('class="ev-swap"') : page.index("</form>", page.index("ev-swap"))]
    # whole options: 選手1 must not match 選手10
    assert f">{gone.player.name}</option>" not in swap_form
    assert "木村" not in swap_form


def test_leaving_after_this_round_plays_it_to_the_end(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    before = seats_of(rnd)
    leaver = entry(t, rnd.tables.first().seats[0])
    change = svc.entry_leave(entry=leaver)
    assert texts(change) == [
        f"{leaver.player.name} plays to the end of round 1 and is not drawn from round 2 on."
    ]
    rnd.refresh_from_db()
    assert seats_of(rnd) == before
    svc.round_finish(rnd=rnd)
    nxt = svc.round_draw(tournament=t)
    assert leaver.player_id not in {p for s in seats_of(nxt).values() for p in s}
    assert leaver.player_id not in nxt.sitouts


def test_leaving_a_table_that_cannot_play_short_is_refused_with_the_way_on(club, make_tournament):
    joker = factories.ClubRuleSetFactory(club=club, code="napoleon-joker", preset="napoleon-joker")
    t = make_tournament(10, ruleset=joker)  # tables of 5 only
    rnd = svc.round_draw(tournament=t)
    leaver = entry(t, rnd.tables.first().seats[0])
    with pytest.raises(EfudaError) as err:
        svc.entry_leave(entry=leaver)
    assert err.value.code == "change_table_size"
    assert "First say who takes the seat" in str(err.value) and leaver.player.name in str(err.value)
    leaver.refresh_from_db()
    assert leaver.dropped_at_round is None  # nothing changed
    # The way on: a late arrival takes the seat, and the leaver leaves.
    change = svc.entry_replace(tournament=t, replaced=leaver, substitute="森", leaves=True)
    leaver.refresh_from_db()
    assert leaver.dropped_at_round == 1
    assert f"{leaver.player.name} does not play round 1." in texts(change)


def test_a_substitute_already_at_a_table_is_refused_by_name(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    a, b = rnd.tables.order_by("number")
    with pytest.raises(EfudaError) as err:
        svc.entry_replace(
            tournament=t, replaced=entry(t, a.seats[0]), substitute=entry(t, b.seats[0]).player.name
        )
    assert err.value.code == "change_seated" and "table 2 of round 1" in str(err.value)


def test_the_replaced_player_is_told_on_their_phone(client, make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.first()
    y = entry(t, table.seats[0])
    client.post(reverse("tournament_pin", args=[t.pk]), {"pin": svc.pin_issue(entry=y)})
    svc.entry_replace(tournament=t, replaced=y, substitute="森")
    response = client.get(reverse("tournament_table", args=[t.pk, table.pk]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "森 took over your seat there from deal no. 1." in page
