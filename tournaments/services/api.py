"""The API's own writes: personal tokens (made, used, revoked) and a deal posted with an
``Idempotency-Key`` (docs/api.md).

A token is shown once and kept as its SHA-256 only: tokens are 32 random bytes, so a fast hash
is enough (nothing to guess by trying words). A deal posted through the API is recorded by
``deals.deal_record`` like any other, with a ``client_id`` derived from the person and their
key: the exactly-once guarantee of the phone's outbox (a repeat, or two at once, returns the
deal already stored), with the key's row saying which body it was given.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import secrets
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.i18n import N_

from ..models import (
    ApiIdempotencyKey,
    ApiTableToken,
    ApiToken,
    Deal,
    GameSession,
    TokenScope,
    Tournament,
    TournamentTable,
)
from ..selectors import events as sel
from ..selectors.api import token_hash
from .deals import deal_record
from .errors import make_fail
from .events import table_deal_record
from .events.pins import pin_check, pin_unknown_tournament

TOKEN_PREFIX = "efuda_"
TABLE_TOKEN_PREFIX = "efudatable_"  # a PIN holder's token for one table (never a person's)
# The time between two writes of a token's "last used": a poller does not write per request.
LAST_USED_EVERY = datetime.timedelta(minutes=1)
# uuid5 namespace of the client ids of deals posted with an Idempotency-Key
IDEMPOTENCY_NAMESPACE = uuid.UUID("6f1c2b8e-9a57-4b61-8d2e-3f0c1a7e5b42")
MAX_KEY_LENGTH = 255

fail = make_fail(
    {
        "token_name_empty": N_("Give the token a name, e.g. the script that uses it."),
        "idempotency_key_invalid": N_(
            "The Idempotency-Key must be 1 to 255 visible ASCII characters."
        ),
        "table_token_not_seated": N_("This PIN is not of a player at this table."),
        "table_token_round_over": N_(
            "This table's round is not being played: a table token is given only while it is."
        ),
        "idempotency_key_reused": N_(
            "This Idempotency-Key was already used with another request body. Use a new key "
            "for a new deal."
        ),
    }
)


def token_create(*, user, name: str, scope: str = TokenScope.READ) -> tuple[ApiToken, str]:
    """A new token of ``user``: the stored row and the token itself (shown once, never kept)."""
    name = (name or "").strip()
    if not name:
        raise fail("name", "token_name_empty")
    if scope not in TokenScope.values:
        raise ValueError(f"unknown scope {scope!r}")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name[:100], scope=scope, key_hash=token_hash(raw), prefix=raw[:12]
    )
    return token, raw


def token_revoke(*, token: ApiToken) -> None:
    if token.revoked_at is None:
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )


def table_token_issue(
    *, tournament_id: int, table_id: int, pin: str, address: str, seat: int | None = None
) -> tuple[ApiTableToken, str]:
    """A token bound to the table ``table_id`` (and so to its round) for the player whose PIN
    this is: the PIN is checked by ``pin_check``, under the PIN form's own lock-out (failures
    counted per address and per player chosen; ``seat``, 1-based, chooses the player as the
    table's page does, otherwise the PIN is tried alone). A tournament that does not exist
    and a wrong PIN answer alike; a table that does not exist tries the PIN alone, as the
    form does, and is refused. Refused unless the round is being played and the PIN's player
    holds a seat at the table. The token is returned once, kept hashed."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise pin_unknown_tournament()
    table = (
        TournamentTable.objects.select_related("round")
        .filter(pk=table_id, round__tournament=tournament)
        .first()
    )
    chosen = None
    if table is not None and seat is not None and 1 <= seat <= len(table.seats):
        chosen = sel.seated_entry(tournament=tournament, player_id=table.seats[seat - 1])
    entry = pin_check(tournament=tournament, pin=pin, address=address, entry=chosen)
    if table is None or entry.player_id not in table.seats:
        raise fail("pin", "table_token_not_seated")
    if table.round.started_at is None or table.round.finished_at is not None:
        raise fail("pin", "table_token_round_over")
    raw = TABLE_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiTableToken.objects.create(
        entry=entry, table=table, key_hash=token_hash(raw), pin_hash=entry.pin_hash
    )
    return token, raw


