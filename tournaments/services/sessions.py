"""Sessions: one table's deals on one day under one rule set."""

from django.db import IntegrityError, transaction

from ..models import Club, ClubRuleSet, Game, GameSession
from ..selectors.rulesets import ruleset_rules, ruleset_snapshot
from .cache import club_version_bump
from .errors import fail
from .names import clean_name
from .rulesets import ruleset_resolve
from .webhooks import webhooks_session_changed


def session_create(
    *, club: Club, ruleset: ClubRuleSet, date, table: str = "A", user=None, notes: str = ""
) -> GameSession:
    table = clean_name(table, field="table")[:40] or "A"
    ruleset_rules(ruleset)  # a rule set that no longer validates cannot start a session
    game = ruleset.game
    try:
        with transaction.atomic():
            club_version_bump(club_id=club.pk)
            session = GameSession.objects.create(
                club=club,
                game=game,
                date=date,
                table=table,
                ruleset=ruleset,
                rules_snapshot=ruleset_snapshot(ruleset),
                notes=notes,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
            webhooks_session_changed(session=session)
            return session
    except IntegrityError:
        # The same table on the same day: say which session it is, so the page can open it.
        existing = GameSession.objects.filter(club=club, game=game, date=date, table=table).first()
        raise fail(
            "table", "session_exists", game=str(Game(game).label), table=table, date=str(date),
            session=existing.pk if existing else None,
        ) from None  # fmt: skip


@transaction.atomic
def session_start(*, club: Club, rules_code: str, date, table: str = "A", user=None) -> GameSession:
    """A new session under the club rule set (or preset) ``rules_code``: resolving a preset
    creates the club's own rule set, in the same transaction as the session, so a refused
    session leaves no rule set behind."""
    ruleset = ruleset_resolve(club=club, code=rules_code)
    return session_create(club=club, ruleset=ruleset, date=date, table=table, user=user)
