"""Large uploads are imported by the task queue: the page shows the progress, then the result
with every error; small ones are still imported in the request."""

import pytest
from django.urls import reverse

from tournaments.models import Deal, ImportJob
from tournaments.services.import_jobs import import_job_execute
from tournaments.tasks import import_job_run

from .helpers import SAMPLES

pytestmark = pytest.mark.django_db


def _upload(client, club, data: bytes, name="results.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("manage_import", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile(name, data), "sheet": ""})


def _many_lines(count: int, *, bad_line: int | None = None) -> bytes:
    rows = ["date,table,rules,order,forbidden"]
    for i in range(count):
        day = f"2025-{1 + i // 200 % 12:02d}-{1 + i // 20 % 10:02d}"
        rows.append(f"{day},T{i // 2400},daifugo-common,a;b;c;d,")
    if bad_line is not None:
        rows[bad_line - 1] = rows[bad_line - 1].replace("daifugo-common", "no-such-rules")
    return ("\n".join(rows) + "\n").encode()


def test_a_large_upload_runs_in_the_background_and_reports(
    client, club, users, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_BACKGROUND_LINES = 50
    client.force_login(users["owner"])
    with django_capture_on_commit_callbacks(execute=True) as enqueued:
        response = _upload(client, club, _many_lines(120))
    assert len(enqueued) == 1  # enqueued once the job row is committed
    job = ImportJob.objects.get(club=club)
    assert response.status_code == 302
    assert response["Location"] == reverse("manage_import_job", args=[club.slug, job.pk])
    # The test settings run tasks at once: the job is finished when the redirect is followed.
    job.refresh_from_db()
    assert job.status == "done" and job.report["deals"] == 120 and job.data == b""
    page = client.get(response["Location"])
    assert "120" in page.content.decode() and "hx-trigger" not in page.content.decode()
    assert Deal.objects.filter(club=club).count() == 120


def test_a_failed_background_import_lists_every_error(
    client, club, users, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_BACKGROUND_LINES = 50
    client.force_login(users["owner"])
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(client, club, _many_lines(120, bad_line=7))
    page = client.get(response["Location"]).content.decode()
    assert "line 7, field rules" in page and "nothing was imported" in page
    assert not Deal.objects.filter(club=club).exists()


def test_a_running_job_polls_for_its_progress_with_htmx(client, club, users):
    job = ImportJob.objects.create(club=club, data=b"x", lines=10, status="running", done=420,
                                   total=1000)  # fmt: skip
    client.force_login(users["owner"])
    url = reverse("manage_import_job", args=[club.slug, job.pk])
    page = client.get(url).content.decode()
    assert f'hx-get="{url}"' in page and 'hx-trigger="every 1s"' in page
    assert '<progress id="import-progress" max="100" value="42">' in page
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<section id="import-job"')


def test_only_the_clubs_owners_see_a_job(client, club, users, public_club):
    job = ImportJob.objects.create(club=club, data=b"x")
    for who in ("member", "scorekeeper", "outsider"):
        client.force_login(users[who])
        assert client.get(reverse("manage_import_job", args=[club.slug, job.pk])).status_code in (
            403, 404)  # fmt: skip


def test_small_uploads_still_import_at_once(client, club, users):
    client.force_login(users["owner"])
    response = _upload(client, club, (SAMPLES / "daifugo.csv").read_bytes())
    assert response.status_code == 302 and not ImportJob.objects.exists()
    assert "UTF-8" in client.get(response["Location"]).content.decode()


def test_the_task_and_the_worker_path(club):
    job = ImportJob.objects.create(club=club, data=(SAMPLES / "napoleon.csv").read_bytes(),
                                   language="en")  # fmt: skip
    result = import_job_run.enqueue(job_id=job.pk)
    assert result.return_value == "done"
    job.refresh_from_db()
    assert job.report["deals"] == 6 and job.finished_at is not None
    assert import_job_execute(job_id=job.pk).status == "done"  # a repeat does nothing
    assert Deal.objects.filter(club=club).count() == 6
