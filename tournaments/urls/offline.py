"""Working without a connection: the service worker (served from the site root so its scope
covers every entry page), the web app manifest, and a fresh CSRF token for the phone's
outbox."""

from django.urls import path

from ..views import offline, outbox

urlpatterns = [
    path("sw.js", offline.service_worker_view, name="service_worker"),
    path("manifest.webmanifest", offline.manifest_view, name="web_manifest"),
    path("outbox/token/", outbox.outbox_token_view, name="outbox_token"),
    path("outbox/texts/", outbox.outbox_texts_view, name="outbox_texts"),
]
