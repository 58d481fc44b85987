"""What an import says: its messages, the problems it found, what it added."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.utils.translation import gettext, ngettext

from core.errors import EfudaError
from core.i18n import N_

from ...i18n import render_message, stored_params
from ...models import GameSession
from ..errors import make_fail

MESSAGES = {
    "empty_file": N_("The file is empty."),
    "bad_header": N_(
        "Unknown header. A Napoleon file has the columns %(napoleon)s (and optionally "
        "last_trick); a Daifugō file has the columns %(daifugo)s. Either may also have "
        "%(session)s."
    ),
    "header_missing": N_("The header lacks the columns %(missing)s (expected %(expected)s)."),
    "header_unknown": N_("The header has unknown columns %(unknown)s (expected %(expected)s)."),
    "header_duplicate": N_("The column %(column)s appears twice in the header."),
    "no_rows": N_("The file has a header but no results."),
    "column_count": N_("Columns on this line: %(found)s; in the header: %(expected)s."),
    "required": N_("This column must not be empty."),
    "date_invalid": N_(
        "“%(value)s” is not a date: write YYYY-MM-DD or YYYY/MM/DD, e.g. 2026-11-20."
    ),
    "suit_shift_jis": N_(
        "“%(value)s” is not a suit. This file was saved as Shift_JIS, which cannot hold ♠ ♥ ♦ ♣ "
        "(Excel writes them as “?”): write the suit letters S, H, D or C instead."
    ),
    "card_shift_jis": N_(
        "“%(value)s” is not a card. This file was saved as Shift_JIS, which cannot hold ♠ ♥ ♦ ♣ "
        "(Excel writes them as “?”): write the suit letters, e.g. SA, H10, D3 or C2."
    ),
    "number_invalid": N_("“%(value)s” is not a whole number of 0 or more."),
    "table_long": N_("A table label can be at most %(max)s characters."),
    "last_trick_invalid": N_("Write napoleon or allies (who won the last trick), not “%(value)s”."),
    "redeal_fields": N_(
        "With an empty napoleon the row is a redeal; leave bid, trump, called, adjutant, "
        "honours and discarded empty too."
    ),
    "rules_differ": N_(
        "A session (same date and table) has one rule set: line %(line)s uses “%(first)s”."
    ),
    "name_twice": N_("%(player)s is listed twice."),
    "code_invalid": N_(
        "A rule set's code is letters, digits, hyphens and underscores (at most 50), as the "
        "export wrote it."
    ),
    "notes_long": N_("Notes can be at most %(max)s characters."),
    "options_invalid": N_('Write the options as the export wrote them (e.g. {"min_bid": 12}).'),
    "preset_needed": N_("Options need the preset they change: fill in rules_preset too."),
    "preset_differs": N_(
        "The club's rule set “%(code)s” is based on %(club_preset)s; this file says %(preset)s. "
        "Give the file's rule set another code."
    ),
    "definition_differs": N_(
        "A session (same date and table) has one rule set: line %(line)s describes it differently."
    ),
    "changed_meanwhile": N_(
        "The club's players, rule sets or sessions changed while the file was being checked; "
        "nothing was imported. Import the file again."
    ),
}


import_error = make_fail(MESSAGES)


# Scoring-core fields that have another name in the file.
_FIELD_COLUMNS = {"seats": "players", "card": "called", "preset": "rules",
                  "previous_daifugo": "order", "deal": "players"}  # fmt: skip


WHOLE_FILE = ("file", "sheet")


class ImportProblem(NamedTuple):
    """One error: the file's line number (header = 1), the column, and the message as its msgid
    (``text``, English, marked with ``N_``) with its parameters (player keys already turned
    into names) and its code. It is rendered in the reader's language when read
    (``message``), so a job's problems read alike by an English and a Japanese owner.

    A problem stored by an older efuda (``[line, field, message]``) has its message rendered
    already and no code: it is shown as it was stored."""

    line: int
    field: str
    text: str
    params: dict | None = None
    code: str = ""

    @classmethod
    def of(cls, line: int, column: str, error: EfudaError, names=None) -> ImportProblem:
        return cls(line, column, error.message, stored_params(error.params, names), error.code)

    @classmethod
    def from_stored(cls, row) -> ImportProblem:
        """A problem as a job stores it (``stored()``), or an older job's ``[line, field,
        message]``."""
        if isinstance(row, dict):
            return cls(row["line"], row["field"], row["message"], row.get("params") or {},
                       row.get("code", ""))  # fmt: skip
        return cls(*row[:3])

    def stored(self) -> dict:
        return {"line": self.line, "field": self.field, "code": self.code,
                "message": self.text, "params": self.params or {}}  # fmt: skip

    @property
    def message(self) -> str:
        """The message in the active language (an older job's as it was stored)."""
        return render_message(self.text, self.params) if self.code else self.text

    def where(self) -> str:
        """Where to look, in words: a column by its name in the file's header; a problem of the
        whole file or its header line by the line alone (``file`` is no column)."""
        if self.field in WHOLE_FILE:
            return gettext("line %(line)s") % {"line": self.line}
        if self.field == "header":
            return gettext("line %(line)s (the header)") % {"line": self.line}
        return gettext("line %(line)s, column %(field)s") % {"line": self.line,
                                                              "field": self.field}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


def import_summary(
    *, game: str, deals: int, redeals: int, sessions: int, players: int, club: str = ""
) -> str:
    """What an import added, in the active language, each number with its own plural: Napoleon
    deals (and their redeals), Daifugō rounds (回戦), never "1 deals"."""
    parts = {
        "sessions": ngettext("%(n)s session", "%(n)s sessions", sessions) % {"n": sessions},
        "players": ngettext("%(n)s new player", "%(n)s new players", players) % {"n": players},
        "club": club,
    }
    if game == "daifugo":
        parts["rounds"] = ngettext("%(n)s Daifugō round", "%(n)s Daifugō rounds", deals) % {
            "n": deals}  # fmt: skip
        text = (
            gettext("Imported %(rounds)s in %(sessions)s into club %(club)s; %(players)s.")
            if club else gettext("Imported %(rounds)s in %(sessions)s; %(players)s.")
        )  # fmt: skip
    else:
        parts["deals"] = ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}
        parts["redeals"] = ngettext("%(n)s redeal", "%(n)s redeals", redeals) % {"n": redeals}
        text = (
            gettext("Imported %(deals)s (%(redeals)s) in %(sessions)s into club %(club)s; "
                    "%(players)s.") if club
            else gettext("Imported %(deals)s (%(redeals)s) in %(sessions)s; %(players)s.")
        )  # fmt: skip
    return text % parts


