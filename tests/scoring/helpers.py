"""Small builders for scoring tests (no database)."""

from scoring.napoleon import NapoleonDeal

NAMES = ("太郎", "花子", "Ken", "ゆき", "Sam", "次郎", "Mia", "Bo")


def seats(players: int) -> tuple[str, ...]:
    return NAMES[:players]


def deal(players: int, *, bid: int, honours: int, solo: bool = False, **extra) -> NapoleonDeal:
    """Seat 0 is Napoleon; seat 1 the adjutant unless ``solo``."""
    table = seats(players)
    values = dict(
        seats=table, napoleon=table[0], bid=bid, trump="S", called="SA",
        adjutant=None if solo else table[1], solo=solo, honours=honours, discarded=0,
    )  # fmt: skip
    values.update(extra)
    return NapoleonDeal(**values)


def expected_points(players: int, napoleon: int, adjutant: int | None, ally: int, sign: int):
    """Seat-order points with seat 0 Napoleon and seat 1 adjutant (or an ally when solo)."""
    table = seats(players)
    points = {table[0]: sign * napoleon}
    for seat in table[1:]:
        points[seat] = -sign * ally
    if adjutant is not None:
        points[table[1]] = sign * adjutant
    return points
