"""Who calls the API: a personal token (``Authorization: Bearer efuda_…``), a PIN holder's
table token (``Bearer efudatable_…``) or nobody.

Checked here, in the API layer, never in ``AUTHENTICATION_BACKENDS``: a token acts as its
person, and the request's reader is made from that person alone (a browser's session cookie
counts for nothing here). What they may see or do is read per request, as on the pages
(``permissions``, ``deal_visibility``): a membership ended ends it at the next call. A table
token names no person: its holder reads as nobody does (a PIN adds nothing on the club's
pages), sees the PIN's tournament as a PIN holder does and records deals at its table only.

Every call is counted against the limits of its address and its token (``limits``).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from ninja.security import HttpBearer

from ..models import ApiTableToken
from ..reader import Reader
from ..services.api import TABLE_TOKEN_PREFIX, table_token_use, token_use
from . import limits

ANONYMOUS = "anonymous"


def _act_as(request, user) -> None:
    request.user = user
    request.reader = Reader.of(user)


class TokenAuth(HttpBearer):
    """A live token of an active person (or, with ``table``, a live table token); a missing
    token is anonymous only where ``anonymous`` allows it, and a token that is sent but wrong
    is always refused (401)."""

    def __init__(self, *, anonymous: bool, table: bool = True) -> None:
        super().__init__()
        self.anonymous = anonymous
        self.table = table

    def __call__(self, request):
        limits.limit_address(request)
        if not request.headers.get(self.header):
            _act_as(request, AnonymousUser())
            return ANONYMOUS if self.anonymous else None
        return super().__call__(request)

    def authenticate(self, request, token: str):
        raw = token.strip()
        if raw.startswith(TABLE_TOKEN_PREFIX):
            found = table_token_use(raw=raw) if self.table else None
            _act_as(request, AnonymousUser())
        else:
            found = token_use(raw=raw)
            _act_as(request, found.user if found is not None else AnonymousUser())
        if found is not None:
            limits.limit_token(request, found)
        return found


def table_token(request) -> ApiTableToken | None:
    """The table token the request was made with, if any."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiTableToken) else None


class OptionalTokenAuth(TokenAuth):
    """A token, or none (the OpenAPI document says so: ``EfudaAPI``)."""


READ = OptionalTokenAuth(anonymous=True)
WRITE = TokenAuth(anonymous=False, table=False)
TABLE = TokenAuth(anonymous=False)  # a table token, or a person's (the tournament's staff)
