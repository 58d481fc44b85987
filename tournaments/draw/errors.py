"""Errors of the draw. A user error is shown (translated) to the staff; anything else is a bug."""

from core.errors import EfudaError
from core.i18n import N_

TOO_FEW = N_("Too few players for a table (%(count)s): this rule set needs at least %(min)s.")
UNKNOWN_METHOD = N_("“%(method)s” is not a seating method.")


class DrawUserError(EfudaError):
    """A draw that cannot be made as asked (too few players, unknown method)."""

    def __init__(self, code: str, message: str, **params):
        super().__init__("draw", code, message, params)
