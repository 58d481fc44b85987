"""The files clubs really have: Shift_JIS (CP932) CSV from Japanese Excel and .xlsx workbooks,
with the same columns, line numbers and all-or-nothing rule as UTF-8 CSV."""

import datetime
import io

import openpyxl
import pytest

from tournaments.models import Deal, Player
from tournaments.services.imports import ImportFailed, results_import

from .helpers import SAMPLES, points_by_deal

pytestmark = pytest.mark.django_db


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def test_shift_jis_csv_imports_like_utf8_and_says_so(club):
    text = _sample("napoleon.csv").replace("♠", "S").replace("♦", "D").replace("♥", "H")
    report = results_import(club=club, file=text.encode("cp932"))
    assert report.source == "Shift_JIS (CP932)"
    assert report.deals == 6 and report.players_created == 9
    assert "太郎" in set(Player.objects.filter(club=club).values_list("name", flat=True))


UTF8 = [("utf-8", "UTF-8"), ("utf-8-sig", "UTF-8 with a byte-order mark")]


@pytest.mark.parametrize(("encoding", "label"), UTF8)
def test_utf8_is_tried_first(club, encoding, label):
    report = results_import(club=club, file=_sample("daifugo.csv").encode(encoding))
    assert report.source == label


def test_shift_jis_errors_keep_their_line_numbers(club):
    text = _sample("daifugo.csv").replace("daifugo-hyousube", "ないルール")
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=text.encode("cp932"))
    assert [(p.line, p.field) for p in caught.value.problems] == [(5, "rules")]
    assert "ないルール" in caught.value.problems[0].message
    assert not Deal.objects.filter(club=club).exists()


def _workbook(rows, *, sheets=("Results",), blank_top=0) -> bytes:
    book = openpyxl.Workbook()
    book.active.title = sheets[0]
    for name in sheets[1:]:
        book.create_sheet(name)
    sheet = book[sheets[-1]] if len(sheets) > 1 else book.active
    for _ in range(blank_top):
        sheet.append([])
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _daifugo_rows():
    header = ["date", "table", "rules", "order", "forbidden"]
    # Excel keeps dates as dates and numbers as numbers; both are read as the CSV would be.
    return [header,
            [datetime.datetime(2026, 11, 20), "A", "daifugo-common", "太郎;花子;Ken;ゆき;Sam",
             None],
            [datetime.date(2026, 11, 20), "A", "daifugo-common", "Ken;太郎;Sam;花子;ゆき", ""],
            ["2026-11-20", "A", "daifugo-common", "Sam;Ken;花子;ゆき;太郎", "Sam"]]  # fmt: skip


def test_xlsx_imports_the_first_sheet(club):
    report = results_import(club=club, file=_workbook(_daifugo_rows()), filename="r.xlsx")
    assert report.deals == 3 and report.source == "Excel workbook, sheet “Results”"
    assert points_by_deal(club)[0] == {"太郎": 2, "花子": 1, "Ken": 0, "ゆき": -1, "Sam": -2}


def test_xlsx_chosen_sheet_and_row_numbers_in_errors(club):
    rows = _daifugo_rows()
    rows[2][0] = "20/11/2026"
    data = _workbook(rows, sheets=("Cover", "2026"), blank_top=2)
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=data, sheet="2026")
    # The header is row 3 of the sheet, so the bad date is on row 5.
    assert [(p.line, p.field) for p in caught.value.problems] == [(5, "date")]
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=data, sheet="none")
    assert caught.value.problems[0].field == "sheet" and "2026" in caught.value.problems[0].message
    assert not Deal.objects.filter(club=club).exists()


def test_a_broken_workbook_is_refused(club):
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=b"PK\x03\x04 not really a zip", filename="x.xlsx")
    assert caught.value.problems[0].field == "file"
