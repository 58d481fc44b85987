"""Files are bounded by what they claim, not only by what they hold; one import's worker time is
limited; one club (one uploader) cannot fill the queue (docs/import-format.md, "Limits")."""

import io
import re
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import factories
from tournaments.models import ImportJob
from tournaments.services import import_files
from tournaments.services.import_jobs import import_job_create, import_job_execute
from tournaments.services.imports import ImportFailed, ImportProblem, results_import

pytestmark = pytest.mark.django_db


def _workbook(*, row: int, column: int = 1, dimension: str = "as saved") -> bytes:
    """A workbook with a header and one cell at (``row``, ``column``), written as a crafted
    file would be: openpyxl itself stops at Excel's 1,048,576 rows, so the sheet's XML is
    edited. ``dimension``: "as saved" (it claims the cell), "none", or "small" (A1:C2)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["date", "table", "rules", "order", "forbidden"])
    sheet.cell(row=777, column=column, value="x")
    buffer = io.BytesIO()
    book.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                text = content.decode().replace("777", str(row))
                if dimension != "as saved":
                    new = "" if dimension == "none" else '<dimension ref="A1:C2"/>'
                    text = re.sub(r'<dimension ref="[^"]*" ?/>', new, text)
                content = text.encode()
            target.writestr(info, content)
    return out.getvalue()


def _problem(club, data: bytes, name="results.xlsx") -> str:
    with pytest.raises(ImportFailed) as failed:
        results_import(club=club, file=data, filename=name)
    (problem,) = failed.value.problems
    return problem.message


@pytest.mark.parametrize("dimension", ["as saved", "none", "small"])
def test_a_cell_far_down_a_sheet_is_refused_before_the_rows_are_walked(club, english, dimension):
    data = _workbook(row=2_000_000, dimension=dimension)
    assert len(data) < 6000
    message = _problem(club, data)
    assert "reaches row" in message and "250,000 at most" in message
    assert "delete the rows below your results" in message


def test_a_sheet_up_to_the_last_allowed_row_is_read(club):
    source = import_files.read_source(_workbook(row=import_files.MAX_LINES), filename="r.xlsx")
    assert [line for line, _cells in source.records] == [1, import_files.MAX_LINES]


@pytest.mark.parametrize("dimension", ["as saved", "none"])
def test_a_cell_far_to_the_right_is_refused(club, english, dimension):
    message = _problem(club, _workbook(row=3, column=16_000, dimension=dimension))
    assert "reaches column WQJ" in message and "column CV at most" in message


def test_a_workbook_that_unpacks_to_too_much_is_refused(club, english, settings):
    settings.IMPORT_MAX_UNPACKED_BYTES = 2 * 2**20
    book = openpyxl.Workbook()
    for _row in range(4000):
        book.active.append(["x" * 200] * 3)
    buffer = io.BytesIO()
    book.save(buffer)
    message = _problem(club, buffer.getvalue())
    assert "unpacks to more than 2 MB" in message


def test_csv_lines_are_bounded_blank_ones_included(club, english):
    data = b"date,table,rules,order,forbidden\n" + b"\n" * import_files.MAX_LINES + b"x\n"
    message = _problem(club, data, "results.csv")
    assert "more than 250000 lines (blank ones included)" in message


def _csv(n: int = 3) -> bytes:
    rows = ["date,table,rules,order,forbidden"]
    rows += [f"2025-01-{1 + i % 28:02d},T{i // 28},daifugo-common,a;b;c;d," for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


def test_one_club_cannot_fill_the_queue(client, club, users, settings, english):
    settings.IMPORT_BACKGROUND_LINES = 1
    settings.IMPORT_QUEUE_PER_CLUB = 2
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    for _ in range(2):  # queued (the on-commit enqueue does not run in this test)
        response = client.post(url, {"file": SimpleUploadedFile("r.csv", _csv()), "sheet": ""})
        assert response.status_code == 302
    response = client.post(url, {"file": SimpleUploadedFile("r.csv", _csv()), "sheet": ""})
    assert response.status_code == 400
    assert "Imports waiting or running for this club: 2, the most" in response.content.decode()
    assert ImportJob.objects.filter(club=club).count() == 2
    # another club's owner is not held up
    other = factories.ClubFactory()
    owner = factories.UserFactory(username="other-owner")
    factories.MembershipFactory(club=other, user=owner, role="owner")
    assert import_job_create(club=other, data=_csv(), user=owner).status == "queued"
    # once one has finished, the club may queue again
    import_job_execute(job_id=ImportJob.objects.filter(club=club).first().pk)
    response = client.post(url, {"file": SimpleUploadedFile("r.csv", _csv()), "sheet": ""})
    assert response.status_code == 302


def test_one_uploader_cannot_fill_the_queue_from_many_clubs(settings):
    settings.IMPORT_QUEUE_PER_USER = 3
    user = factories.UserFactory(username="founder")
    clubs = [factories.ClubFactory() for _ in range(4)]
    for club in clubs[:3]:
        import_job_create(club=club, data=_csv(), user=user)
    with pytest.raises(Exception) as refused:
        import_job_create(club=clubs[3], data=_csv(), user=user)
    assert getattr(refused.value, "code", None) == "import_queue_user"


def test_an_import_over_its_time_limit_stops_before_writing(club, settings, english):
    settings.IMPORT_TIME_LIMIT_SECONDS = -1  # already over: the first progress report stops it
    job = import_job_create(club=club, data=_csv(600), language="en")
    job = import_job_execute(job_id=job.pk)
    assert job.status == "failed"
    (problem,) = [ImportProblem.from_stored(p) for p in job.problems]  # rendered when read
    assert "took longer than 1 min. and was stopped; nothing was imported" in problem.message
    assert not club.sessions.exists()
