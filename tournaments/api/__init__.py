"""efuda's JSON API, version 1 (``/api/v1/``, docs/api.md), made with django-ninja.

Its OpenAPI document is ``/api/v1/openapi.json`` and its browsable docs ``/api/v1/docs/``
(Swagger UI, from the files django-ninja ships, served as efuda's own static files). The views
are as thin as the pages': ``reads`` and ``writes`` call the same permission checks, selectors
and services; ``auth`` says who calls (a personal token or nobody); ``errors`` writes every
refusal as ``{field, code, message}`` in the request's language."""

from django.urls import re_path
from ninja import NinjaAPI

from . import auth, clubreads, edits, errors, events, reads, tables, writes


class EfudaAPI(NinjaAPI):
    """The document says which operations anonymous callers may use: a bearer token, or none
    (``security: [{TokenAuth: []}, {}]``), as ``auth.READ`` lets them."""

    def get_openapi_schema(self, **kwargs):
        schema = super().get_openapi_schema(**kwargs)
        optional = auth.OptionalTokenAuth.__name__
        for methods in schema["paths"].values():
            for operation in methods.values():
                if {optional: []} in operation.get("security", ()):
                    operation["security"] = [{auth.TokenAuth.__name__: []}, {}]
        schemes = schema["components"].get("securitySchemes", {})
        if optional in schemes:
            schemes.setdefault(auth.TokenAuth.__name__, schemes.pop(optional))
        return schema


api = EfudaAPI(
    title="efuda API",
    version="1",
    description="Standings, sessions and deals of efuda clubs. Anonymous calls read public "
    "clubs; a personal token (Authorization: Bearer …, made on the account page) reads what "
    "its person may read and, when it may write, records deals as they may.",
    urls_namespace="api-v1",
    openapi_url="/openapi.json",
    docs_url="/docs/",
)
errors.install(api)
api.add_router("", reads.router)
api.add_router("", writes.router)
api.add_router("", clubreads.router)
api.add_router("", events.router)
api.add_router("", events.pins)
api.add_router("", tables.router)
api.add_router("", edits.router)


def urls():
    """The API's URL patterns, and after them every other address under ``/api/v1/`` answered
    as the API answers an unknown object (JSON 404), not with the site's HTML page: an id or
    a name that no route takes (a slash, a letter in an id) is simply not there."""
    patterns, app_name, namespace = api.urls
    return [*patterns, re_path(r"", errors.unknown_address)], app_name, namespace
