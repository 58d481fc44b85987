"""An imported file, exported again, gives exactly what the scoring core computes for its rows."""

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

import rules
from scoring.cards import parse_suit
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"


def _names(cell: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in cell.replace("；", ";").split(";") if n.strip())


def core_totals_napoleon(path: Path) -> Counter:
    totals: Counter = Counter()
    for row in csv.DictReader(path.open(encoding="utf-8-sig")):
        ruleset = rules.get_preset(row["rules"])
        if not row["napoleon"]:
            continue  # a redeal scores nothing
        # The file's rule: an empty adjutant, or the Napoleon's own name, is 独り立ち.
        solo = row["adjutant"] in ("", row["napoleon"])
        deal = NapoleonDeal(
            solo=solo,
            seats=_names(row["players"]),
            napoleon=row["napoleon"],
            bid=int(row["bid"]),
            trump=parse_suit(row["trump"]),
            called=row["called"] or None,
            adjutant=None if solo else row["adjutant"],
            honours=int(row["honours"]),
            discarded=int(row["discarded"] or 0),
            last_trick=row.get("last_trick") or None,
        )
        totals.update(score_napoleon(deal, ruleset).points)
    return totals


def core_totals_daifugo(path: Path) -> Counter:
    totals: Counter = Counter()
    previous: dict[tuple[str, str], str] = {}
    for row in csv.DictReader(path.open(encoding="utf-8-sig")):
        key = (row["date"], row["table"])
        result = score_daifugo(
            DaifugoRound(
                order=_names(row["order"]),
                forbidden=frozenset(_names(row["forbidden"])),
                previous_daifugo=previous.get(key),
            ),
            rules.get_preset(row["rules"]),
        )
        previous[key] = result.final_order[0]
        totals.update(result.points)
    return totals


def exported(slug: str, game: str) -> dict[str, int]:
    out = io.StringIO()
    call_command("export_standings", "--club", slug, "--game", game, "--language", "en", stdout=out)
    rows = csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff")))
    return {r["Player"]: int(r["Points"]) for r in rows}  # the English header


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sample", "game", "core"),
    [
        ("napoleon.csv", "napoleon", core_totals_napoleon),
        ("daifugo.csv", "daifugo", core_totals_daifugo),
    ],
)
def test_import_then_export_matches_the_scoring_core(sample, game, core):
    path = SAMPLES / sample
    call_command("import_results", str(path), "--club", "roundtrip", stdout=io.StringIO())
    expected = {name: points for name, points in core(path).items()}
    assert exported("roundtrip", game) == expected
    assert sum(expected.values()) == 0
