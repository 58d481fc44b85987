"""Messages efuda stores are stored as codes and parameters and rendered in the reader's
language when read: an import job's problems and how its file was read, whoever uploaded it
and in whatever language; a job stored by an older efuda still reads as it was stored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import factories
from tournaments.models import ImportJob

pytestmark = pytest.mark.django_db

BAD = (
    "date,table,rules,order,forbidden\n"
    "2026-11-01,A,daifugo-common,太郎;花子;Ken;ゆき,\n"
    "2026-13-01,A,daifugo-common,太郎;花子;Ken;ゆき,\n"
    "2026-11-02,B,no-such-rules,太郎;花子;Ken;ゆき,\n"
    "2026-11-03,A,daifugo-common,太郎;花子;太郎;ゆき,\n"
).encode()
GOOD = b"date,table,rules,order,forbidden\n2026-11-01,A,daifugo-common,a;b;c;d,\n"


@pytest.fixture
def owner_client(client):
    club = factories.ClubFactory(slug="kai")
    factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    owner = factories.UserFactory(username="owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    client.force_login(owner)
    return client, club


def _background(client, club, data, settings, capture, lang):
    settings.IMPORT_BACKGROUND_LINES = 1
    with capture(execute=True):
        response = client.post(
            reverse("manage_import", args=[club.slug]),
            {"file": SimpleUploadedFile("r.csv", data), "sheet": ""},
            HTTP_ACCEPT_LANGUAGE=lang,
        )
    return ImportJob.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def _page(client, club, job, lang) -> str:
    url = reverse("manage_import_job", args=[club.slug, job.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_a_jobs_problems_read_in_the_readers_language(
    owner_client, settings, django_capture_on_commit_callbacks
):
    client, club = owner_client
    job = _background(client, club, BAD, settings, django_capture_on_commit_callbacks, "ja")
    assert job.status == "failed" and job.problems
    for problem in job.problems:  # codes and parameters, not sentences
        assert set(problem) == {"line", "field", "code", "message", "params"} and problem["code"]
    dates = [p for p in job.problems if p["code"] == "date_invalid"]
    assert dates and dates[0]["params"] == {"value": "2026-13-01"}

    english = _page(client, club, job, "en")
    assert "“2026-13-01” is not a date" in english and "日付ではありません" not in english
    assert "太郎 is listed twice." in english  # the player's name, never a key
    japanese = _page(client, club, job, "ja")
    assert "日付ではありません" in japanese and "is not a date" not in japanese
    assert "太郎" in japanese


def test_a_job_stopped_by_its_worker_reads_in_the_readers_language(owner_client):
    client, club = owner_client
    from tournaments.services.import_jobs import _job_problem

    job = ImportJob.objects.create(club=club, status="failed", stage="stopped", language="ja",
                                   problems=_job_problem("worker_died", runs=2))  # fmt: skip
    assert "the task worker stopped while importing this file (attempts: 2)" in _page(
        client, club, job, "en"
    )
    japanese = _page(client, club, job, "ja")
    assert "タスクワーカーが停止しました（2 回目）" in japanese and "(attempts" not in japanese


def test_how_the_file_was_read_follows_the_reader(
    owner_client, settings, django_capture_on_commit_callbacks
):
    client, club = owner_client
    data = "date,table,rules,order,forbidden\n2026-11-01,A,daifugo-common,太郎;花子;Ken;ゆき,\n"
    job = _background(client, club, data.encode("cp932"), settings,
                      django_capture_on_commit_callbacks, "ja")  # fmt: skip
    assert job.status == "done" and job.report["source_kind"] == "cp932"
    assert "The file was read as Shift_JIS (CP932)." in _page(client, club, job, "en")


def test_a_job_stored_by_an_older_efuda_reads_as_it_was_stored(owner_client):
    client, club = owner_client
    job = ImportJob.objects.create(
        club=club, status="failed", language="ja",
        problems=[[3, "date", "「2026-13-01」は日付ではありません。"]],
    )  # fmt: skip
    page = _page(client, club, job, "en")
    assert "「2026-13-01」は日付ではありません。" in page and "line 3, column date" in page
    done = ImportJob.objects.create(
        club=club, status="done", language="ja",
        report={"game": "daifugo", "deals": 1, "redeals": 0, "sessions": 1, "players": 4,
                "source": "UTF-8"},
    )  # fmt: skip
    assert "The file was read as UTF-8." in _page(client, club, done, "en")
