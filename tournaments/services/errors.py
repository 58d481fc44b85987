"""User-facing errors raised by the app's own services (same class as the scoring core's)."""

from core.errors import EfudaError
from core.i18n import N_

MESSAGES = {
    "player_name_empty": N_("A player needs a name."),
    "player_name_long": N_("A player name can be at most %(max)s characters."),
    "player_name_control": N_("The name “%(name)s” contains invisible control characters."),
    "player_name_taken": N_("The club already has a player called “%(name)s”."),
    "player_unknown": N_("%(value)s is not a player of this club."),
    "session_exists": N_("There is already a %(game)s session at table “%(table)s” on %(date)s."),
    "ruleset_unknown": N_("“%(code)s” is neither a rule set of this club nor a preset."),
    "ruleset_game": N_("Rule set “%(code)s” is for %(expected)s, not %(game)s."),
    "ruleset_name_needed": N_("Give the rule set a name, e.g. ハウスルール."),
    "deal_stale": N_(
        "This deal was changed by %(user)s at %(time)s while you were editing it "
        "(now: %(summary)s). Reload it and make your change again."
    ),
    "version_missing": N_(
        "This change does not say which saved version of the deal it corrects, so it could "
        "overwrite someone else's change. Open the deal again and make your change there."
    ),
    "deal_deleted": N_("This deal has been deleted; restore it before editing."),
    "deal_not_deleted": N_("This deal is not deleted."),
    "client_id_invalid": N_(
        "This entry form is damaged (its deal id is not valid). Reload the page and enter the "
        "deal again."
    ),
    # Nothing of that session (it may be another club's, or a hidden table's): only that it
    # exists elsewhere.
    "client_id_other_session": N_(
        "This entry was already recorded in another session, so it is not recorded here. If it "
        "belongs here, reload this entry page and enter it again."
    ),
    "club_name_empty": N_("A club needs a name."),
    "club_slug_taken": N_("The address “%(slug)s” is taken; choose another."),
}


def make_fail(messages: dict[str, str]):
    """A ``fail(field, code, **params)`` for a module's own message table.

    ``field`` and ``code`` are positional-only, so a message parameter may be called ``code``.
    """

    def fail(field: str, code: str, /, **params) -> EfudaError:
        return EfudaError(field=field, code=code, message=messages[code], params=params)

    return fail


fail = make_fail(MESSAGES)
