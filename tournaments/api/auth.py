"""Who calls the API: a personal token (``Authorization: Bearer efuda_…``) or nobody.

Checked here, in the API layer, never in ``AUTHENTICATION_BACKENDS``: a token acts as its
person, and the request's reader is made from that person alone (a browser's session cookie
counts for nothing here). What they may see or do is read per request, as on the pages
(``permissions``, ``deal_visibility``): a membership ended ends it at the next call.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from ninja.security import HttpBearer

from ..reader import Reader
from ..services.api import token_use

ANONYMOUS = "anonymous"


def _act_as(request, user) -> None:
    request.user = user
    request.reader = Reader.of(user)


class TokenAuth(HttpBearer):
    """A live token of an active person; a missing token is anonymous only where
    ``anonymous`` allows it, and a token that is sent but wrong is always refused (401)."""

    def __init__(self, *, anonymous: bool) -> None:
        super().__init__()
        self.anonymous = anonymous

    def __call__(self, request):
        if not request.headers.get(self.header):
            _act_as(request, AnonymousUser())
            return ANONYMOUS if self.anonymous else None
        return super().__call__(request)

    def authenticate(self, request, token: str):
        found = token_use(raw=token.strip())
        if found is None:
            _act_as(request, AnonymousUser())
            return None
        _act_as(request, found.user)
        return found


READ = TokenAuth(anonymous=True)
WRITE = TokenAuth(anonymous=False)
