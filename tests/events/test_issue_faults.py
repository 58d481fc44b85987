"""Faults found on a tournament evening: fixed seats shown as a list, no table top for a table
without deals, standings ranked by ``tournaments.ranking`` like the club's standings."""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tests.events.conftest import napoleon_win
from tournaments import ranking
from tournaments.selectors import events as sel
from tournaments.services import events as svc


@pytest.mark.django_db
def test_a_table_without_deals_gives_nobody_a_table_top(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    played, idle = rnd.tables.order_by("number")
    svc.table_deal_record(table=played, data=napoleon_win(played.seats), staff=True)
    by = {r.player_id: r for r in sel.tournament_standings(tournament=t).rows}
    assert [by[p].table_wins for p in played.seats] == [1, 0, 0, 0, 0]
    assert [by[p].table_wins for p in idle.seats] == [0] * len(idle.seats)
    svc.round_finish(rnd=rnd)
    by = {r.player_id: r for r in sel.tournament_standings(tournament=t).rows}
    assert sum(by[p].table_wins for p in idle.seats) == 0


@pytest.mark.django_db
def test_fixed_seats_are_a_list_one_seat_a_line(client, users, make_tournament):
    t = make_tournament(5)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    names = {e.player_id: e.player.name for e in t.entries.select_related("player")}
    client.force_login(users["scorekeeper"])
    html = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    block = re.search(r'<ol class="fixed-seats">(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    assert [re.sub(r"<[^>]+>", "", i).strip() for i in items] == [names[p] for p in table.seats]
    css = (Path(settings.BASE_DIR) / "static" / "css" / "efuda.css").read_text()
    rule = re.search(r"\.fixed-seats \{([^}]*)\}", css).group(1)
    assert "flex" not in rule and "display: block" in rule  # numbers never run into names


def _row(name, total, points, wins):
    return sel.StandingRow(
        entry_id=0, player_id=0, name=name, total=Decimal(total), points=points, table_wins=wins
    )


def test_tournament_rows_rank_through_ranking_py(monkeypatch):
    calls = []
    real = ranking.rank

    def spy(rows, keys, **kwargs):
        calls.append(tuple(keys))
        return real(rows, keys, **kwargs)

    monkeypatch.setattr(ranking, "rank", spy)
    rows = [_row("b", 5, 5, 1), _row("a", 5, 5, 1), _row("c", 7, 3, 0), _row("d", 5, 5, 0)]
    ranked = sel.rank_rows(rows)
    assert calls == [ranking.TOURNAMENT_TIEBREAKS] == [("total", "points", "table_wins")]
    assert [(r.rank, r.name) for r in ranked] == [(1, "c"), (2, "a"), (2, "b"), (4, "d")]


@hsettings(max_examples=80, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.integers(-3, 3), st.integers(0, 2)),  # points, table wins
        min_size=1,
        max_size=9,
    )
)
def test_ties_are_broken_as_in_the_club_standings(values):
    """Raw points and no adjustments: the total is the points. Ranked as the club's standings
    rank the same keys (shared ranks, the next skipped, names in order within a tie)."""
    rows = [_row(f"p{i}", p, p, w) for i, (p, w) in enumerate(values)]
    club_style = [
        (position, row["name"])
        for position, row in ranking.rank(
            [{"name": r.name, "points": r.points, "table_wins": r.table_wins} for r in rows],
            ("points", "table_wins"),
        )
    ]
    ranked = sel.rank_rows(list(rows))
    assert [(r.rank, r.name) for r in ranked] == club_style
