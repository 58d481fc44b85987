"""Property-based fuzzing of the entry forms and the CSV import: garbage never yields a server
error, and input that cannot be right changes nothing (cookies and headers: test_headers_fuzz)."""

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories
from tests.hardening.helpers import aggregates_match_lines, build_club, standings_snapshot
from tournaments.models import Deal, GameSession, Player
from tournaments.services.imports import ImportFailed, ImportReport, results_import

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

garbage_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
numbers = st.integers(min_value=-(2**70), max_value=2**70).map(str)


def _value(ids):
    return st.one_of(
        st.sampled_from([str(i) for i in ids]),
        st.just(""),
        numbers,
        garbage_text,
        st.sampled_from(
            [
                "S",
                "H",
                "D",
                "C",
                "JK",
                "solo",
                "napoleon",
                "allies",
                "on",
                "true",
                "10",
                "A",
                "♠",
                "0",
                "-1",
                "20",
                "21",
                "1e9",
                "NaN",
                "\x00",
                "<b>",
            ]
        ),
    )


@pytest.fixture
def setup_world():
    owner = factories.UserFactory(username="fuzz-owner")
    club, players, nap, dai = build_club(deals=2, owner=owner)
    other = factories.PlayerFactory(club=factories.ClubFactory())  # a player of another club
    client = Client()
    client.force_login(owner)
    return club, players, nap, dai, other, client


def _post(client, url, fields, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, fields, **headers)
    assert response.status_code < 500, (url, fields, response.status_code)
    return response


NAPOLEON_FIELDS = (
    "napoleon",
    "bid",
    "trump",
    "called_suit",
    "called_rank",
    "adjutant",
    "honours",
    "discarded",
    "last_trick",
    "redeal",
    "version",
    "client_id",
)


@FUZZ
@given(data=st.data())
def test_napoleon_entry_never_fails(setup_world, data):
    club, players, nap, _dai, other, client = setup_world
    ids = [p.id for p in players] + [other.id]
    fields = {
        name: data.draw(_value(ids), label=name)
        for name in data.draw(st.sets(st.sampled_from(NAPOLEON_FIELDS)), label="present")
    }
    fields["seats"] = data.draw(st.lists(_value(ids), max_size=8), label="seats")
    fields["action"] = data.draw(st.sampled_from(["save", "preview", "live", "", "x"]))
    fields["new_player"] = data.draw(st.one_of(st.just(""), garbage_text), label="new_player")
    view = data.draw(st.sampled_from(["deal_new", "deal_preview", "deal_edit"]))
    if view == "deal_edit":
        url = reverse(view, args=[club.slug, Deal.objects.filter(session=nap).first().pk])
    else:
        url = reverse(view, args=[club.slug, nap.pk])
    _post(client, url, fields, data.draw(st.booleans(), label="htmx"))
    assert aggregates_match_lines(club)


@FUZZ
@given(data=st.data())
def test_daifugo_entry_never_fails(setup_world, data):
    club, players, _nap, dai, other, client = setup_world
    ids = [p.id for p in players] + [other.id]
    fields = {
        "order": data.draw(st.lists(_value(ids), max_size=9), label="order"),
        "forbidden": data.draw(st.lists(_value(ids), max_size=4), label="forbidden"),
        "action": data.draw(st.sampled_from(["save", "preview", "live", ""])),
        "client_id": data.draw(st.one_of(st.just(""), garbage_text, st.uuids().map(str))),
        "version": data.draw(_value(ids)),
        "new_player": data.draw(st.one_of(st.just(""), garbage_text)),
    }
    view = data.draw(st.sampled_from(["round_new", "round_preview", "deal_edit"]))
    if view == "deal_edit":
        url = reverse(view, args=[club.slug, Deal.objects.filter(session=dai).first().pk])
    else:
        url = reverse(view, args=[club.slug, dai.pk])
    _post(client, url, fields, data.draw(st.booleans(), label="htmx"))
    assert aggregates_match_lines(club)


@FUZZ
@given(data=st.data())
def test_invalid_entries_change_nothing(setup_world, data):
    """A deal with a player from another club can never be right: whatever else is sent,
    saving it writes nothing (no deal, no score line, no player, no aggregate)."""
    club, players, nap, dai, other, client = setup_world
    ids = [p.id for p in players]
    before = (standings_snapshot(club), Player.objects.filter(club=club).count())
    napoleon = data.draw(st.booleans(), label="napoleon")
    listed = data.draw(st.lists(st.sampled_from(ids), max_size=6, unique=True))
    listed.insert(data.draw(st.integers(0, len(listed))), other.id)
    if napoleon:
        fields = {
            name: data.draw(_value(ids + [other.id]), label=name)
            for name in NAPOLEON_FIELDS
            if name not in ("version", "client_id")
        }
        fields["seats"] = [str(i) for i in listed]
        session, view = nap, "deal_new"
    else:
        fields = {
            "order": [str(i) for i in listed],
            "forbidden": data.draw(st.lists(st.sampled_from(listed), max_size=2)),
        }
        session, view = dai, "round_new"
    fields["action"] = "save"
    edit = data.draw(st.booleans(), label="edit")
    if edit:
        deal = Deal.objects.filter(session=session).first()
        fields["version"] = str(deal.version)
        url = reverse("deal_edit", args=[club.slug, deal.pk])
    else:
        url = reverse(view, args=[club.slug, session.pk])
    response = _post(client, url, fields, data.draw(st.booleans(), label="htmx"))
    assert response.status_code != 302
    assert (standings_snapshot(club), Player.objects.filter(club=club).count()) == before


