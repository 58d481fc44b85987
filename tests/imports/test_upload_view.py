"""The owners' upload page: same service, errors by line, nothing imported on any error."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Deal, Player

from .helpers import DAIFUGO_HEADER, SAMPLES, csv_bytes

pytestmark = pytest.mark.django_db


def _url(club):
    return reverse("manage_import", kwargs={"club_slug": club.slug})


def _upload(client, club, data: bytes):
    return client.post(_url(club), {"file": SimpleUploadedFile("r.csv", data, "text/csv")})


def test_owner_imports_a_file(client, club, users):
    client.force_login(users["owner"])
    assert client.get(_url(club)).status_code == 200
    response = _upload(client, club, (SAMPLES / "daifugo.csv").read_bytes())
    assert response.status_code == 302
    assert Deal.objects.filter(club=club).count() == 5
    page = client.get(response["Location"])
    assert "Imported 5 Daifugō rounds in 2 sessions" in page.content.decode()  # 回戦, not deals


def test_errors_are_listed_by_line_and_nothing_is_imported(client, club, users):
    client.force_login(users["owner"])
    data = csv_bytes(
        DAIFUGO_HEADER,
        "2026-11-20,A,daifugo-common,<script>x</script>;b;c,",
        "2026-11-20,A,daifugo-common,b;c,",
        "2026-11-20,A,daifugo-common,b;c;<script>x</script>,nobody",
    )
    response = _upload(client, club, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "2 errors: nothing was imported." in html
    assert "line 3, column order" in html and "line 4, column forbidden" in html
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;" in html or "“nobody”" in html
    assert not Deal.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.parametrize(("who", "status"), [("scorekeeper", 403), ("member", 403),
                                              ("outsider", 404)])  # fmt: skip
def test_only_owners_may_import(client, club, users, who, status):
    client.force_login(users[who])
    assert client.get(_url(club)).status_code == status
    response = _upload(client, club, (SAMPLES / "daifugo.csv").read_bytes())
    assert response.status_code == status
    assert not Deal.objects.filter(club=club).exists()


def test_anonymous_is_sent_to_login(client, club):
    response = _upload(client, club, (SAMPLES / "daifugo.csv").read_bytes())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Deal.objects.filter(club=club).exists()


def test_outsider_of_a_public_club_is_forbidden(client, public_club, users):
    client.force_login(users["outsider"])
    assert client.get(_url(public_club)).status_code == 403
