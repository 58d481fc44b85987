"""The API against its own OpenAPI document (schemathesis, property-based): every documented
operation, with random valid and invalid input, through Django's WSGI handler. No answer is a
500, and every answer matches the document (status, content type, body, headers).

The calls name a real club with a history, a tournament with a started round and a deal, half
of the time (the rest are random names and ids: 404s and 422s), with the owner's read-and-
write token, a table token, a made-up token or none. Examples are bounded so the whole runs
in seconds."""

from __future__ import annotations

import random

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, settings
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import missing_required_header

from tests import factories
from tests.selectors.data import club_with_history
from tournaments.services.api import token_create
from tournaments.services.events import pin_issue

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
# Well-formed input may still be refused by the rules (422: the entry form's own refusals, a
# wrong PIN), by a precondition (412: another version, 428: none) or by the rate limit (429).
schema.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx", "304", "401", "403", "404", "409", "412", "422", "428", "429",
]  # fmt: skip
# The caller's headers are chosen below, after the case is made: a case made to leave out a
# required header may get one back, so that check would judge a request it did not make.
EXCLUDED = [missing_required_header]

pytestmark = pytest.mark.django_db


@pytest.fixture
def connection_kept():
    """Django's WSGI handler closes the connection around each request; the test's transaction
    lives on it (Django's test client disconnects the same handler)."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction rolled back at its end; each operation's
    test runs in a savepoint inside it (as TestCase.setUpTestData)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(world_once, db, connection_kept):
    return world_once


def _build_world():
    """Real names and ids to call, and the headers of each kind of caller."""
    club = factories.ClubFactory(is_public=True)
    history = club_with_history(club)
    owner = factories.UserFactory(username="schema-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    _t, raw = token_create(user=owner, name="schema", scope="write")
    ruleset = club.rulesets.get(code="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=ruleset, entrants=5, is_public=True)
    rnd = factories.started_round(tournament)
    table = rnd.tables.first()
    entry = tournament.entries.get(player_id=table.seats[0])
    pin = pin_issue(entry=entry)
    from tournaments.services.api import table_token_issue

    _tt, table_raw = table_token_issue(tournament_id=tournament.pk, table_id=table.pk, pin=pin,
                                       address="127.0.0.1", seat=1)  # fmt: skip
    deal = history["november"].deals.first()
    return {
        "ids": {
            "club": club.slug, "session_id": history["november"].pk, "deal_id": deal.pk,
            "player_id": history["players"][0].pk, "tournament_id": tournament.pk,
            "table_id": table.pk, "game": "napoleon", "year": 2026, "month": 11,
        },
        "callers": [
            {}, {"Authorization": f"Bearer {raw}"}, {"Authorization": f"Bearer {table_raw}"},
            {"Authorization": "Bearer efuda_made-up"},
        ],
    }  # fmt: skip


@schema.parametrize()
@settings(
    max_examples=10, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
def test_every_operation_answers_as_documented(case, world, settings):
    settings.EFUDA_API_RATE_ADDRESS = ""  # the examples come faster than any client's calls
    settings.EFUDA_API_RATE_TOKEN = ""
    pick = random.Random(repr((case.method, case.path, case.path_parameters, case.body)))
    made_invalid = _made_invalid(case)
    if case.path_parameters and "path" not in made_invalid and pick.random() < 0.5:
        for name in case.path_parameters:
            if name in world["ids"]:
                case.path_parameters[name] = world["ids"][name]
    headers = dict(case.headers or {})
    if "header" not in made_invalid:  # a header made invalid on purpose stays as made
        headers.update(pick.choice(world["callers"]))
    headers["Accept-Language"] = pick.choice(["ja", "en"])
    case.headers = headers
    case.call_and_validate(excluded_checks=EXCLUDED)


def _made_invalid(case) -> set[str]:
    """Where a negative case was made invalid ("path", "header", "query", "body")."""
    meta = case.meta
    if meta is None:
        return set()
    return {
        str(getattr(location, "value", location))
        for location, info in meta.components.items()
        if not info.mode.is_positive
    }
