"""What the phone's outbox (static/js/outbox.js, logic in static/js/outbox-core.js) talks to.

The outbox posts a kept deal exactly as the entry form would, with the headers

- ``X-Efuda-Outbox``: ``live`` (the deal just saved in the form: a refusal goes back into that
  form, with the form itself in the reply) or ``queued`` (sent from the outbox in the
  background: a refusal goes to the phone's "needs attention" list);
- ``X-Efuda-Author``: who entered it on the phone (``u:<user id>``, or ``pin:<entry id>`` at a
  tournament table entered with a PIN). A deal is recorded under the person who entered it or
  not at all: when the author is not who this request is logged in as, the reply is 409
  ``{"code": "author"}`` and nothing is recorded (the phone keeps the deal for its author);
- ``X-Efuda-Since`` (milliseconds since 1970, when the item was made), sent only when an item
  is sent again after a refusal: if the session already holds a deal with the same content
  recorded since then (entered again by hand, another phone), the reply is 409
  ``{"code": "similar"}`` with both, and nothing is recorded until the phone says
  ``X-Efuda-Duplicate-Ok: 1`` (the scorekeeper chose "send anyway");
- ``X-Efuda-Made`` (milliseconds since 1970), on every item: when the phone made it, kept
  with a tournament table's late deal (``made_of``);
- ``X-Efuda-Late: 1``: the staff, logged in on a player's phone, count that player's deal
  refused because its round was finished (``late_unlock``).

The entry views answer such a post with JSON instead of a page: recorded (also when it was
recorded before: ``repeat``) or refused. A refusal carries its problems as translatable codes
(msgid and parameters, ``problems``), which the phone keeps and has rendered in its reader's
language (``outbox_texts_view``), and, for a live save, the form with the messages beside the
fields. ``outbox_token_view`` gives a fresh CSRF token (a login replaces the old one) and who
this browser is.
"""

from __future__ import annotations

import datetime
import json

from django.contrib import messages
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from ..authors import pin_author, request_who, user_author
from ..i18n import display_params, stored_params

__all__ = [
    "author_refusal", "is_live", "is_outbox", "live_form_html", "outbox_reply",
    "outbox_texts_view", "outbox_token_view", "pin_author", "render_problem", "similar_reply",
    "late_unlock", "made_of", "since_of", "user_author",
]  # fmt: skip

HEADER = "X-Efuda-Outbox"
AUTHOR_HEADER = "X-Efuda-Author"
SINCE_HEADER = "X-Efuda-Since"
DUPLICATE_OK_HEADER = "X-Efuda-Duplicate-Ok"
MADE_HEADER = "X-Efuda-Made"
LATE_HEADER = "X-Efuda-Late"
MAX_TEXTS = 200  # problems rendered in one request


def is_outbox(request) -> bool:
    return request.method == "POST" and request.headers.get(HEADER) in ("live", "queued")


def is_live(request) -> bool:
    return request.method == "POST" and request.headers.get(HEADER) == "live"


# --- who entered it ---------------------------------------------------------------------------


def author_refusal(request, author: str) -> JsonResponse | None:
    """For an outbox post: 409 when the phone says someone else entered the deal than the
    person this request is logged in as (``author``), so it is never recorded under them."""
    if not is_outbox(request):
        return None
    sent = request.headers.get(AUTHOR_HEADER, "")
    if author and sent == author:
        return None
    return JsonResponse(
        {
            "ok": False,
            "code": "author",
            "author": sent,
            "message": _(
                "Not recorded: this entry was made by someone else on this phone. It stays "
                "on the phone for them and is sent when they are logged in again."
            ),
        },
        status=409,
    )


# --- the similar deal check --------------------------------------------------------------------


def since_of(request) -> datetime.datetime | None:
    """When the phone made the item, for a repeat after a refusal (None: no check asked)."""
    if request.headers.get(DUPLICATE_OK_HEADER) == "1":
        return None
    return _time_header(request, SINCE_HEADER)


def made_of(request) -> datetime.datetime | None:
    """When the phone made the item (None: not sent by the outbox, or not a time)."""
    return _time_header(request, MADE_HEADER) if is_outbox(request) else None


def late_unlock(request, pin: str) -> bool:
    """The staff logged in on a player's phone send that player's item (author ``pin``) as a
    late deal: the phone says so (``X-Efuda-Late: 1``) and names that author."""
    return (
        is_outbox(request)
        and request.headers.get(LATE_HEADER) == "1"
        and bool(pin)
        and request.headers.get(AUTHOR_HEADER) == pin
    )


def _time_header(request, name: str) -> datetime.datetime | None:
    raw = request.headers.get(name, "")
    # A time in milliseconds, in ASCII digits (str.isdigit also takes "²", which int() refuses),
    # of at most 13 (the year 2286): anything else asks no check, never a server error.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 13:
        return None
    return datetime.datetime.fromtimestamp(int(raw) / 1000, tz=datetime.UTC)


def similar_reply(similar: list[dict], mine: str) -> JsonResponse:
    return JsonResponse(
        {
            "ok": False,
            "code": "similar",
            "similar": similar,
            "mine": mine,
            "message": _(
                "A deal with the same content was recorded after this entry was made. "
                "Is it the same deal?"
            ),
        },
        status=409,
    )


# --- refusals as codes ---------------------------------------------------------------------------


