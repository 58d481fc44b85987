"""Every upload is bounded before it is read (issue 35): the files of the security review —
the 800-byte .ods bomb (also with a space before its zip, and named .csv), the billion-laughs
.xlsx, the .xlsx with three million shared strings — are refused through the command, the upload
page and the background job alike, by what they claim, with a message naming the limit, before
any reader (calamine, openpyxl) is called, and nothing is stored. Clean workbooks still import.
"""

import datetime
import io
import logging
import zipfile

import openpyxl
import pytest
import python_calamine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments.models import Club, Deal, GameSession, ImportJob, Player
from tournaments.services.import_jobs import import_check, import_job_create, import_job_execute
from tournaments.services.imports import ImportFailed, ImportProblem, results_import

from . import hostile
from .helpers import ods_bytes

pytestmark = pytest.mark.django_db

CELLS = "The sheet “Sheet1” declares {} cells (its rows × its columns, repeated rows and cells "
CELLS += "counted); efuda reads at most 5,000,000"
NOT_A_SPREADSHEET = "This file is not a spreadsheet efuda can read"
STRINGS = "The workbook declares 3,000,000 different texts (shared strings); efuda reads at most "
STRINGS += "1,000,000"

# (file name, data, the message naming the limit)
HOSTILE = {
    "ods bomb": ("bomb.ods", lambda: hostile.ods_bomb(), CELLS.format("16,384,000")),
    "ods bomb, 16,384 × 10,000": (
        "bomb.ods", lambda: hostile.ods_bomb(10_000), CELLS.format("163,840,000")),
    "ods bomb, a space before the zip": (
        "bomb.ods", lambda: b" " + hostile.ods_bomb(), CELLS.format("16,384,000")),
    "ods bomb named .csv": ("results.csv", lambda: hostile.ods_bomb(), CELLS.format("16,384,000")),
    "billion laughs in the sheet": (
        "laughs.xlsx", lambda: hostile.xlsx_laughs(), NOT_A_SPREADSHEET),
    "billion laughs in the styles": (
        "laughs.xlsx", lambda: hostile.xlsx_laughs("xl/styles.xml"), NOT_A_SPREADSHEET),
    "3 million shared strings": ("strings.xlsx", lambda: hostile.xlsx_strings(), STRINGS),
}  # fmt: skip


@pytest.fixture(params=list(HOSTILE), ids=list(HOSTILE))
def hostile_file(request):
    name, build, message = HOSTILE[request.param]
    return name, build(), message


@pytest.fixture
def no_reader(monkeypatch):
    """The readers fail the test if they are ever reached: a hostile file is refused by what it
    claims, before anything is built."""

    def reached(*args, **kwargs):
        raise AssertionError("a spreadsheet reader was called")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", reached)
    monkeypatch.setattr(openpyxl, "load_workbook", reached)


def _nothing_stored(club=None):
    assert not ImportJob.objects.exists()
    assert not Deal.objects.exists() and not GameSession.objects.exists()
    if club is not None:
        assert not Player.objects.filter(club=club).exists()


def test_the_files_are_as_small_as_the_review_found():
    assert len(hostile.ods_bomb()) < 900
    assert len(hostile.xlsx_strings()) < 140_000


def test_the_command_refuses_them(hostile_file, no_reader, tmp_path, english):
    name, data, message = hostile_file
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path), "--club", "new-club")
    assert message in str(refused.value)
    assert "1 error; nothing was imported." in str(refused.value)
    assert not Club.objects.filter(slug="new-club").exists()
    _nothing_stored()


def test_the_upload_page_refuses_them(hostile_file, no_reader, client, club, users, english):
    name, data, message = hostile_file
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    response = client.post(url, {"file": SimpleUploadedFile(name, data), "sheet": ""})
    assert response.status_code == 400
    assert message in response.content.decode()
    _nothing_stored(club)


