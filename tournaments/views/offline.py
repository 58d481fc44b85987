"""Working without a connection: the service worker and the web app manifest.

The worker's code is the file static/js/sw.js; it is served from the site root (``/sw.js``) so
its scope covers the entry pages, with one generated first line: the static files to keep and a
version that changes whenever one of them changes (so phones pick up a new worker).
"""

import hashlib
import json
import os
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.templatetags.static import PrefixNode, static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

# What an entry page needs to open without a connection (besides the page itself): every
# static/js module it imports included (tests/views/test_offline_files.py).
OFFLINE_ASSETS = [
    "css/efuda.css",
    "css/outbox.css",
    "js/entry-head.js",
    "js/entry.js",
    "js/entry-preview.js",
    "js/entry-taps.js",
    "js/entry-problems.js",
    "js/outbox.js",
    "js/outbox-list.js",
    "js/outbox-form.js",
    "js/outbox-core.js",
    "js/outbox-points.js",
    "js/outbox-totals.js",
    "js/scoring-core.js",
    "vendor/idiomorph.min.js",
    "vendor/htmx.min.js",
    "icons/efuda.svg",
    "icons/efuda-192.png",
]
ICONS = [
    ("icons/efuda-192.png", "192x192", "image/png"),
    ("icons/efuda-512.png", "512x512", "image/png"),
    ("icons/efuda.svg", "any", "image/svg+xml"),
]


def _source(path: str) -> str | None:
    found = finders.find(path)
    if not found:
        root = settings.STATIC_ROOT and os.path.join(settings.STATIC_ROOT, path)
        found = root if root and os.path.exists(root) else None
    return found


def _assets() -> list[str]:
    """The static files to keep, by their served names (hashed in production); a file that
    is gone (a library dropped) is left out rather than breaking the worker."""
    urls = []
    for path in OFFLINE_ASSETS:
        if not _source(path):
            continue
        try:
            urls.append(static(path))
        except ValueError:  # not in the manifest of collected files
            continue
    return urls


@lru_cache(maxsize=4)
def _worker(stamp: str, assets: tuple[str, ...]) -> str:
    with open(_source("js/sw.js"), encoding="utf-8") as handle:
        code = handle.read()
    config = {
        "version": stamp,
        "assets": list(assets),
        "staticUrl": PrefixNode.handle_simple("STATIC_URL"),
    }
    return f"self.EFUDA = {json.dumps(config)};\n{code}"


def _stamp(assets: list[str]) -> str:
    """Changes when the worker or any file it keeps changes (new hashed names in production,
    new modification times in development)."""
    parts = list(assets)
    for path in ["js/sw.js", *OFFLINE_ASSETS]:
        found = _source(path)
        parts.append(f"{path}:{os.stat(found).st_mtime_ns if found else 0}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


@never_cache
@require_safe
def service_worker_view(request):
    if not _source("js/sw.js"):
        raise Http404
    assets = _assets()
    code = _worker(_stamp(assets), tuple(assets))
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(max_age=3600, public=True)
@require_safe
def manifest_view(request):
    data = {
        "name": _("efuda 絵札 — scores for Napoleon and Daifugō"),
        "short_name": "efuda 絵札",
        "description": _("Record every deal at the table, even without a connection."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fafaf7",
        "theme_color": "#9b1c1c",
        "icons": [
            {"src": static(path), "sizes": sizes, "type": kind, "purpose": "any"}
            for path, sizes, kind in ICONS
        ],
    }
    return JsonResponse(
        data,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
