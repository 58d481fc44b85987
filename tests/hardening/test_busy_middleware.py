"""A database busy with another writer: 503 "save again", with the reason that is true."""

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from django.utils import translation

from tournaments.middleware import DatabaseBusyMiddleware
from tournaments.services.busy import DatabaseBusy


@pytest.fixture
def middleware():
    return DatabaseBusyMiddleware(lambda request: None)


@pytest.mark.parametrize(
    ("exception", "importing", "reason"),
    [
        (DatabaseBusy(), True, "busy writing a large import"),
        (OperationalError("database is locked"), True, "busy writing a large import"),
        (OperationalError("database is locked"), False, "busy with other saves"),
    ],
)
def test_busy_answers_503_naming_the_reason(middleware, monkeypatch, exception, importing,
                                            reason):  # fmt: skip
    monkeypatch.setattr("tournaments.middleware.bulk_write_running", lambda: importing)
    request = RequestFactory().post("/c/x/sessions/1/deals/new/", HTTP_ACCEPT="application/json")
    with translation.override("en"):
        response = middleware.process_exception(request, exception)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    body = response.content.decode()
    assert reason in body and '"busy": true' in body and '"ok": false' in body


def test_busy_reason_in_japanese(middleware):
    request = RequestFactory().post("/c/x/sessions/1/deals/new/")
    with translation.override("ja"):
        response = middleware.process_exception(request, OperationalError("database is locked"))
    assert response.status_code == 503 and "Not recorded" not in response.content.decode()


def test_other_errors_are_left_alone(middleware):
    request = RequestFactory().get("/")
    assert middleware.process_exception(request, OperationalError("no such table: x")) is None
    assert middleware.process_exception(request, ValueError("x")) is None
