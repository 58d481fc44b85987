"""PDF reports: text comes back with the Japanese names and numbers, IPAex is embedded."""

import io

import pytest
from pypdf import PdfReader

from tests.selectors.data import club_with_history
from tournaments import charts, reports
from tournaments.selectors.standings import Period, standings
from tournaments.selectors.visibility import Visibility


def pdf_text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    return "\n".join(page.extract_text() for page in reader.pages)


def embedded_fonts(body: bytes) -> list[tuple[str, bool]]:
    """(base font name, has an embedded FontFile2/FontFile3) for every font of every page."""
    reader = PdfReader(io.BytesIO(body))
    found = []
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = any(k in descriptor for k in ("/FontFile2", "/FontFile3", "/FontFile"))
            found.append((str(font.get("/BaseFont")), embedded))
    return found


def assert_japanese_font(body: bytes) -> None:
    fonts = embedded_fonts(body)
    assert any("IPAex" in name and embedded for name, embedded in fonts), fonts


@pytest.mark.django_db
def test_session_sheet_has_names_points_and_font(club):
    history = club_with_history(club)
    body = reports.session_sheet_pdf(history["november"])
    text = pdf_text(body)
    for name in ("太郎", "渡邊", "Ken", "ゆき", "花子"):
        assert name in text
    assert "-4" in text or "−4" in text  # 渡邊's lost solo
    assert_japanese_font(body)
    assert "\ufffd" not in text


@pytest.mark.django_db
def test_blank_sheet_has_seats_and_point_table(club):
    history = club_with_history(club)
    body = reports.blank_sheet_pdf(history["november"])
    text = pdf_text(body)
    assert "渡邊" in text and "花子" in text
    # napoleon-wiki, 5 players: Napoleon 2, adjutant 1, ally 1; solo 4 / 1.
    assert "5" in text and "4" in text
    assert_japanese_font(body)


@pytest.mark.django_db
def test_blank_sheet_without_players_has_empty_seats_and_titles(club):
    from tests import factories

    history = club_with_history(club)
    import datetime

    empty = factories.session(
        club=club, ruleset=history["dai_rules"], date=datetime.date(2026, 12, 1)
    )
    text = pdf_text(reports.blank_sheet_pdf(empty))
    for title in ("大富豪", "富豪", "平民", "貧民", "大貧民"):
        assert title in text


@pytest.mark.django_db
def test_standings_pdf_with_chart(club):
    club_with_history(club)
    result = standings(
        club=club,
        game="napoleon",
        period=Period.of(2026, 11),
        visibility=Visibility(club_id=club.pk),
    )
    body = reports.standings_pdf(result, chart=charts.standings_chart(result))
    text = pdf_text(body)
    assert "渡邊" in text and "-4" in text and "2026-11" in text
    assert_japanese_font(body)