def test_the_background_path_refuses_them(hostile_file, no_reader, club, users, caplog, english):
    name, data, message = hostile_file
    with pytest.raises(ImportFailed) as refused:
        import_job_create(club=club, data=data, user=users["owner"], filename=name)
    assert message in refused.value.problems[0].message
    _nothing_stored(club)
    # A job stored before these checks existed: the worker refuses it the same way, as a
    # problem of the file — not "an unexpected error", and nothing logged with a traceback.
    job = ImportJob.objects.create(club=club, data=data, filename=name, language="en")
    with caplog.at_level(logging.WARNING):
        job = import_job_execute(job_id=job.pk)
    assert job.status == "failed"
    (problem,) = [ImportProblem.from_stored(p) for p in job.problems]
    assert message in problem.message and problem.code != "unexpected"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not Deal.objects.exists() and not Player.objects.filter(club=club).exists()


def test_the_refusal_is_in_japanese_too(no_reader, client, club, users):
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    for data, said in [
        (hostile.ods_bomb(), "シート「Sheet1」は16,384,000セル（行数×列数。繰り返しの行とセルも"
                             "数えます）あると宣言しています。efudaが読むのは5,000,000セルまで"),
        (hostile.xlsx_laughs(), "このファイルはefudaが読める表計算ファイルではありません。"),
        (hostile.xlsx_strings(), "共有文字列）が3,000,000個あると宣言しています"),
    ]:  # fmt: skip
        response = client.post(url, {"file": SimpleUploadedFile("f", data), "sheet": ""},
                               HTTP_ACCEPT_LANGUAGE="ja")  # fmt: skip
        assert said in response.content.decode()


@pytest.mark.parametrize(
    ("settings_changed", "message"),
    [
        ({}, "compressed 412 to 1, and efuda reads parts compressed 200 to 1 at most"),
        ({"IMPORT_MAX_ZIP_RATIO": 10**6, "IMPORT_MAX_SHARED_STRINGS": 1000},
         "holds more than 1,000 different texts (shared strings)"),
    ],
    ids=["by its ratio", "by counting"],
)  # fmt: skip
def test_shared_strings_that_do_not_say_how_many(
    settings_changed, message, no_reader, club, settings, english
):
    """The same three million strings, not declared: the part is compressed far more than a
    spreadsheet's; where that is allowed, the strings are counted, and refused past the limit."""
    for name, value in settings_changed.items():
        setattr(settings, name, value)
    data = hostile.xlsx_strings(declared=False)
    with pytest.raises(ImportFailed) as refused:
        results_import(club=club, file=data, filename="strings.xlsx")
    assert message in refused.value.problems[0].message


@pytest.mark.parametrize(
    ("rows", "columns", "refused"),
    [(250_000, 20, ""), (250_000, 21, "declares 5,250,000 cells"),
     (250_001, 1, "reaches row 250,001"), (1, 101, "reaches column CW")],
)  # fmt: skip
def test_the_limits_let_a_clean_file_at_the_line_limit_pass(rows, columns, refused, english):
    """The line limit (row 250,000) with 20 columns — the format's 16 and a few of the club's
    own — is exactly the cell limit; one more of either is refused (the check alone: the file
    is never read here)."""
    data = hostile.ods_bomb(rows, columns)
    if not refused:
        assert import_check(data).lines == rows
        return
    with pytest.raises(ImportFailed) as caught:
        import_check(data)
    assert refused in caught.value.problems[0].message


def test_a_zip_that_is_no_spreadsheet_is_refused(english):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    with pytest.raises(ImportFailed) as caught:
        import_check(out.getvalue(), filename="results.xlsx")
    assert NOT_A_SPREADSHEET in caught.value.problems[0].message


def _part_grown(part: str, old: str, new: str) -> bytes:
    """A clean workbook with ``old`` in its ``part`` replaced by ``new``."""
    clean = hostile.xlsx_clean([["date", "table"], ["2026-01-05", "A"]])
    text = zipfile.ZipFile(io.BytesIO(clean)).read(part).decode()
    assert old in text
    return hostile._rewritten(clean, part, text.replace(old, new, 1).encode())


