"""Working without a connection: the phone's outbox asks for a fresh CSRF token here."""

from django.urls import path

from ..views import outbox

urlpatterns = [
    path("outbox/token/", outbox.outbox_token_view, name="outbox_token"),
]
