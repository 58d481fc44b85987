"""A club's webhooks (owners only; docs/api.md, "Webhooks"): made (the secret shown once),
their last deliveries with status codes, a test ping, removed. Another club's hook is 404."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import EfudaError

from ..forms.entry import add_efuda_error
from ..forms.webhooks import WebhookForm
from ..models import Role, Webhook
from ..permissions import club_for_request
from ..selectors.webhooks import club_webhooks, webhook_deliveries
from ..services.webhooks import webhook_create, webhook_delete, webhook_ping


@login_required
@require_http_methods(["GET", "POST"])
def webhooks_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    made = secret = None
    form = WebhookForm(request.POST or None, initial={"language": get_language() or "ja"})
    if request.method == "POST" and form.is_valid():
        try:
            made, secret = webhook_create(club=club, url=form.cleaned_data["url"],
                                          language=form.cleaned_data["language"],
                                          user=request.user)  # fmt: skip
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            form = WebhookForm(initial={"language": form.cleaned_data["language"]})
    response = render(request, "tournaments/manage/webhooks.html", {
        "club": club, "form": form, "made": made, "secret": secret,
        "hooks": club_webhooks(club=club),
    }, status=400 if form.errors else 200)  # fmt: skip
    add_never_cache_headers(response)  # the secret shown once is never kept by a browser
    return response


def _hook(request, club_slug: str, pk: int):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    return club, get_object_or_404(Webhook, club=club, pk=pk)


@login_required
@require_http_methods(["GET"])
def webhook_view(request, club_slug: str, pk: int):
    club, hook = _hook(request, club_slug, pk)
    return render(request, "tournaments/manage/webhook.html", {
        "club": club, "hook": hook, "deliveries": webhook_deliveries(webhook=hook),
    })  # fmt: skip


@login_required
@require_POST
def webhook_ping_view(request, club_slug: str, pk: int):
    club, hook = _hook(request, club_slug, pk)
    webhook_ping(webhook=hook)
    messages.success(request, _("A test delivery is on its way."))
    return redirect("webhook", club.slug, hook.pk)


@login_required
@require_POST
def webhook_delete_view(request, club_slug: str, pk: int):
    club, hook = _hook(request, club_slug, pk)
    webhook_delete(webhook=hook)
    messages.success(request, _("Webhook removed."))
    return redirect("webhooks", club.slug)