def test_a_part_read_whole_is_bounded(no_reader, english):
    data = _part_grown("xl/styles.xml", "<numFmts", "<!--" + "x" * 3 * 2**20 + "--><numFmts")
    with pytest.raises(ImportFailed) as caught:
        import_check(data)
    assert "The part “xl/styles.xml” of the file unpacks to 3.0 MB, and efuda reads such a " in (
        caught.value.problems[0].message
    )
    assert "part up to 2 MB" in caught.value.problems[0].message


def test_a_sheet_full_of_other_elements_is_bounded(no_reader, settings, english):
    """Elements that are neither rows nor cells still cost the check: four per cell allowed."""
    settings.IMPORT_MAX_CELLS = 1000
    data = _part_grown("xl/worksheets/sheet1.xml", "</sheetData>", "<x/>" * 5000 + "</sheetData>")
    with pytest.raises(ImportFailed) as caught:
        import_check(data)
    assert "hold more than 4,000 XML elements" in caught.value.problems[0].message


def test_parts_are_counted_and_never_named_twice(settings, english):
    settings.IMPORT_MAX_ZIP_MEMBERS = 5
    with pytest.raises(ImportFailed) as caught:
        import_check(hostile.xlsx_clean([["a"]]))
    assert "The file holds 9 parts, and a spreadsheet efuda reads holds 5 at most" in (
        caught.value.problems[0].message
    )
    settings.IMPORT_MAX_ZIP_MEMBERS = 1000
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive, pytest.warns(UserWarning, match="Duplicate"):
        archive.writestr("content.xml", "<a/>")
        archive.writestr("content.xml", "<b/>")  # which one would a reader take?
    with pytest.raises(ImportFailed) as caught:
        import_check(out.getvalue(), filename="results.ods")
    assert NOT_A_SPREADSHEET in caught.value.problems[0].message


# --- Clean files still import, by their content whatever their name --------------------------

HEADER = ["date", "table", "rules", "order", "forbidden"]
DAY = datetime.date(2026, 11, 20)
ROWS = [[DAY, "A", "daifugo-common", "太郎;花子;Ken;ゆき;Sam", None],
        [DAY, "A", "daifugo-common", "Ken;太郎;Sam;花子;ゆき", None]]  # fmt: skip
CLEAN = {
    "xlsx": ("成績.xlsx", lambda: hostile.xlsx_clean([HEADER, *ROWS])),
    "ods": ("成績.ods", lambda: ods_bytes([HEADER, *ROWS])),
    "ods with a space before its zip": ("成績.ods", lambda: b" " + ods_bytes([HEADER, *ROWS])),
    "ods with no name": ("upload", lambda: ods_bytes([HEADER, *ROWS])),
}


@pytest.mark.parametrize("kind", list(CLEAN))
def test_clean_workbooks_still_import_by_the_command(kind, tmp_path, english):
    name, build = CLEAN[kind]
    path = tmp_path / name
    path.write_bytes(build())
    call_command("import_results", str(path), "--club", "clean")
    assert Deal.objects.filter(club__slug="clean").count() == 2


@pytest.mark.parametrize("kind", list(CLEAN))
def test_clean_workbooks_still_import_by_the_upload_page(
    kind, client, club, users, english, django_capture_on_commit_callbacks
):
    """A workbook goes to the background (the test settings run the task at once)."""
    name, build = CLEAN[kind]
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"file": SimpleUploadedFile(name, build()), "sheet": ""})
    assert response.status_code == 302
    job = ImportJob.objects.get(club=club)
    assert job.status == "done" and job.lines == 3
    assert Deal.objects.filter(club=club).count() == 2


def test_a_csv_named_like_a_workbook_is_read_as_csv(client, club, users, english):
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    text = "date,table,rules,order,forbidden\n2026-11-20,A,daifugo-common,a;b;c;d,\n"
    response = client.post(
        url, {"file": SimpleUploadedFile("results.ods", text.encode()), "sheet": ""}
    )
    assert response.status_code == 302  # imported in the request, as the small CSV it is
    assert not ImportJob.objects.exists()
    assert Deal.objects.filter(club=club).count() == 1
