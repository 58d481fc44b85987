"""The results file's columns (docs/import-format.md), shared by the import that reads them and the
export that writes them, so the two can never disagree about a column's name."""

NAPOLEON_COLUMNS = (
    "date", "table", "rules", "players", "napoleon", "bid", "trump", "called", "adjutant",
    "honours", "discarded",
)  # fmt: skip
DAIFUGO_COLUMNS = ("date", "table", "rules", "order", "forbidden")

# Optional columns. ``last_trick`` belongs to a Napoleon deal. The others describe the session:
# the rule set it was played under (so a file carries a club's own rule sets into a club that
# does not have them yet, and a session keeps the options it was played with) and its notes.
NAPOLEON_DEAL_OPTIONAL = ("last_trick",)
SESSION_OPTIONAL = ("rules_name", "rules_preset", "rules_options", "notes")
NAPOLEON_OPTIONAL = NAPOLEON_DEAL_OPTIONAL + SESSION_OPTIONAL
DAIFUGO_OPTIONAL = SESSION_OPTIONAL

NAPOLEON_EXPORT = NAPOLEON_COLUMNS + NAPOLEON_OPTIONAL
DAIFUGO_EXPORT = DAIFUGO_COLUMNS + DAIFUGO_OPTIONAL

NAME_SEPARATOR = ";"
# A spreadsheet shows a text that starts like a formula as text when a quote precedes it; the
# export writes such cells so (tournaments/exports.py) and the import reads them without it.
FORMULA_START = tuple("=+-@\t\r＝＋－＠")


def unquote(cell: str) -> str:
    """A cell as the export meant it: ``'=x`` (a formula-like text kept as text) is ``=x``."""
    if cell.startswith("'") and cell[1:2] and cell[1:2] in FORMULA_START:
        return cell[1:]
    return cell
