"""The files and habits clubs have: LibreOffice's .ods read like .xlsx, days written
2026/11/20 (as Japanese spreadsheets show them) or as Excel's serial numbers, every error of a
row reported at once, and a Shift_JIS file told to write suits as letters."""

import datetime
import io

import openpyxl
import pytest

from tournaments.models import Deal, GameSession
from tournaments.services.clubs import club_create
from tournaments.services.imports import ImportFailed, results_import

from .helpers import DAIFUGO_HEADER, NAPOLEON_HEADER, csv_bytes, ods_bytes, points_by_deal

pytestmark = pytest.mark.django_db

ROWS = [
    # a date cell, a slash date typed as text, a date with single digits and full-width figures
    [datetime.date(2026, 11, 20), "A", "daifugo-common", "太郎;花子;Ken;ゆき;Sam", None],
    ["2026/11/20", "A", "daifugo-common", "Ken;太郎;Sam;花子;ゆき", None],
    ["２０２６/１１/２０", "A", "daifugo-common", "Sam;Ken;花子;ゆき;太郎", "Sam"],
    ["2026/1/5", "B", "daifugo-hyousube", "次郎;美咲;翔太;さくら", None],
]
HEADER = DAIFUGO_HEADER.split(",")


def _xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_an_ods_spreadsheet_imports_like_the_same_workbook(club, django_user_model):
    other = club_create(slug="same-as-xlsx", name="xlsx")
    report = results_import(club=club, file=ods_bytes([HEADER, *ROWS], sheet="2026"),
                            filename="成績.ods")  # fmt: skip
    assert report.source == "OpenDocument spreadsheet, sheet “2026”"
    assert report.deals == 4 and len(report.sessions) == 2
    results_import(club=other, file=_xlsx([HEADER, *ROWS]), filename="成績.xlsx")
    assert points_by_deal(club) == points_by_deal(other)
    days = set(GameSession.objects.filter(club=club).values_list("date", flat=True))
    assert days == {datetime.date(2026, 11, 20), datetime.date(2026, 1, 5)}


def test_an_ods_is_recognised_without_its_name_and_errors_name_the_sheets_rows(club):
    rows = [[None], HEADER, *ROWS[:2], ["2026/11/31", "A", "daifugo-common", "a;b;c", None]]
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=ods_bytes(rows), filename="upload")
    assert [(p.line, p.field) for p in caught.value.problems] == [(5, "date")]


def test_a_broken_ods_is_refused_in_words(club):
    data = ods_bytes([HEADER, *ROWS])
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=data[: len(data) // 2], filename="broken.ods")
    assert "save it again as an OpenDocument spreadsheet" in caught.value.problems[0].message


def test_excel_serial_days_and_slash_days_in_csv(club):
    report = results_import(club=club, file=csv_bytes(
        DAIFUGO_HEADER,
        "46346,A,daifugo-common,太郎;花子;Ken;ゆき;Sam,",
        "2026/11/20,A,daifugo-common,Ken;太郎;Sam;花子;ゆき,",
        "2026年11月21日,A,daifugo-common,Ken;太郎;Sam;花子;ゆき,",
    ))  # fmt: skip
    assert sorted(s.date for s in report.sessions) == [
        datetime.date(2026, 11, 20), datetime.date(2026, 11, 21)]  # fmt: skip


@pytest.mark.parametrize("day", ["12345", "2026/13/01", "2026/11/31", "20261120", "11/20/2026"])
def test_what_is_not_a_day_stays_an_error(club, day):
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=csv_bytes(
            DAIFUGO_HEADER, f"{day},A,daifugo-common,太郎;花子;Ken;ゆき;Sam,"))  # fmt: skip
    assert [(p.line, p.field) for p in caught.value.problems] == [(2, "date")]
    assert "write YYYY-MM-DD or YYYY/MM/DD" in caught.value.problems[0].message


def test_every_error_of_a_row_is_reported_at_once(club):
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=csv_bytes(
            NAPOLEON_HEADER,
            # a wrong day and a bid the rules refuse: both, on the same line
            "2026-11-31,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,25,S,SA,花子,14,0",
            # a wrong day, a table too long and a trump that is no suit
            "2026-13-01," + "T" * 41 + ",napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,X,SA,花子,"
            "14,0",
        ))  # fmt: skip
    found = [(p.line, p.field) for p in caught.value.problems]
    assert found == [(2, "bid"), (2, "date"), (3, "date"), (3, "table"), (3, "trump")]
    assert not Deal.objects.filter(club=club).exists()


def test_a_shift_jis_file_is_told_to_write_suit_letters(club):
    # Japanese Excel saves ♠ as "?" in a Shift_JIS CSV.
    text = "\n".join([
        NAPOLEON_HEADER,
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,?,?A,花子,14,0",
    ]) + "\n"  # fmt: skip
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=text.encode("cp932"))
    messages = {p.field: p.message for p in caught.value.problems}
    assert "write the suit letters S, H, D or C" in messages["trump"]
    assert "♠ ♥ ♦ ♣ or" not in messages["trump"]
    # The same mistake in a UTF-8 file keeps the usual message (both ways are possible there).
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=text.encode("utf-8"))
    assert "use ♠ ♥ ♦ ♣ or S H D C" in caught.value.problems[0].message
