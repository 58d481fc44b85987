"""Reads for ratings: the events a replay learns from (score lines, in order), the ratings page
and a player's rating history. Pages read stored rows only; nothing here computes a rating."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, Subquery

from ratings.engine import DaifugoEvent, NapoleonEvent, daifugo_places

from ..models import Deal, Game, Rating, RatingHistory, RatingState, ScoreLine
from .visibility import Visibility, common_visibility

MIN_DEALS = 10  # below this a player is hidden from the ratings page unless asked for
PROVISIONAL_SIGMA = 3.5  # 「暫定」 while σ is above this (docs/ratings.md)
CHART_POINTS = 120  # at most this many history rows are read for a chart
STATE_SHOWN = ("deals", "last_date", "computed_at")  # what the ratings page says of its state

# A deal's place in a club's history: its session's date, then the order deals were recorded.
ORDER = ("date", "deal_id")
_COLUMNS = ("deal_id", "date", "player_id", "role", "won", "bid", "seat", "forbidden", "points")


def _event(game: str, rows: list, with_points: bool) -> NapoleonEvent | DaifugoEvent:
    points = {r[2]: r[8] for r in rows} if with_points else {}
    if game == Game.NAPOLEON:
        army = [r for r in rows if r[3] in ("napoleon", "adjutant")]
        army.sort(key=lambda r: r[3] != "napoleon")
        rest = tuple(r[2] for r in rows if r[3] not in ("napoleon", "adjutant"))
        return NapoleonEvent(
            army=tuple(r[2] for r in army),
            rest=rest,
            won=bool(army[0][4]),
            bid=army[0][5] or 0,
            points=points,
        )
    went_out = [r[2] for r in sorted(rows, key=lambda r: r[6])]
    return DaifugoEvent(
        places=daifugo_places(went_out, [r[2] for r in rows if r[7]]), points=points
    )


def rating_events(
    *, club_id: int, game: str, deal_id: int | None = None, with_points: bool = False,
    after: tuple[datetime.date, int] | None = None, lines: list[int] | None = None,
) -> Iterator[tuple[int, datetime.date, NapoleonEvent | DaifugoEvent]]:  # fmt: skip
    """(deal id, date, event) for every live deal of the club's game in history order, read
    in bulk from score lines (redeals have none, so they rate nothing). ``with_points`` adds
    each player's points (the evaluation's baselines use them; ratings do not); ``after``
    (date, deal id) keeps only the deals after that place in history; ``lines``, a list of
    one number, counts the score lines read."""
    current: list = []
    for row in _lines(club_id, game, deal_id, after):
        if lines is not None:
            lines[0] += 1
        if current and row[0] != current[0][0]:
            yield current[0][0], current[0][1], _event(game, current, with_points)
            current = []
        current.append(row)
    if current:
        yield current[0][0], current[0][1], _event(game, current, with_points)


def deal_rating_events(
    *, game: str, deal_id: int, date: datetime.date, lines
) -> list[tuple[int, datetime.date, NapoleonEvent | DaifugoEvent]]:
    """What ``rating_events(deal_id=…)`` reads back for one deal, from its score lines as they
    were just written (``lines``: objects with the score line's fields), without reading them
    again: [] for a deal without lines (a redeal)."""
    rows = sorted(
        ((deal_id, date, ln.player_id, ln.role, ln.won, ln.bid, ln.seat, ln.forbidden, ln.points)
         for ln in lines),
        key=lambda row: row[6],
    )  # fmt: skip
    return [(deal_id, date, _event(game, rows, False))] if rows else []


def _rated_lines(club_id: int, game: str, visibility: Visibility | None = None):
    """The club's score lines in ``game`` the ratings learn from: not those of deals hidden
    from any reader of the club's pages (``visibility.common_visibility``)."""
    visibility = visibility or common_visibility(club_id=club_id)
    lines = ScoreLine.objects.filter(club_id=club_id, game=game)
    if not visibility.everything:
        lines = lines.exclude(session_id__in=visibility.hidden_sessions())
    return lines


def rating_lines_after(*, club_id: int, game: str, after: tuple[datetime.date, int]) -> int:
    """How many of the club's rated score lines come after (date, deal id) in history."""
    day, deal_id = after
    return (
        _rated_lines(club_id, game)
        .filter(Q(date__gt=day) | Q(date=day, deal_id__gt=deal_id))
        .count()
    )


def rating_lines_count(*, club_id: int, game: str) -> int:
    """How many of the club's score lines in ``game`` the ratings learn from."""
    return _rated_lines(club_id, game).count()


def deal_rated(*, deal: Deal) -> bool:
    """Whether the club's ratings learn from ``deal`` (it is not hidden from any reader)."""
    visibility = common_visibility(club_id=deal.club_id)
    return visibility.session_visible(deal.session)


def _lines(club_id: int, game: str, deal_id: int | None, after=None) -> Iterator[tuple]:
    """The rated score lines' ``_COLUMNS`` in history order, read with a plain (server-side on
    PostgreSQL) cursor: a replay reads every line of a club, and the ORM's per-row value
    conversion cost as much as the rating maths. Both backends already give dates and
    booleans as Python values for these column types."""
    meta = ScoreLine._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(c).column) for c in _COLUMNS)
    where = "club_id = %s AND game = %s"
    params: list = [club_id, game]
    visibility = common_visibility(club_id=club_id)
    if not visibility.everything:  # the hidden sessions, as the ORM writes the subquery
        hidden_sql, hidden_params = visibility.hidden_sessions().query.sql_with_params()
        where += f" AND {quote(meta.get_field('session').column)} NOT IN ({hidden_sql})"
        params += list(hidden_params)
    if deal_id is not None:
        where += " AND deal_id = %s"
        params.append(deal_id)
    if after is not None:
        where += " AND (date > %s OR (date = %s AND deal_id > %s))"
        params += [after[0], after[0], after[1]]
    order = ", ".join(quote(meta.get_field(c).column) for c in (*ORDER, "seat"))
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {where} ORDER BY {order}"  # noqa: S608
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(20_000):
            yield from rows


