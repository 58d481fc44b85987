"""Who reads is one explicit object, ``request.reader`` (tournaments/reader.py), never private
attributes hung on ``request.user``: the code never sets (nor reads) an ``_efuda_`` attribute on
a user, and after a member's pages the request's user carries none."""

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.reader import Reader

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "tournaments", ROOT / "config", ROOT / "core"]
PREFIX = "_efuda_"


def _names(node: ast.AST) -> list[str]:
    """The names along an expression: ``request.user._x`` -> ['request', 'user', '_x']."""
    names = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            return [node.id, *names[::-1]]
        else:
            return names[::-1]


def private_on_users(source: str, filename: str) -> list[str]:
    """Every ``<…user…>._efuda_*`` (set or read) and ``setattr``/``getattr``/``hasattr`` of an
    ``_efuda_*`` name on something named user: 'file:line: what'."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Attribute) and node.attr.startswith(PREFIX):
            if "user" in _names(node.value):
                found.append(f"{filename}:{node.lineno}: {'.'.join(_names(node))}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith(PREFIX)
            and "user" in _names(node.args[0])
        ):
            found.append(f"{filename}:{node.lineno}: {node.func.id}(…, {node.args[1].value!r})")
    return found


def test_no_private_attribute_is_hung_on_a_user():
    offenders = []
    for folder in SOURCES:
        for file in sorted(folder.rglob("*.py")):
            name = file.relative_to(ROOT).as_posix()
            offenders += private_on_users(file.read_text(encoding="utf-8"), name)
    assert not offenders, "pass who reads as request.reader instead:\n" + "\n".join(offenders)


def test_every_way_of_hanging_one_is_found():
    source = """
def f(request, user):
    request.user._efuda_roles = {}
    cache = getattr(user, "_efuda_extra_staff", {})
    setattr(request.user, "_efuda_x", 1)
    if hasattr(self.user, "_efuda_y"):
        user._efuda_z[1] = 2
    request._efuda_csrf_token = None
"""
    found = private_on_users(source, "example.py")
    assert [line.split(": ", 1)[0] for line in found] == [
        f"example.py:{n}" for n in (3, 4, 5, 6, 7)
    ]


@pytest.mark.django_db
def test_a_members_pages_leave_the_user_as_django_made_it(public_club):
    ruleset = factories.ClubRuleSetFactory(club=public_club, preset="napoleon-wiki")
    event = factories.tournament(club=public_club, ruleset=ruleset, entrants=8, is_public=True)
    user = factories.UserFactory(username="aki")
    factories.MembershipFactory(club=public_club, user=user, role="scorekeeper")
    client = Client()
    client.force_login(user)
    pages = [
        reverse("club_home", args=[public_club.slug]),
        reverse("session_list", args=[public_club.slug]),
        reverse("tournament_detail", args=[event.pk]),
        reverse("tournament_standings", args=[event.pk]),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        request = response.wsgi_request
        assert request.user.username == "aki"
        made = getattr(request.user, "_wrapped", request.user)  # Django's lazy user, read
        assert not [k for k in vars(made) if k.startswith(PREFIX)], page
        reader = request.reader
        assert isinstance(reader, Reader) and reader.user is request.user
        assert reader.roles[public_club.pk] == "scorekeeper", page


def test_a_reader_is_made_of_a_user_or_nobody():
    user = factories.UserFactory.build(username="kei")
    reader = Reader.of(user)
    assert reader.user is user and Reader.of(reader) is reader
    nobody = Reader.of(None)
    assert not nobody.is_authenticated and nobody.pk is None and not nobody.is_superuser
    assert isinstance(nobody.user, AnonymousUser)  # as Django's request would have it


@pytest.mark.django_db
def test_a_request_has_one_reader_until_its_user_changes():
    from django.test import RequestFactory

    bare = RequestFactory().get("/")  # no authentication middleware: no user at all
    assert not Reader.of_request(bare).is_authenticated and bare.reader.pk is None
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    reader = Reader.of_request(request)  # a request the middleware did not see
    assert request.reader is reader and reader.user is request.user
    assert Reader.of_request(request) is reader
    reader.roles[1] = "member"
    request.user = factories.UserFactory(username="logged-in-now")  # a login
    fresh = Reader.of_request(request)
    assert fresh is not reader and request.reader is fresh and fresh.roles == {}
    assert fresh.is_authenticated and fresh.pk == request.user.pk and not fresh.is_superuser
    staff = Reader.of(factories.UserFactory(username="site-staff", is_superuser=True))
    assert staff.is_superuser and staff.is_authenticated
