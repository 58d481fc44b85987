"""Pytest plugin for the mutation run (scripts/mutation, docs/architecture.md "Mutation testing").

mutmut runs, for each mutant, the tests that called the mutated function in its first clean run.
The deal-service tests call the scoring core too, so without a scope every surviving mutant of
``scoring/`` would also run the database tests. This plugin keeps each mutant to the tests of its
own module (``SCOPES``): the pure modules are judged by the pure tests alone, and those run
without Django (``-p no:django --noconftest``: the pure tests need neither), which makes each
mutant about three times cheaper; the deal services' tests make their database from the models
(``--no-migrations``), as a mutant cannot change a migration.

Loaded by the mutation run only: ``[tool.mutmut] pytest_add_cli_args`` names it, and the fork
server imports it first (scripts/mutation-preload.txt) so that it can add the two options before
pytest starts. mutmut names the mutant in ``MUTANT_UNDER_TEST``
("scoring.napoleon.x_score_napoleon__mutmut_7"); outside a mutant (mutmut's clean and statistics
runs) nothing changes.

A function that runs only while the project is imported (the ranking's metric readers, the
presets' table builders) is charged by mutmut to whichever test ran first; when none of the tests
mutmut chose is in the mutant's scope, the whole scope runs instead.
"""

from __future__ import annotations

import functools
import os

import pytest

PURE = ("tests/scoring/", "tests/rules/")
DEALS = (
    "tests/services/test_deals.py",
    "tests/services/test_deal_refusals.py",
    "tests/services/test_deal_versions.py",  # each service moves the version itself
    "tests/hardening/test_client_id.py",
    "tests/accounts/test_merge.py",  # a merge re-scores the merged player's deals
)

# who reads, and what they may do and see (tournaments/reader.py, permissions.py)
ACCESS = (
    "tests/architecture/test_reader.py",
    "tests/views/test_club_for_request.py",
    "tests/views/test_permissions.py",
)
PAGE_CACHE = ("tests/public/test_page_cache.py", "tests/public/test_member_cache.py")
MEMBERS = ("tests/accounts/test_owners.py", "tests/accounts/test_leaving.py")
MERGE = (
    "tests/accounts/test_merge.py",
    "tests/accounts/test_merge_preview.py",
    "tests/accounts/test_undo.py",
)

# module prefix of a mutant -> (the test paths that may judge it, whether they are pure)
SCOPES: dict[str, tuple[tuple[str, ...], bool]] = {
    "scoring.": (PURE, True),
    "rules.": (PURE, True),
    "tournaments.ranking.": (("tests/selectors/test_ranking.py",), True),
    "tournaments.services.deals.": (DEALS, False),
    "tournaments.reader.": (ACCESS, False),
    "tournaments.permissions.": (ACCESS, False),
    "tournaments.selectors.visibility.": (("tests/selectors/test_visibility.py",), False),
    "tournaments.views.page_cache.": (PAGE_CACHE, False),
    "tournaments.services.cache.": (("tests/services/test_club_versions.py",), False),
    "tournaments.services.members.": (MEMBERS, False),
    "tournaments.services.merge.": (MERGE, False),
}


def scope(mutant: str) -> tuple[tuple[str, ...], bool] | None:
    """The test paths for ``mutant`` and whether they are pure; None outside the scopes."""
    for prefix, found in SCOPES.items():
        if mutant.startswith(prefix):
            return found
    return None


def _current() -> tuple[tuple[str, ...], bool] | None:
    return scope(os.environ.get("MUTANT_UNDER_TEST", ""))


def _scoped(main):
    @functools.wraps(main)
    def wrapper(args=None, plugins=None):
        found = _current()
        if found is not None and args is not None:
            pure = found[1]
            args = [*args, *(("-p", "no:django", "--noconftest") if pure else ("--no-migrations",))]
        return main(args, plugins)

    wrapper.mutation_scope = True
    return wrapper


if not getattr(pytest.main, "mutation_scope", False):
    pytest.main = _scoped(pytest.main)


def pytest_configure(config):
    found = _current()
    if found is not None:
        # only the scope's tests are even collected (the others may need Django)
        ours = [arg for arg in config.args if arg.startswith(found[0])]
        config.args[:] = ours or [path.rstrip("/") for path in found[0]]


def pytest_collection_modifyitems(config, items):
    found = _current()
    if found is None:
        return
    keep, drop = [], []
    for item in items:
        (keep if item.nodeid.startswith(found[0]) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
