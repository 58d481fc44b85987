"""The repository stands alone: no file points at documents kept outside it.

Every rule efuda follows is stated in docs/rules.md, which names each source document by its
title; code and docs refer to those documents by title or short name, never by a path or file
name outside the repository.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache",
             "node_modules", "staticfiles", "media", "var"}  # fmt: skip
SKIP_SUFFIXES = {".mo", ".pyc", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".woff", ".woff2",
                 ".ttf", ".sqlite3"}  # fmt: skip

# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            "shared" + "/",  # any path into a shared folder
            r"\.\./" + "shared",
            "RULES" + r"\.md",
            "STYLE" + r"\.md",
            r"\b0[0-9]{2}_[0-9a-f]{16}" + r"\.txt",  # a source document's file name
            r"\b[Ss]eeds?" + r" 0[0-9]{2}\b",  # a document by its file number ("seed" + " 000")
            r"\b[Ss]eeds?" + "/",
        ]
    )
)


def _files():
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if path.is_dir() or SKIP_DIRS.intersection(rel.parts) or path.suffix in SKIP_SUFFIXES:
            continue
        yield rel, path


def test_no_file_points_outside_the_repository():
    offenders = []
    for rel, path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{rel}:{number}: {line.strip()[:100]}")
    assert not offenders, (
        "The repository must stand alone: state the rule in docs/rules.md and name its source "
        "document by title instead of pointing outside:\n  " + "\n  ".join(offenders)
    )


def test_the_pattern_catches_each_kind_of_reference():
    for text in (
        "see shared" + "/" + "RULES" + ".md",
        "the " + "seed" + " 000 table",
        "Seeds" + " 003, 004",
        "../" + "shared" + "/" + "see" + "ds",
        "000_1128356349560f96" + ".txt",
    ):
        assert OUTSIDE.search(text), text
    assert not OUTSIDE.search("a draw seed 7; 10 seed values per row; shared rank")


def test_rules_page_names_every_source_by_its_title():
    import rules

    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for preset in rules.PRESETS.values():
        assert preset.source in page, preset.code
