"""efuda's JSON API, version 1 (``/api/v1/``, docs/api.md), made with django-ninja.

Its OpenAPI document is ``/api/v1/openapi.json`` and its browsable docs ``/api/v1/docs/``
(Swagger UI, from the files django-ninja ships, served as efuda's own static files). The views
are as thin as the pages': ``reads`` and ``writes`` call the same permission checks, selectors
and services; ``auth`` says who calls (a personal token or nobody); ``errors`` writes every
refusal as ``{field, code, message}`` in the request's language."""

from ninja import NinjaAPI

from . import errors, reads, writes

api = NinjaAPI(
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
