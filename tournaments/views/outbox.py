"""What the phone's outbox (static/js/outbox.js) talks to.

The outbox posts a kept deal exactly as the entry form would, with the header
``X-Efuda-Outbox`` (``live``: the deal just saved, the page reloads after it; ``queued``: a
deal sent from the outbox in the background). The entry views answer such a post with JSON
instead of a page: recorded (also when it was recorded before: ``repeat``) or refused with the
server's message. ``outbox_token_view`` gives a fresh CSRF token (a login replaces the old
one).
"""

from django.contrib import messages
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

HEADER = "X-Efuda-Outbox"


def is_outbox(request) -> bool:
    return request.method == "POST" and request.headers.get(HEADER) in ("live", "queued")


def _form_errors(form) -> tuple[str, dict]:
    """The form's errors as one text (top errors first, then each field's with its label)
    and as {field: [texts]}."""
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
    lines = list(errors.get("__all__", []))
    for field, texts in errors.items():
        if field == "__all__":
            continue
        label = form.fields[field].label if field in form.fields else None
        lines += [f"{label}: {t}" if label else t for t in texts]
    return " ".join(lines), errors


def outbox_reply(request, *, deal=None, form=None, next_url: str = "") -> JsonResponse:
    """JSON for the outbox: 200 with the deal's number when recorded (``repeat`` when it was
    recorded before) and the page that comes next, 422 with the server's message when
    refused."""
    if request.headers.get(HEADER) == "queued":
        list(messages.get_messages(request))  # sent in the background: no pile of page messages
    if deal is not None:
        repeat = bool(getattr(deal, "already_recorded", False))
        text = (
            _("No. %(seq)s was already recorded.") if repeat else _("No. %(seq)s recorded.")
        ) % {"seq": deal.seq}
        return JsonResponse(
            {"ok": True, "seq": deal.seq, "repeat": repeat, "message": text, "next": next_url},
            status=200,
        )
    text, errors = _form_errors(form) if form is not None else ("", {})
    if not text:
        text = _("Not recorded: check the deal and save it again.")
    return JsonResponse({"ok": False, "message": text, "errors": errors}, status=422)


@never_cache
@require_safe
def outbox_token_view(request) -> JsonResponse:
    """A CSRF token for the outbox's posts, and whether this browser is logged in."""
    return JsonResponse(
        {"csrf": get_token(request), "authenticated": request.user.is_authenticated}
    )
