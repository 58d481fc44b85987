"""Record, preview, edit, delete and restore deals.

Each write stores the deal, its score lines and the aggregate changes in one transaction, so a
failure at any point leaves nothing half-written.
"""

import uuid

from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Subquery
from django.utils import timezone

from ..deal_data import reason_code
from ..models import Deal, Game, GameSession, ScoreLine, TournamentTable, Webhook
from ..selectors.rulesets import session_rules
from . import bulk
from .aggregates import aggregates_apply, spec_of
from .cache import club_version_bump
from .errors import fail
from .players import players_by_ids
from .ratings import ratings_deal_changed
from .scoring_bridge import (
    LINE_COLUMNS,
    deal_columns,
    line_specs,
    line_tuple,
    outcome_dict,
    score,
)
from .table_check import table_deal_check
from .webhooks import webhooks_session_changed


def _check_players(session: GameSession, data: dict) -> None:
    """Every player id in the input must be a player of the session's club (a repeated id is
    left in, so the scoring core refuses it as listed twice: never collapsed)."""
    keys = ("seats",) if session.game == Game.NAPOLEON else ("order", "players")
    for key in keys:
        ids = data.get(key) or []
        if isinstance(ids, (list, tuple)):
            players_by_ids(club=session.club, ids=ids, field="order" if key == "players" else key)


def _players_checked_and_locked(session: GameSession, data: dict) -> set[int]:
    """``_check_players`` (the same refusals, in the same order) and the players' lock that
    ``_write_lines`` takes, in one query: the ids of the players named, locked."""
    keys = ("seats",) if session.game == Game.NAPOLEON else ("order", "players")
    wanted: list[tuple[str, list[int]]] = []
    unreadable = None
    for key in keys:
        ids = data.get(key) or []
        if not isinstance(ids, (list, tuple)):
            continue
        field = "order" if key == "players" else key
        parsed = []
        for value in ids:
            try:
                parsed.append(int(value))
            except (TypeError, ValueError):
                unreadable = (field, value)
                break
        if unreadable:
            break
        wanted.append((field, parsed))
    found = bulk.players_locked(
        {pid for _field, pids in wanted for pid in pids}, club_id=session.club_id
    )
    for field, pids in wanted:
        for pid in pids:
            if pid not in found:
                raise fail(field, "player_unknown", value=str(pid))
    if unreadable:
        raise fail(unreadable[0], "player_unknown", value=str(unreadable[1]))
    return found


def _previous_daifugo(session: GameSession, before_seq: int | None) -> str | None:
    """The 大富豪 of the session's latest live round before ``before_seq`` (for 都落ち)."""
    rounds = Deal.objects.filter(session=session, is_deleted=False)
    if before_seq is not None:
        rounds = rounds.filter(seq__lt=before_seq)
    last = rounds.order_by("-seq").only("outcome").first()
    if last is None:
        return None
    order = last.outcome.get("final_order") or []
    return order[0] if order else None


def _normalise(session: GameSession, data: dict, seq: int | None) -> dict:
    data = dict(data)
    if session.game == Game.DAIFUGO:
        data["previous_daifugo"] = _previous_daifugo(session, seq)
    return data


def deal_preview(*, session: GameSession, data: dict, deal: Deal | None = None):
    """Score ``data`` without writing anything: as the session's next deal, or, with ``deal``,
    as that deal edited (a Daifugō round then sees the 大富豪 of the round before it, as
    ``deal_update`` will: one query)."""
    _check_players(session, data)
    data = _normalise(session, data, None if deal is None else deal.seq)
    return data, score(session.game, data, session_rules(session))


def _write_lines(deal: Deal, specs, *, locked: set[int] | None = None) -> None:
    session = deal.session
    # Score lines have no foreign-key constraint: the players they name are locked here as the
    # constraint's check would (a merge meanwhile waits, then moves these lines too), unless
    # the caller already holds them (``locked``).
    named = {s.player_id for s in specs}
    missing = named - (bulk.players_locked(named) if locked is None else locked)
    if missing:
        field = "seats" if session.game == Game.NAPOLEON else "order"
        raise fail(field, "player_unknown", value=str(min(missing)))
    # One INSERT of every column (``LINE_COLUMNS``), built by services.bulk: the ORM's
    # bulk_create of model instances took longer to build it than the database to run it.
    own = (deal.pk, session.pk, session.club_id, session.game, session.date)
    bulk.insert_once(ScoreLine, LINE_COLUMNS, [own + line_tuple(s) for s in specs])
    aggregates_apply(
        club_id=session.club_id, game=session.game, day=session.date, specs=specs, sign=+1
    )


def _remove_lines(deal: Deal) -> None:
    session = deal.session
    lines = list(deal.lines.all())
    aggregates_apply(
        club_id=session.club_id,
        game=session.game,
        day=session.date,
        specs=[spec_of(line) for line in lines],
        sign=-1,
    )
    deal.lines.all().delete()


def client_id_parse(value) -> uuid.UUID | None:
    """The deal id a phone sent (a UUID, as text or not), None when none was sent."""
    if value in (None, ""):
        return None
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise fail("client_id", "client_id_invalid") from None