# --- CSV import -------------------------------------------------------------------------------

NAP_HEADER = [
    "date",
    "table",
    "rules",
    "players",
    "napoleon",
    "bid",
    "trump",
    "called",
    "adjutant",
    "honours",
    "discarded",
]
DAI_HEADER = ["date", "table", "rules", "order", "forbidden"]
NAMES = ["太郎", "花子", "Ken", "ゆき", "Sam", "次郎"]


def _cell(column):
    plausible = {
        "date": st.sampled_from(["2026-11-20", "2026-02-30", "20-11-2026", "", "2026-13-01"]),
        "table": st.sampled_from(["A", "B", "", "x" * 50]),
        "rules": st.sampled_from(
            ["napoleon-wiki", "daifugo-common", "napoleon-originator", "nope", ""]
        ),
        "players": st.lists(st.sampled_from(NAMES), min_size=0, max_size=7).map(";".join),
        "order": st.lists(st.sampled_from(NAMES), min_size=0, max_size=7).map(";".join),
        "napoleon": st.sampled_from(NAMES + [""]),
        "adjutant": st.sampled_from(NAMES + ["", "solo"]),
        "forbidden": st.sampled_from(NAMES + [""]),
        "bid": st.sampled_from(["12", "13", "16", "20", "9", "99", "", "-1"]),
        "trump": st.sampled_from(["S", "♠", "H", "X", ""]),
        "called": st.sampled_from(["SA", "♥10", "JK", "ZZ", ""]),
        "honours": st.sampled_from(["0", "14", "20", "21", "", "x"]),
        "discarded": st.sampled_from(["0", "1", "5", "", "-3"]),
    }.get(column, st.just(""))
    return st.one_of(plausible, garbage_text)


@st.composite
def csv_rows(draw):
    header = draw(
        st.sampled_from([NAP_HEADER, DAI_HEADER, NAP_HEADER + ["last_trick"], ["date", "foo"]])
    )
    header = draw(st.one_of(st.just(header), st.permutations(header)))
    rows = [header]
    for _ in range(draw(st.integers(0, 5))):
        row = [draw(_cell(c)) for c in header]
        if draw(st.integers(0, 9)) == 0:  # a ragged line now and then
            row = row[: draw(st.integers(0, len(row)))]
        rows.append(row)
    return rows


def _import_state(club):
    return (
        standings_snapshot(club),
        Player.objects.filter(club=club).count(),
        GameSession.objects.filter(club=club).count(),
    )


def _check_import(club, **kwargs):
    before = _import_state(club)
    try:
        report = results_import(club=club, **kwargs)
    except ImportFailed as failed:
        assert failed.problems  # every refusal says why …
        assert all(p.line >= 1 and str(p) for p in failed.problems)
        assert _import_state(club) == before  # … and leaves nothing behind
    else:
        assert isinstance(report, ImportReport)
        assert aggregates_match_lines(club)


@FUZZ
@given(rows=csv_rows())
def test_import_of_random_rows_is_all_or_nothing(club, rows):
    _check_import(club, rows=rows)


@FUZZ
@given(rows=csv_rows())
def test_import_of_random_csv_text_is_all_or_nothing(club, rows):
    import csv
    import io

    out = io.StringIO()
    csv.writer(out).writerows(rows)
    _check_import(club, file=out.getvalue().encode("utf-8"))


@FUZZ
@given(
    blob=st.one_of(
        st.binary(max_size=400),
        st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    )
)
def test_import_of_random_bytes_never_crashes(club, blob):
    _check_import(club, file=blob)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(blob=st.binary(max_size=300), rows=csv_rows())
def test_import_upload_page_never_fails(setup_world, blob, rows):
    import csv
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile

    club, _players, _nap, _dai, _other, client = setup_world
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    url = reverse("manage_import", args=[club.slug])
    for content in (blob, out.getvalue().encode("utf-8")):
        before = _import_state(club)
        response = client.post(url, {"file": SimpleUploadedFile("r.csv", content)})
        assert response.status_code in (200, 302, 400), response.status_code
        if response.status_code != 302:
            assert _import_state(club) == before
