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
    assert "line 7, column rules" in page and "nothing was imported" in page
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


def _running_job(club, owner, data: bytes, minutes_ago: float) -> ImportJob:
    """A job as a worker left it when it died mid-import: running, heartbeat ``minutes_ago``."""
    import datetime

    from django.utils import timezone

    return ImportJob.objects.create(
        club=club, data=data, created_by=owner, filename="big.csv", language="en",
        status=ImportJob.Status.RUNNING, stage="scoring", done=500, total=1000,
        heartbeat_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )  # fmt: skip


def test_a_job_whose_worker_stopped_shows_failed_and_can_be_started_again(
    client, club, users, settings, django_capture_on_commit_callbacks
):
    settings.IMPORT_STALE_MINUTES = 5
    client.force_login(users["owner"])
    job = _running_job(club, users["owner"], _many_lines(120), minutes_ago=6)
    url = reverse("manage_import_job", args=[club.slug, job.pk])
    page = client.get(url).content.decode()
    job.refresh_from_db()
    assert job.status == "failed" and job.restartable and job.data  # the file is kept
    assert "gave no sign of life for 5 min." in page and "Nothing was imported" in page
    assert "hx-trigger" not in page and "Start the import again" in page
    assert Deal.objects.filter(club=club).count() == 0
    with django_capture_on_commit_callbacks(execute=True) as enqueued:
        response = client.post(reverse("manage_import_job_restart", args=[club.slug, job.pk]))
    assert response.status_code == 302 and response["Location"] == url
    assert len(enqueued) == 1
    job.refresh_from_db()  # the test settings run the task at once
    assert job.status == "done" and job.attempt == 1 and job.report["deals"] == 120
    assert Deal.objects.filter(club=club).count() == 120
    # The stopped run, were it still alive, can no longer write to the job.
    from tournaments.services.import_jobs import _progress

    _progress(job.pk, 0)("scoring", 1, 2)
    job.refresh_from_db()
    assert job.status == "done" and job.stage != "scoring"
    # Started again once done: refused, nothing queued.
    with django_capture_on_commit_callbacks(execute=True) as enqueued:
        client.post(reverse("manage_import_job_restart", args=[club.slug, job.pk]))
    assert not enqueued and Deal.objects.filter(club=club).count() == 120


def test_a_running_job_with_a_recent_heartbeat_keeps_running(client, club, users, settings):
    settings.IMPORT_STALE_MINUTES = 5
    client.force_login(users["owner"])
    job = _running_job(club, users["owner"], _many_lines(60), minutes_ago=4)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as polled:
        page = client.get(reverse("manage_import_job", args=[club.slug, job.pk]),
                          headers={"HX-Request": "true"}).content.decode()  # fmt: skip
    job.refresh_from_db()
    assert job.status == "running" and "hx-trigger" in page
    # The poll (every second) writes nothing: on SQLite a write would wait for the import's.
    writes = [q["sql"] for q in polled.captured_queries if not q["sql"].startswith("SELECT")]
    assert not [w for w in writes if "importjob" in w.lower()], writes
    # A failed import (its file is emptied) is not offered again either.
    assert not ImportJob(status="failed", stage="writing").restartable


def test_only_the_owner_restarts_a_job(client, club, users):
    job = _running_job(club, users["owner"], _many_lines(60), minutes_ago=60)
    client.force_login(users["scorekeeper"])
    response = client.post(reverse("manage_import_job_restart", args=[club.slug, job.pk]))
    assert response.status_code in (403, 404)
    job.refresh_from_db()
    assert job.status == "running" and job.attempt == 0
