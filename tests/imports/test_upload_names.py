"""An upload's file name is the sender's text (docs/accounts.md, "What the tests keep"): a name
with folders, a Windows path, markup, a NUL byte, control characters or three hundred
characters imports the file as any other, is kept without any folder (Django's own parser
takes the last part) and at most 200 characters, is never written to disk, and shows on the
job's page as text."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Deal, ImportJob

from .test_background import _many_lines

NAMES = {
    "folders": "../../../etc/passwd.csv",
    "windows": "..\\..\\Windows\\win.ini.csv",
    "markup": '<img src=x onerror="alert(1)">.csv',
    "nul": "results\x00.csv",
    "controls": "results\r\n\x1b[31m\u202egnp.csv",
    "long": "成績" * 150 + ".csv",
}


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
def test_a_hostile_file_name_is_only_a_name(
    name, client, club, users, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.IMPORT_BACKGROUND_LINES = 2  # through the stored job, where the name is kept
    settings.MEDIA_ROOT = str(tmp_path)
    client.force_login(users["owner"])
    url = reverse("manage_import", args=[club.slug])
    upload = SimpleUploadedFile(name, _many_lines(5))
    with django_capture_on_commit_callbacks(execute=True):  # the worker runs the job
        response = client.post(url, {"file": upload, "sheet": ""})
    assert response.status_code == 302, response.content.decode()[:500]
    job = ImportJob.objects.get(club=club)
    assert job.status == "done" and Deal.objects.filter(club=club).count() == 5
    kept = job.filename
    assert "/" not in kept and "\\" not in kept and "\x00" not in kept and len(kept) <= 200
    assert kept not in ("", ".", "..")
    page = client.get(response["Location"]).content.decode()
    assert "<img src=x" not in page and 'onerror="alert' not in page
    assert not list(tmp_path.iterdir())  # nothing written to disk
