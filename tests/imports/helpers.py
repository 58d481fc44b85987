"""Helpers for the import tests: points per player name, read back from stored score lines."""

from collections import defaultdict
from pathlib import Path

from tournaments.models import Deal, ScoreLine

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
NAPOLEON_HEADER = "date,table,rules,players,napoleon,bid,trump,called,adjutant,honours,discarded"
DAIFUGO_HEADER = "date,table,rules,order,forbidden"


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def points_by_deal(club) -> list[dict[str, int]]:
    """Each deal's points by player name, deals in session (date, table) and seq order."""
    result = []
    deals = Deal.objects.filter(club=club).order_by("session__date", "session__table", "seq")
    for deal in deals:
        lines = ScoreLine.objects.filter(deal=deal).select_related("player")
        result.append({line.player.name: line.points for line in lines})
    return result


def totals(club) -> dict[str, int]:
    sums: dict[str, int] = defaultdict(int)
    for line in ScoreLine.objects.filter(club=club).select_related("player"):
        sums[line.player.name] += line.points
    return dict(sums)
