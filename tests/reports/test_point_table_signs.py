"""The printed point table cannot be misread: its caption names the case (the Napoleon wins), so
every number is printed with the sign the scoring core gives that player in that case — the
allies' columns negative. Read from the PDF's text and checked against scoring.napoleon."""

import io
import re

import pytest
from pypdf import PdfReader

import rules
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon
from tournaments.reports import sheets
from tournaments.templatetags.efuda_text import signed

NAPOLEON_PRESETS = [p for p in rules.PRESETS.values() if p.game == "napoleon"]


def pdf_text(body: bytes) -> str:
    """Every page's text without white space (a cell's number stays whole)."""
    return re.sub(r"\s", "", "".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages))


def core_points(ruleset, players: int, bid: int, *, solo: bool) -> tuple[int, ...]:
    """What the scoring core gives when the Napoleon makes exactly the bid: (Napoleon, adjutant,
    each ally) or, solo, (Napoleon, each ally)."""
    seats = tuple(f"p{i}" for i in range(1, players + 1))
    deal = NapoleonDeal(
        seats=seats, napoleon="p1", bid=bid, trump="S", called="SA",
        adjutant=None if solo else "p2", solo=solo, honours=bid, discarded=0,
    )  # fmt: skip
    result = score_napoleon(deal, ruleset)
    assert result.won
    allies = {result.points[s] for s in seats[1 if solo else 2 :]}
    assert len(allies) == 1  # every ally gets the same
    army = (result.points["p1"],) if solo else (result.points["p1"], result.points["p2"])
    return (*army, allies.pop())


def cases():
    for preset in NAPOLEON_PRESETS:
        for players in sorted(preset.point_tables):
            yield pytest.param(preset, players, id=f"{preset.code}-{players}")


@pytest.mark.django_db
@pytest.mark.parametrize(("preset", "players"), list(cases()))
def test_every_printed_number_has_the_sign_the_core_gives_on_a_napoleon_win(club, preset,
                                                                           players):  # fmt: skip
    sheet = sheets.BlankSheet(club=club, ruleset=preset, ruleset_name=preset.name_ja,
                              players=players)  # fmt: skip
    text = pdf_text(sheets.club_blank_sheet_pdf(sheet))
    assert "ナポレオン勝利時" in text  # the caption names the case
    low, high = preset.bids[players]
    flat_table = preset.point_tables[players].flat
    for bid in [low] if flat_table else range(low, high + 1):
        napoleon, adjutant, ally = core_points(preset, players, bid, solo=False)
        solo_napoleon, solo_ally = core_points(preset, players, bid, solo=True)
        assert ally < 0 and solo_ally < 0 and napoleon > 0  # what the old sheet printed as 1
        cells = "".join(signed(v) for v in (napoleon, adjutant, ally, solo_napoleon, solo_ally))
        label = "共通" if flat_table else str(bid)  # "any" bid
        assert f"{label}{cells}" in text, (bid, cells)


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["daifugo-common", "daifugo-hyousube"])
def test_title_points_are_printed_with_their_sign(club, code):
    preset = rules.PRESETS[code]
    sheet = sheets.BlankSheet(club=club, ruleset=preset, ruleset_name=preset.name_ja, players=5)
    text = pdf_text(sheets.club_blank_sheet_pdf(sheet))
    order = ("a", "b", "c", "d", "e")
    points = score_daifugo(DaifugoRound(order=order), preset).points
    expected = "".join(signed(points[p]) for p in order)
    assert "大富豪富豪平民貧民大貧民" + expected in text


def test_signed_never_prints_minus_zero():
    assert [signed(v) for v in (2, -1, 0, -0.0, -0.001, 0.5, -1.234)] == [
        "+2", "-1", "0", "0.00", "0.00", "+0.50", "-1.23"]  # fmt: skip