class ImportFailed(Exception):  # noqa: N818 - an outcome, named as the spec names it
    """Nothing was imported; ``problems`` lists every error found, by line."""

    def __init__(self, problems: Iterable[ImportProblem]):
        self.problems = sorted(problems, key=lambda p: (p.line, p.field))
        super().__init__("\n".join(str(p) for p in self.problems))


def failed(line: int, column: str, error: EfudaError) -> ImportFailed:
    """The import stops at its first problem (an empty file, a wrong header…)."""
    return ImportFailed([ImportProblem.of(line, column, error)])


class ChangedError(Exception):
    """The club changed between the check and the write: check again."""


@dataclass
class ImportReport:
    game: str
    sessions: list[GameSession] = field(default_factory=list)
    deals: int = 0
    redeals: int = 0
    players_created: int = 0
    source: str = ""  # how the file was read (translated), e.g. "Shift_JIS (CP932)"
    source_kind: str = ""  # the same as a key of ENCODING_LABELS (a job stores this)
    sheet: str = ""  # the workbook's sheet that was read


@dataclass
class Collector:
    """Every problem found so far, the file's names for the player keys in their messages."""

    names: dict[str, str] = field(default_factory=dict)  # player key -> display name
    problems: list[ImportProblem] = field(default_factory=list)
    shift_jis: bool = False  # the file was read as Shift_JIS: suits must be letters

    def add(self, line: int, error: EfudaError, column: str | None = None) -> None:
        name = column or _FIELD_COLUMNS.get(error.field, error.field)
        if self.shift_jis and error.code in ("invalid_suit", "invalid_card"):
            code = "suit_shift_jis" if error.code == "invalid_suit" else "card_shift_jis"
            error = import_error(error.field, code, **error.params)
        self.problems.append(ImportProblem.of(line, name, error, self.names))
