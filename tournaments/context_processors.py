"""Template context shared by every page."""

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject

# Stands in for the visitor's CSRF token in a page rendered for the shared page cache; each
# response gets the real token of its own visitor (views/page_cache.py).
CSRF_PLACEHOLDER = "efuda-csrf-token-placeholder-7c1e"


def csrf(request):
    """Django's own ``csrf`` processor, except while a page is rendered for the cache."""

    def token():
        if getattr(request, "efuda_page_cache", False):
            return CSRF_PLACEHOLDER
        return get_token(request)

    return {"csrf_token": SimpleLazyObject(token)}
