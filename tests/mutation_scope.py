"""Pytest plugin for the mutation run (scripts/mutation, docs/architecture.md "Mutation testing").

mutmut runs, for each mutant, the tests that called the mutated function in its first clean run.
The deal-service tests call the scoring core too, so without a scope every surviving mutant of
``scoring/`` would also run the database tests. This plugin keeps each mutant to the tests of its
own module (``SCOPES``): the pure modules are judged by the pure tests alone.

Loaded only by the mutation run (``[tool.mutmut] pytest_add_cli_args``); mutmut names the mutant
in ``MUTANT_UNDER_TEST`` ("scoring.napoleon.x_score_napoleon__mutmut_7"). Outside a mutant
(mutmut's clean and statistics runs) nothing is deselected.

A function that runs only while the project is imported (the ranking's metric readers, the
presets' table builders) is charged by mutmut to whichever test ran first; when none of the tests
mutmut chose is in the mutant's scope, the whole scope runs instead.
"""

from __future__ import annotations

import os

PURE = ("tests/scoring/", "tests/rules/")
DEALS = (
    "tests/services/test_deals.py",
    "tests/services/test_deal_refusals.py",
    "tests/hardening/test_client_id.py",
    "tests/accounts/test_merge.py",  # a merge re-scores the merged player's deals
)

# module prefix of a mutant -> the test paths that may judge it
SCOPES: dict[str, tuple[str, ...]] = {
    "scoring.": PURE,
    "rules.": PURE,
    "tournaments.ranking.": ("tests/selectors/test_ranking.py",),
    "tournaments.services.deals.": DEALS,
}


def scope(mutant: str) -> tuple[str, ...] | None:
    """The test paths for ``mutant``, None when it is not a mutant of a scoped module."""
    for prefix, paths in SCOPES.items():
        if mutant.startswith(prefix):
            return paths
    return None


def pytest_configure(config):
    paths = scope(os.environ.get("MUTANT_UNDER_TEST", ""))
    if paths is not None and not any(arg.startswith(paths) for arg in config.args):
        config.args[:] = [path.rstrip("/") for path in paths]


def pytest_collection_modifyitems(config, items):
    paths = scope(os.environ.get("MUTANT_UNDER_TEST", ""))
    if paths is None:
        return
    keep, drop = [], []
    for item in items:
        (keep if item.nodeid.startswith(paths) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
