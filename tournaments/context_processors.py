"""Template context shared by every page."""

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject

# Stands in for the visitor's CSRF token in a page rendered for the shared page cache; each
# response gets the real token of its own visitor (views/page_cache.py).
CSRF_PLACEHOLDER = "efuda-csrf-token-placeholder-7c1e"


def request_token(request) -> str:
    """This request's CSRF token, masked once: Django masks the secret anew at every
    ``get_token``, and a page read by a logged-in reader asks twice (its own forms, then the
    shared parts' placeholder, views/page_cache.py); one masked token serves both."""
    kept = getattr(request, "_efuda_csrf_token", None)
    if kept is not None and kept[0] == request.META.get("CSRF_COOKIE"):
        return kept[1]
    token = get_token(request)
    request._efuda_csrf_token = (request.META.get("CSRF_COOKIE"), token)
    return token


def csrf(request):
    """Django's own ``csrf`` processor, except while a page is rendered for the cache."""

    def token():
        if getattr(request, "efuda_page_cache", False):
            return CSRF_PLACEHOLDER
        return request_token(request)

    return {"csrf_token": SimpleLazyObject(token)}