def table_token_use(*, raw: str) -> ApiTableToken | None:
    """The live table token ``raw`` with its entry, table, round and tournament; None when it
    is unknown, its PIN was replaced or revoked (``selectors.events.pin_holder``, as for a
    browser holding the PIN) or its round is over."""
    if not raw.startswith(TABLE_TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = (
        ApiTableToken.objects.select_related(
            "table__round__tournament__club", "table__session", "entry"
        )
        .filter(key_hash=token_hash(raw))
        .first()
    )
    if token is None or token.table.round.finished_at is not None:
        return None
    tournament = token.table.round.tournament
    held = {"entry": token.entry_id, "hash": token.pin_hash}
    if sel.pin_holder(tournament=tournament, held=held) is None:
        return None
    return token


def token_use(*, raw: str) -> ApiToken | None:
    """The live token ``raw`` with its person, None when it is unknown, revoked or its account
    is no longer active; its last use noted (at most once a minute)."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=token_hash(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def body_hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def idempotency_client_id(*, user_id: int, key: str) -> uuid.UUID:
    """The deal's ``client_id`` for one person's key: keys of different people never meet."""
    if not key or len(key) > MAX_KEY_LENGTH or not all(33 <= ord(c) < 127 for c in key):
        raise fail("Idempotency-Key", "idempotency_key_invalid")
    return uuid.uuid5(IDEMPOTENCY_NAMESPACE, f"{user_id}\n{key}")


def deal_post(*, session: GameSession, data: dict, user, key: str | None = None) -> Deal:
    """Record a deal posted through the API (``deals.deal_record``, its refusals included).

    With ``key`` (the request's Idempotency-Key), a repeat of the same body returns the deal
    already stored (marked ``already_recorded``) and never a second one; the same key with
    another body is refused (``idempotency_key_reused``)."""
    if not key:  # deal_record moves the club's data version with the deal
        return deal_record(session=session, data=data, user=user)
    client_id = idempotency_client_id(user_id=user.pk, key=key)
    digest = body_hash({"session": session.pk, "data": data})  # another session: another body
    _check_key(user=user, key=key, digest=digest)
    try:
        with transaction.atomic():
            deal = deal_record(session=session, data=data, user=user, client_id=client_id)
            if not deal.already_recorded:
                ApiIdempotencyKey.objects.create(user=user, key=key, body_hash=digest, deal=deal)
    except IntegrityError:
        # the twin request stored the key first: its deal, if it was given the same body
        _check_key(user=user, key=key, digest=digest)
        raise
    if deal.already_recorded:
        _check_key(user=user, key=key, digest=digest)
    return deal


def _check_key(*, user, key: str, digest: str) -> None:
    stored = ApiIdempotencyKey.objects.filter(user=user, key=key).values("body_hash").first()
    if stored is not None and stored["body_hash"] != digest:
        raise fail("Idempotency-Key", "idempotency_key_reused")


def table_client_id(*, holder: str, key: str) -> uuid.UUID:
    """The client id of a deal posted to a tournament table with an Idempotency-Key: per
    holder (``"entry:<id>"`` for a table token, ``"user:<id>"`` for staff), so a retry
    returns the deal already recorded at the table."""
    idempotency_client_id(user_id=0, key=key)  # the key's own checks
    return uuid.uuid5(IDEMPOTENCY_NAMESPACE, f"table\n{holder}\n{key}")


# what the service adds to a deal's data from the session itself, not from the body
_DERIVED = ("previous_daifugo",)


def table_deal_posted(*, table, data: dict, holder: str, key: str | None, **who) -> Deal:
    """Record a deal posted to a tournament table (``table_deal_record``, its refusals
    included). With ``key``, a repeat of the same body returns the deal already stored (marked
    ``already_recorded``); the same key with another body is refused
    (``idempotency_key_reused``): the body is compared with the deal as it was first stored
    (its first history version, so a later edit by the staff does not refuse the retry)."""
    client_id = table_client_id(holder=holder, key=key) if key else None
    deal = table_deal_record(table=table, data=data, client_id=client_id, **who)
    if deal.already_recorded:
        first = deal.history.order_by("history_date", "history_id").values_list("data", flat=True)
        stored = {k: v for k, v in (first.first() or deal.data).items() if k not in _DERIVED}
        if body_hash(stored) != body_hash({k: v for k, v in data.items() if k not in _DERIVED}):
            raise fail("Idempotency-Key", "idempotency_key_reused")
    return deal
