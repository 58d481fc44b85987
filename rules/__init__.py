"""Rule sets as data plus pure functions (no Django).

Each preset follows one source document, named by its title in ``RuleSet.source`` and in
docs/rules.md ("Sources"), which states every rule efuda applies; a club's rule set is a preset
plus checked options (``build_ruleset``).
"""

from rules.options import OPTION_SPECS, OptionSpec, build_ruleset, options_for
from rules.presets import PRESETS, get_preset
from rules.ruleset import DISCARD_POLICIES, RuleSet
from rules.tables import PointRow, PointTable, PointTableRow, point_row, point_table_rows
from rules.titles import DEFAULT_TITLE_POINTS, TITLE_LABELS, TITLES, daifugo_titles

__all__ = [
    "DEFAULT_TITLE_POINTS", "DISCARD_POLICIES", "OPTION_SPECS", "PRESETS", "TITLES",
    "TITLE_LABELS", "OptionSpec", "PointRow", "PointTable", "PointTableRow", "RuleSet",
    "build_ruleset", "daifugo_titles", "get_preset", "options_for", "point_row",
    "point_table_rows",
]  # fmt: skip
