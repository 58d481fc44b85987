"""The Japanese catalogue: complete, not fuzzy, placeholders intact, accepted by msgfmt.

Japanese is the interface's first language, so an untranslated msgid would show English to
most users. New msgids appear whenever code changes; after ``makemessages`` they land here
empty, and these tests fail until somebody translates them.
"""

import ast
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "ja" / "LC_MESSAGES" / "django.po"

# %(name)s, %s, %d, %% ... as Python's %-formatting reads them; {name} for str.format users.
PYTHON_FORMAT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")
BRACES = re.compile(r"\{[^{}]*\}")


@dataclass
class Entry:
    line: int
    flags: set = field(default_factory=set)
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict = field(default_factory=dict)  # {None: str} or {0: str, 1: str, ...}
    obsolete: bool = False

    @property
    def label(self) -> str:
        return f"line {self.line}: {self.msgid!r}"


def _unquote(text: str) -> str:
    return ast.literal_eval(text)  # a PO string is a C string; Python reads the same escapes


def parse_po(path: Path) -> list[Entry]:
    """A small PO reader: enough for what xgettext/msgmerge write."""
    entries: list[Entry] = []
    current: Entry | None = None
    target = None  # (attribute, key) the next continuation line appends to

    def finish():
        nonlocal current
        if current is not None and (current.msgid or current.msgstr):
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            continue
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#"):
            if current is not None and current.msgstr:
                finish()
            if current is None:
                current = Entry(line=number)
            if line.startswith("#,"):
                current.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        if current is None or (line.startswith(("msgctxt", "msgid ")) and current.msgstr):
            finish()
            current = Entry(line=number)
        current.obsolete = current.obsolete or obsolete
        if line.startswith('"'):
            attribute, key = target
            if attribute == "msgstr":
                current.msgstr[key] += _unquote(line)
            else:
                setattr(current, attribute, getattr(current, attribute) + _unquote(line))
            continue
        keyword, _, value = line.partition(" ")
        match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if match:
            target = ("msgstr", int(match.group(1)))
            current.msgstr[target[1]] = _unquote(value)
        elif keyword == "msgstr":
            target = ("msgstr", None)
            current.msgstr[None] = _unquote(value)
        elif keyword in ("msgid", "msgid_plural", "msgctxt"):
            target = (keyword, None)
            setattr(current, keyword, _unquote(value))
        else:
            raise AssertionError(f"{path}:{number}: cannot read {raw!r}")
    finish()
    return entries


@pytest.fixture(scope="module")
def entries():
    assert PO.exists(), f"{PO} is missing: run manage.py makemessages -l ja"
    return parse_po(PO)


@pytest.fixture(scope="module")
def messages(entries):
    return [e for e in entries if e.msgid and not e.obsolete]


def test_header_is_japanese_utf8_and_not_fuzzy(entries):
    header = next(e for e in entries if e.msgid == "" and not e.obsolete)
    text = header.msgstr[None]
    assert "fuzzy" not in header.flags, "a fuzzy header is skipped by msgfmt (charset lost)"
    assert "Language: ja\n" in text
    assert "charset=UTF-8" in text
    assert "Plural-Forms: nplurals=1; plural=0;" in text


def test_catalogue_is_not_empty(messages):
    assert len(messages) > 300
    assert any(e.msgid == "Log in" for e in messages)


def test_every_message_is_translated(messages):
    untranslated = [e.label for e in messages if not all(v.strip() for v in e.msgstr.values())]
    assert not untranslated, "untranslated:\n" + "\n".join(untranslated)


def test_no_fuzzy_entries(messages):
    fuzzy = [e.label for e in messages if "fuzzy" in e.flags]
    assert not fuzzy, "fuzzy (check, then remove the flag):\n" + "\n".join(fuzzy)


def test_plural_entries_have_the_one_japanese_form(messages):
    for e in messages:
        if e.msgid_plural is not None:
            assert set(e.msgstr) == {0}, e.label


def _placeholders(text: str) -> list[str]:
    return sorted(p for p in PYTHON_FORMAT.findall(text) if p != "%%")


def test_python_format_placeholders_are_kept(messages):
    wrong = []
    for e in messages:
        if "python-format" not in e.flags:
            continue
        # Plural msgids may drop the number in the singular; compare with the plural form.
        expected = _placeholders(e.msgid_plural if e.msgid_plural is not None else e.msgid)
        for translated in e.msgstr.values():
            # Named placeholders may move and the count may be omitted in a plural form.
            got = _placeholders(translated)
            if e.msgid_plural is not None:
                if not set(got) <= set(expected):
                    wrong.append(f"{e.label}: {got} vs {expected}")
            elif sorted(set(got)) != sorted(set(expected)):
                wrong.append(f"{e.label}: {got} vs {expected}")
    assert not wrong, "\n".join(wrong)


def test_brace_placeholders_and_markup_are_kept(messages):
    wrong = []
    for e in messages:
        for translated in e.msgstr.values():
            if sorted(BRACES.findall(e.msgid)) != sorted(BRACES.findall(translated)):
                wrong.append(f"{e.label}: braces")
            for tag in ("<bdi>", "</bdi>"):
                if e.msgid.count(tag) != translated.count(tag):
                    wrong.append(f"{e.label}: {tag}")
    assert not wrong, "\n".join(wrong)


def test_game_terms_are_used(messages):
    """The club's own words, not literal translations."""
    table = {e.msgid: e.msgstr.get(None) for e in messages}
    expected = {
        "Napoleon": "ナポレオン",
        "Adjutant": "副官",
        "Allies": "連合軍",
        "Trump": "切り札",
        "Called card": "指名カード",
        "Honours": "絵札",
        "Napoleon army": "ナポレオン軍",
        "Grand millionaire": "大富豪",
        "Millionaire": "富豪",
        "Commoner": "平民",
        "Poor": "貧民",
        "Grand pauper": "大貧民",
        "forbidden finish": "反則上がり",
        "Scorekeeper": "記録係",
        "Owner": "オーナー",
        "Member": "メンバー",
        "Log in": "ログイン",
        "Log out": "ログアウト",
        "Daifugō": "大富豪",
    }
    for msgid, msgstr in expected.items():
        if msgid in table:
            assert table[msgid] == msgstr, msgid


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
def test_msgfmt_check_accepts_the_catalogue(tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(PO)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
