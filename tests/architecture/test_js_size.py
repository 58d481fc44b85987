"""No browser module past 500 lines: every script of efuda's own in static/js/ (the vendored
files in static/vendor/ are not ours) stays small enough to read as one piece of meaning, like
the Python modules. A file that grows past the limit is split along what it does (the entry
form's preview, its tap controls, its problems; the outbox's list, its form, its sending)."""

from pathlib import Path

from django.conf import settings

JS = Path(settings.BASE_DIR) / "static" / "js"
LIMIT = 500


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_scripts_are_where_the_limit_looks():
    names = {p.name for p in JS.rglob("*.js")}
    assert {"entry.js", "outbox.js", "outbox-core.js", "sw.js"} <= names


def test_no_script_in_static_js_passes_500_lines():
    long = {str(p.relative_to(JS)): n for p in sorted(JS.rglob("*.js")) if (n := lines(p)) > LIMIT}
    assert not long, f"static/js files past {LIMIT} lines (split them by meaning): {long}"