def deal_recorded(*, session: GameSession, client_id) -> Deal | None:
    """The deal already recorded under ``client_id`` in ``session`` (marked
    ``already_recorded``), None if there is none. An id used in another session is refused:
    the phone sent a form of one session to another."""
    client_id = client_id_parse(client_id)
    if client_id is None:
        return None
    existing = Deal.objects.filter(client_id=client_id).first()
    if existing is None:
        return None
    if existing.session_id != session.pk:
        raise fail("client_id", "client_id_other_session")
    existing.already_recorded = True
    return existing


def deal_record(
    *, session: GameSession, data: dict, user=None, client_id=None, late: bool = False
) -> Deal:
    """Score and store the session's next deal.

    ``client_id`` is the id the phone gave the deal when its form was shown. A repeat (a double
    tap, a reply lost after the deal was stored, the phone's outbox sending again) returns the
    deal already recorded, marked ``already_recorded``, instead of recording it twice, also
    when both arrive at once; an id already used in another session is refused. (On SQLite a
    web request waits for a large import's write only briefly: ``busy.bounded_wait``.)
    ``late``: a tournament table's deal the staff count after its round was finished."""
    client_id = client_id_parse(client_id)
    try:
        deal = _deal_record(session=session, data=data, user=user, client_id=client_id, late=late)
    except IntegrityError:
        # The same id committed by a twin request between our check and our insert (the one
        # race path: the unique client_id is the guard): that deal, or the refusal naming
        # another session. Our transaction rolled back, so nothing of ours is left.
        existing = deal_recorded(session=session, client_id=client_id)
        if existing is not None:
            return existing
        raise
    return deal


@transaction.atomic
def _deal_record(
    *, session: GameSession, data: dict, user, client_id: uuid.UUID | None, late: bool = False
) -> Deal:
    # Lock the session row: concurrent scorekeepers get consecutive numbers, in commit order.
    # FOR NO KEY UPDATE (here and below): the club's row is locked too, but not against the
    # key-share locks that an import's inserts take on it (foreign keys), so a deal does not
    # wait for a large import's write transaction (docs/performance.md, "Imports").
    # With it, the session of the deal already recorded under ``client_id`` (a repeat), if any.
    session = (
        GameSession.objects.select_for_update(no_key=True)
        .select_related("club")
        .annotate(
            at_table=Exists(TournamentTable.objects.filter(session=OuterRef("pk"))),
            hooked=Exists(Webhook.objects.filter(club_id=OuterRef("club_id"))),  # no query more
            **_recorded_in(client_id),
        )
        .get(pk=session.pk)
    )
    if getattr(session, "recorded_in", None) is not None:
        return _repeat(session, client_id)
    locked = _players_checked_and_locked(session, data)
    if session.at_table:  # read with the lock: a club's own session needs no further query
        table_deal_check(session=session, data=data, late=late)
    data = _normalise(session, data, None)
    result = score(session.game, data, session_rules(session))
    seq = (Deal.objects.filter(session=session).aggregate(m=Max("seq"))["m"] or 0) + 1
    user = user if getattr(user, "is_authenticated", False) else None
    club_version_bump(club_id=session.club_id)  # the club's pages change with this deal
    deal = Deal.objects.create(
        session=session,
        club_id=session.club_id,
        game=session.game,
        seq=seq,
        data=data,
        outcome=outcome_dict(session.game, result),
        client_id=client_id,
        created_by=user,
        updated_by=user,
        **deal_columns(session.game, data),
    )
    specs = line_specs(session.game, data, result)
    _write_lines(deal, specs, locked=locked)
    ratings_deal_changed(deal=deal, created=True, lines=specs, at_table=session.at_table)
    webhooks_session_changed(session=session, hooked=session.hooked)
    deal.already_recorded = False
    return deal


def _recorded_in(client_id: uuid.UUID | None) -> dict:
    """The annotation naming the session of the deal recorded under ``client_id``, read with
    the session's lock instead of in a query of its own (none without an id)."""
    if client_id is None:
        return {}
    recorded = Deal.objects.filter(client_id=client_id).values("session_id")[:1]
    return {"recorded_in": Subquery(recorded)}


def _repeat(session: GameSession, client_id: uuid.UUID) -> Deal:
    """A repeat of a deal recorded under ``client_id`` (``deal_recorded``: that deal, or the
    refusal naming another session), found by the locked read: nothing is written."""
    if session.recorded_in != session.pk:
        raise fail("client_id", "client_id_other_session")
    existing = Deal.objects.get(client_id=client_id)  # in this session, which we hold locked
    existing.already_recorded = True
    return existing


def _summary(deal: Deal) -> str:
    from ..i18n import render_explanation  # display only

    names = {str(p.id): p.name for p in deal.session.club.players.all()}
    return " / ".join(render_explanation(deal.outcome.get("explanation", []), names))


