"""The rating chart's points kept on each player's rating row (``Rating.curve``), written with
the history rows they come from, in the same transaction: the player page reads one row per
game instead of walking the history (``selectors.ratings.rating_curves``).

A chart shows the history rows ``chart_ns(deals)``: every ``chart_step(deals)``-th deal, the
first and the last. A new deal changes the kept points by one (the previous last point leaves
unless it is on the step, the new one joins), except when the step itself grows — once every
``CHART_POINTS`` deals of the player — when they are read again from the history (one
indexed read of at most ``CHART_POINTS`` + 2 rows). A replay picks them out of the history it
computed, in memory.
"""

from __future__ import annotations

from ..models import Rating
from ..selectors.ratings import chart_step, curve_line, history_points


def curve_next(curve: str, n: int, line: str) -> str | None:
    """The kept points after the player's n-th deal (``line``), from those kept after their
    (n − 1)-th; None when they must be read from the history instead (the step grew, or
    nothing was kept for n − 1)."""
    if n == 1:
        return line
    if not curve or chart_step(n) != chart_step(n - 1):
        return None
    before, _, last = curve[:-1].rpartition("\n")
    last_n = int(last.split(" ", 1)[0])
    if last_n != n - 1:
        return None
    if last_n == 1 or last_n % chart_step(n) == 0:
        return curve + line
    return (before + "\n" if before else "") + line


def curves_read(rows: list[Rating], generation: int) -> None:
    """Fill in the curve of each of ``rows`` (unsaved, a deal's players) that ``curve_next``
    could not: read from the history rows of ``generation``, the deal's own already written."""
    for row in rows:
        if row.curve is None:
            row.curve = history_points(
                player_id=row.player_id, game=row.game, total=row.deals, generation=generation
            )


def curves_replayed(history: list[tuple], counts: dict[int, list]) -> dict[int, str]:
    """Each player's kept points from a replay's ``history`` (tuples of club, game, player,
    deal, n, date, μ, σ in history order) and ``counts`` (player: [deals, last date])."""
    steps = {player_id: chart_step(seen[0]) for player_id, seen in counts.items()}
    lines: dict[int, list] = {player_id: [] for player_id in counts}
    for _club, _game, player_id, _deal, n, date, mu, sigma in history:
        if n % steps[player_id] == 0 or n == 1 or n == counts[player_id][0]:
            lines[player_id].append(curve_line(n, date, mu, sigma))
    return {player_id: "".join(found) for player_id, found in lines.items()}
