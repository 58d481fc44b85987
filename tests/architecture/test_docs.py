"""The documentation says what the code does: every path it names exists, and every command is
listed where a reader looks for commands (docs/architecture.md, the README's table)."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
TOP = ("tournaments", "scoring", "rules", "core", "ratings", "config", "templates", "static",
       "tests", "docs", "scripts", "deploy", "loadtest", "locale")  # fmt: skip
CODE_SPAN = re.compile(r"`([A-Za-z0-9_.\-/]+)`")
COMMANDS = sorted(
    p.stem
    for p in (ROOT / "tournaments" / "management" / "commands").glob("*.py")
    if not p.stem.startswith("_")
)


def test_every_path_the_docs_name_exists():
    missing = []
    for doc in DOCS:
        for match in CODE_SPAN.finditer(doc.read_text(encoding="utf-8")):
            text = match.group(1)
            if "/" not in text or text.split("/", 1)[0] not in TOP:
                continue
            path = text.split("::", 1)[0].rstrip("/")
            if "<" in path or "*" in path:
                continue
            if not (ROOT / path).exists():
                missing.append(f"{doc.name}: {text}")
    assert not missing, "the docs name files that do not exist:\n" + "\n".join(missing)


def test_every_command_is_in_the_architecture_list():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = text[text.index("management/commands/") :].split("templates/", 1)[0]
    missing = [c for c in COMMANDS if not re.search(rf"\b{c}\b", listed)]
    assert not missing, f"docs/architecture.md does not list: {missing}"


def test_every_command_but_makemessages_is_in_the_readme_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Commands") :].split("\n## ", 1)[0]
    # makemessages is Django's own, extended (it extracts the core's N_ markers too).
    missing = [c for c in COMMANDS if c != "makemessages" and f"manage.py {c}" not in table]
    assert not missing, f"README's command table does not list: {missing}"