def deal_rescore(
    *,
    deal: Deal,
    data: dict,
    user=None,
    reason: str = "",
    deleted: bool | None = None,
    follow: bool = True,
) -> Deal:
    """The one re-score of a stored deal: every change of a recorded deal goes through here
    (an edit, a delete or restore, a later Daifugō round whose 大富豪 changed, a player merge).

    ``data`` is scored under the rules the session was created with; the deal's score lines
    and aggregates are replaced (none while it is deleted; ``deleted`` sets that state), its
    derived columns (Napoleon, adjutant, bid, trump, 流れ) follow its data, its version moves
    on (an editor holding the old version is refused) and its history records ``user`` and
    ``reason``. With ``follow``, the later rounds of a Daifugō session are re-scored for 都落ち
    and the ratings brought up to date. The caller holds the deal locked in its transaction
    and has checked the change is allowed, and moves the club's data version."""
    session = deal.session
    data = _normalise(session, data, deal.seq)
    result = score(session.game, data, session_rules(session))
    if not deal.is_deleted:
        _remove_lines(deal)
    if deleted is not None:
        deal.is_deleted = deleted
    for name, value in deal_columns(session.game, data).items():
        setattr(deal, name, value)
    user = user if getattr(user, "is_authenticated", False) else None
    deal.data = data
    deal.outcome = outcome_dict(session.game, result)
    deal.version += 1
    deal.updated_by = user
    if user is not None:
        deal._history_user = user
    if reason:
        deal._change_reason = reason
    deal.save()
    if not deal.is_deleted:
        _write_lines(deal, line_specs(session.game, data, result))
    if follow:
        _rescore_following(deal, user=user)
        ratings_deal_changed(deal=deal)
    return deal


def _stale(deal: Deal):
    who = deal.updated_by.get_username() if deal.updated_by else "?"
    when = timezone.localtime(deal.updated_at).strftime("%Y-%m-%d %H:%M")
    return fail("version", "deal_stale", user=who, time=when, summary=_summary(deal))


def _locked(deal: Deal) -> Deal:
    return (
        Deal.objects.select_for_update(no_key=True).select_related("session__club").get(pk=deal.pk)
    )


@transaction.atomic
def deal_update(
    *, deal: Deal, data: dict, version: int | None, user=None, reason: str = ""
) -> Deal:
    """Re-score a deal with corrected input. ``version`` is the one the editor started from: if
    someone else saved in between, the edit is refused with what they changed; an edit that
    does not say which version it changes is refused too (it would overwrite blindly)."""
    deal = _locked(deal)
    if deal.is_deleted:
        raise fail("__all__", "deal_deleted")
    if version is None or isinstance(version, bool):
        raise fail("version", "version_missing")
    if int(version) != deal.version:
        raise _stale(deal)
    _check_players(deal.session, data)
    table_deal_check(session=deal.session, data=data, deal=deal)
    club_version_bump(club_id=deal.club_id)
    webhooks_session_changed(session=deal.session)
    return deal_rescore(deal=deal, data=data, user=user, reason=reason)


@transaction.atomic
def deal_delete(*, deal: Deal, user=None, version: int | None = None) -> Deal:
    """Take a deal out of every total. It stays in the history and can be restored. With
    ``version`` (the API's ``If-Match``), refused as an edit is when someone saved since."""
    deal = _locked(deal)
    if version is not None and int(version) != deal.version:
        raise _stale(deal)
    if deal.is_deleted:
        return deal
    club_version_bump(club_id=deal.club_id)
    webhooks_session_changed(session=deal.session)
    return deal_rescore(deal=deal, data=deal.data, user=user, deleted=True)


@transaction.atomic
def deal_restore(*, deal: Deal, user=None) -> Deal:
    deal = _locked(deal)
    if not deal.is_deleted:
        raise fail("__all__", "deal_not_deleted")
    table_deal_check(session=deal.session, data=deal.data, deal=deal)
    club_version_bump(club_id=deal.club_id)
    webhooks_session_changed(session=deal.session)
    return deal_rescore(deal=deal, data=deal.data, user=user, deleted=False)


def later_rounds_rescore(*, deal: Deal, user=None) -> None:
    """Each later live round of ``deal``'s Daifugō session re-reads its previous 大富豪 and is
    re-scored where it changed: what ``deal_rescore`` with ``follow`` does, for a caller that
    re-scores many rounds with ``follow=False`` (a merge; it replays the ratings itself)."""
    _rescore_following(deal, user=user)


def _rescore_following(deal: Deal, *, user) -> None:
    """Daifugō only: a changed round can change who was 大富豪, and so 都落ち in later rounds."""
    session = deal.session
    if session.game != Game.DAIFUGO:
        return
    later = Deal.objects.filter(session=session, is_deleted=False, seq__gt=deal.seq)
    for other in later.order_by("seq").select_for_update().select_related("session__club"):
        if _previous_daifugo(session, other.seq) == other.data.get("previous_daifugo"):
            continue
        deal_rescore(
            deal=other, data=other.data, user=user, follow=False,
            reason=reason_code("after", deal.seq),  # its history: "round N before it changed"
        )  # fmt: skip
