"""Every refusal of the API as JSON ``{field, code, message}`` (the first problem) with
``errors``: all of them, each alike. Messages are in the language of the request
(``Accept-Language``, Japanese first), rendered as the pages render them."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja.errors import AuthenticationError, HttpError, ValidationError

from core.errors import EfudaError

from ..i18n import error_text


class ApiRefusalError(Exception):
    """A refusal the API itself makes (not a service's ``EfudaError``)."""

    def __init__(
        self, status: int, *, field: str | None, code: str, message: str, headers=None
    ) -> None:
        super().__init__(message)
        self.status, self.field, self.code, self.message = status, field, code, message
        self.headers = headers or {}


class NotModifiedError(Exception):
    """The reader holds the answer already (If-None-Match): 304 (freshness.read_etag)."""


def problem(field: str | None, code: str, message: str) -> dict:
    return {"field": field, "code": code, "message": message}


def reply(status: int, problems: list[dict], headers: dict | None = None) -> JsonResponse:
    response = JsonResponse({**problems[0], "errors": problems}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _validation(request, exc: ValidationError):
    problems = []
    for error in exc.errors:
        loc = [str(part) for part in error.get("loc", ()) if part not in ("body", "payload")]
        field = loc[-1] if loc else None
        kind = error.get("type", "invalid")
        if kind == "missing":
            text = _("This field is required.")
        else:
            text = _("This value is not valid: %(detail)s") % {"detail": error.get("msg", "")}
        problems.append(problem(field, kind, text))
    return reply(422, problems or [problem(None, "invalid", _("The request is not valid."))])


@csrf_exempt  # no form posts here; the API's own views are exempt alike
def unknown_address(request):
    return reply(404, [problem(None, "not_found", _("Not found."))])


def install(api) -> None:
    """The API's exception handlers."""

    @api.exception_handler(Http404)
    def not_found(request, exc):
        return reply(404, [problem(None, "not_found", _("Not found."))])

    @api.exception_handler(PermissionDenied)
    def forbidden(request, exc):
        return reply(403, [problem(None, "forbidden", _("You may not do this in this club."))])

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request, exc):
        text = _("A valid API token is needed (Authorization: Bearer …).")
        return reply(401, [problem("Authorization", "unauthenticated", text)],
                     {"WWW-Authenticate": "Bearer"})  # fmt: skip

    @api.exception_handler(HttpError)
    def http_error(request, exc):
        if exc.status_code == 400:  # django-ninja's "Cannot parse request body"
            text = _("The request body is not valid JSON.")
            return reply(400, [problem("body", "unparsable", text)])
        return reply(exc.status_code, [problem(None, "error", str(exc))])

    @api.exception_handler(EfudaError)
    def refused(request, exc):
        return reply(422, [problem(exc.field, exc.code, error_text(exc))])

    @api.exception_handler(ApiRefusalError)
    def api_refusal(request, exc):
        return reply(exc.status, [problem(exc.field, exc.code, exc.message)], exc.headers)

    @api.exception_handler(NotModifiedError)
    def unchanged(request, exc):
        return HttpResponse(status=304)  # its ETag and Vary: freshness.fresh

    api.add_exception_handler(ValidationError, _validation)