def coded(text) -> dict:
    """A translatable text as the phone stores it: ``{"msgid": …}`` (with ``"context"`` for a
    pgettext), so it can be rendered again in whatever language its reader uses; a text that
    is not translatable stays ``{"text": …}``."""
    if isinstance(text, Promise):
        func, args = text.__reduce__()[1][:2]
        if func is gettext and len(args) == 1:
            return {"msgid": str(args[0])}
        if func is pgettext and len(args) == 2:
            return {"context": str(args[0]), "msgid": str(args[1])}
    return {"text": str(text)}


def _problems(form) -> list[dict]:
    """Every error of ``form`` as {field, code, label, message, params}: EfudaErrors as the
    service raised them (``form.efuda_coded``, names already in place of ids), field errors by
    their translatable message."""
    kept = getattr(form, "efuda_coded", {})
    problems = []
    for field, errors in form.errors.as_data().items():
        label = None
        if field != "__all__" and field in form.fields and form.fields[field].label:
            label = coded(form.fields[field].label)
        for error in errors:
            for one in error.error_list if hasattr(error, "error_list") else [error]:
                shown = str(one.message % one.params if one.params else one.message)
                if shown in kept:
                    code, msgid, params = kept[shown]
                    message = {"msgid": msgid}
                else:
                    code, message, params = one.code, coded(one.message), dict(one.params or {})
                problems.append(
                    {
                        "field": field,
                        "code": code or "",
                        "label": label,
                        "message": message,
                        "params": stored_params(params),
                    }
                )  # fmt: skip
    return problems


def _fill(translated: str, msgid: str, params: dict) -> str:
    params = display_params(params)  # lists in the page's language, game terms glossed
    for text in (translated, msgid):
        try:
            return text % params if params else text
        except (KeyError, TypeError, ValueError):  # a broken translation never hides the error
            continue
    return msgid


def _render_part(part, params: dict) -> str:
    if not isinstance(part, dict):
        return ""
    if "msgid" in part:
        msgid = str(part["msgid"])
        if "context" in part:
            return _fill(pgettext(str(part["context"]), msgid), msgid, params)
        return _fill(gettext(msgid), msgid, params)
    return str(part.get("text", ""))


def render_problem(problem: dict) -> str:
    """One stored problem in the current language: "label: message"."""
    params = problem.get("params")
    params = params if isinstance(params, dict) else {}
    message = _render_part(problem.get("message"), params)
    label = _render_part(problem.get("label"), {}) if problem.get("label") else ""
    return f"{label}: {message}" if label else message


def _form_text(form, problems: list[dict]) -> tuple[str, dict]:
    """The errors as one text (top errors first) and as {field: [texts]}."""
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
    ordered = [p for p in problems if p["field"] == "__all__"]
    ordered += [p for p in problems if p["field"] != "__all__"]
    return " ".join(render_problem(p) for p in ordered), errors


def outbox_reply(
    request, *, deal=None, form=None, next_url: str = "", form_html: str = ""
) -> JsonResponse:
    """JSON for the outbox: 200 with the deal's number when recorded (``repeat`` when it was
    recorded before), its points (player id → points, as efuda scored them: they win over the
    phone's) and the page that comes next; 422 when refused, with the problems as codes and,
    for a live save, ``form``: the entry form with the messages beside its fields."""
    if request.headers.get(HEADER) == "queued":
        list(messages.get_messages(request))  # sent in the background: no pile of page messages
    if deal is not None:
        repeat = bool(getattr(deal, "already_recorded", False))
        text = (
            _("No. %(seq)s was already recorded.") if repeat else _("No. %(seq)s recorded.")
        ) % {"seq": deal.seq}
        # The deal's points as efuda scored them: the phone holds them against its own.
        points = (deal.outcome or {}).get("points") or {}
        return JsonResponse(
            {"ok": True, "seq": deal.seq, "repeat": repeat, "message": text, "next": next_url,
             "points": points},
            status=200,
        )  # fmt: skip
    problems = _problems(form) if form is not None else []
    text, errors = _form_text(form, problems) if form is not None else ("", {})
    if not text:
        text = _("Not recorded: check the deal and save it again.")
        problems = [{"field": "__all__", "code": "refused", "label": None,
                     "message": {"msgid": "Not recorded: check the deal and save it again."},
                     "params": {}}]  # fmt: skip
    body = {"ok": False, "code": "refused", "message": text, "errors": errors,
            "problems": problems}  # fmt: skip
    if form_html and is_live(request):
        body["form"] = form_html
    return JsonResponse(body, status=422)


def live_form_html(request, context: dict) -> str:
    """The entry form partial (as the live preview renders it) for a refused live save."""
    if not is_live(request):
        return ""
    return render_to_string(context["partial"], context, request=request)


# --- small endpoints ---------------------------------------------------------------------------


@never_cache
@require_safe
def outbox_token_view(request) -> JsonResponse:
    """A CSRF token for the outbox's posts, whether this browser is logged in, and who it is
    (the author keys of its account and PINs)."""
    response = JsonResponse(
        {
            "csrf": get_token(request),
            "authenticated": request.user.is_authenticated,
            "who": request_who(request),
        }
    )
    return response


@never_cache
@require_POST
def outbox_texts_view(request) -> JsonResponse:
    """The stored problems of the phone's refused entries, rendered in the language of the page
    that asks (``{"problems": [...]}`` → ``{"texts": [...]}``). Renders only what it is sent:
    nothing is read from the database."""
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        data = {}
    problems = data.get("problems") if isinstance(data, dict) else None
    if not isinstance(problems, list):
        problems = []
    texts = [render_problem(p) if isinstance(p, dict) else "" for p in problems[:MAX_TEXTS]]
    return JsonResponse({"texts": texts, "lang": request.LANGUAGE_CODE})