@dataclass
class RatingRow:
    rank: int
    player_id: int
    name: str
    score: float
    mu: float
    sigma: float
    deals: int
    last_played: datetime.date | None
    provisional: bool
    url: str = ""


@dataclass
class RatingsPage:
    game: str
    state: RatingState | None
    rows: list[RatingRow]
    hidden: int
    show_all: bool
    min_deals: int = MIN_DEALS

    @property
    def status(self) -> str:
        """What the page says, one thing at a time: ``none`` (no rated deal yet),
        ``all_hidden`` (deals are rated, but every player has fewer than ``min_deals``, hidden
        until asked for) or ``shown``."""
        if self.state is None or not self.state.deals:
            return "none"
        if not self.rows and self.hidden:
            return "all_hidden"
        return "shown"


def ratings_page(*, club, game: str, show_all: bool = False) -> RatingsPage:
    """The club's current ratings, best conservative score first (one row per player)."""
    # At most one row per club and game (ratingstate_unique), of which the page shows three
    # fields: neither an ordering nor the rest of the row (nor its last deal) to read.
    found = RatingState.objects.filter(club=club, game=game).only(*STATE_SHOWN)[:1]
    state = found[0] if found else None
    rows = []
    hidden = 0
    values = (
        Rating.objects.filter(club=club, game=game)
        .order_by("-score", "player__name")
        .values_list("player_id", "player__name", "score", "mu", "sigma", "deals", "last_played")
    )
    for pid, name, score, mu, sigma, deals, last in values:
        if deals < MIN_DEALS and not show_all:
            hidden += 1
            continue
        rows.append(
            RatingRow(
                rank=len(rows) + 1,
                player_id=pid,
                name=name,
                score=score,
                mu=mu,
                sigma=sigma,
                deals=deals,
                last_played=last,
                # Judged on the ± the page shows (one decimal): two players shown ±3.5 are
                # both provisional or both not.
                provisional=round(sigma, 1) > PROVISIONAL_SIGMA,
            )  # fmt: skip
        )
    return RatingsPage(game=game, state=state, rows=rows, hidden=hidden, show_all=show_all)


@dataclass
class RatingCurve:
    game: str
    dates: list[str]
    mu: list[float]
    score: list[float]
    current: Rating


def chart_step(total: int) -> int:
    """Every how many deals a chart of a player's ``total`` deals shows a point."""
    return max(1, -(-total // CHART_POINTS))


def chart_ns(total: int) -> list[int]:
    """The deals (n) a rating chart shows: at most ``CHART_POINTS`` (and the first and the
    last), evenly spread over the player's ``total`` deals."""
    step = chart_step(total)
    return sorted({*range(step, total + 1, step), 1, total}) if total else []


def curve_line(n: int, date: datetime.date, mu: float, sigma: float) -> str:
    """One point of a kept chart (``Rating.curve``: one line per point, by n): the player's
    n-th deal, its date, μ and μ − 3σ as the chart shows them (two decimals; ``repr`` reads
    back as the same float)."""
    return f"{n} {date.isoformat()} {round(mu, 2)!r} {round(mu - 3 * sigma, 2)!r}\n"


def history_points(*, player_id: int, game: str, total: int, generation) -> str:
    """The chart's points (``curve_line``s) read from the history rows of ``generation`` (a
    number, or an expression such as the current generation's subquery): one indexed read,
    (player, game, generation, n IN …) walking the ratinghistory_gen index, whatever the
    history's length."""
    rows = (
        RatingHistory.objects.filter(
            player_id=player_id, game=game, generation=generation, n__in=chart_ns(total)
        )
        .order_by("n")
        .values_list("n", "date", "mu", "sigma")
    )
    return "".join(curve_line(*row) for row in rows)


def _kept(current: Rating) -> str:
    """The points ``current`` keeps, if they reach its last deal (a row written by code that
    did not keep them, during an upgrade, keeps older ones or none): otherwise ""."""
    points = current.curve
    last = points[points.rfind("\n", 0, -1) + 1 :].split(" ", 1)[0]
    return points if last == str(current.deals) else ""


def _curve(current: Rating, points: str) -> RatingCurve:
    dates, mu, score = [], [], []
    for line in points.splitlines():
        _n, day, line_mu, line_score = line.split(" ")
        dates.append(day)
        mu.append(float(line_mu))
        score.append(float(line_score))
    return RatingCurve(current.game, dates, mu, score, current)


def rating_curves(*, player) -> list[RatingCurve]:
    """The player's rating over their deals, per game: at most ``CHART_POINTS`` history
    points per game, evenly spread over the player's deals (``chart_ns``), as their current
    rating rows keep them (``Rating.curve``): one query whatever the history's length. A row
    that keeps none, or not up to its last deal (restored from an older backup, written during
    an upgrade), has them read from the history of the club's current generation, read in the
    same query (a replay may be writing the next one: services/ratings.py)."""
    out = []
    for current in Rating.objects.filter(player=player).order_by("game"):
        points = _kept(current)
        if not points:
            generation = Subquery(
                RatingState.objects.filter(club_id=current.club_id, game=current.game).values(
                    "generation"
                )[:1]
            )
            points = history_points(
                player_id=player.pk, game=current.game, total=current.deals,
                generation=generation,
            )  # fmt: skip
        if points:
            out.append(_curve(current, points))
    return out
