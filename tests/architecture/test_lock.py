"""The install is locked: what runs the suite is exactly what requirements.txt names.

A fresh clone installs the lock (scripts/lib.sh, install_python) with pip's --require-hashes, so
a release made last night changes nothing until scripts/lock upgrades the lock and the suite
passes on it.
"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def _locked() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = PIN.match(line)
        if match:
            pins[canonicalize_name(match[1])] = match[2]
    return pins


def _direct() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {Requirement(r).name for r in project["dependencies"]}
    for group in project["optional-dependencies"].values():
        names |= {Requirement(r).name for r in group}
    return {canonicalize_name(n) for n in names}


def test_every_line_of_the_lock_is_pinned_with_hashes():
    text = (ROOT / "requirements.txt").read_text()
    entries = re.split(r"\n(?=[A-Za-z])", text)
    pinned = [e for e in entries if PIN.match(e)]
    assert len(pinned) == len(_locked()) > 50
    for entry in pinned:
        assert "--hash=sha256:" in entry, entry.splitlines()[0]
    assert "://" not in "".join(line for line in text.splitlines() if not line.startswith("#"))


def test_every_dependency_of_pyproject_is_locked():
    assert _direct() - set(_locked()) == set()


def test_the_installed_versions_are_the_locked_ones():
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    differ = {
        name: (version, installed.get(name))
        for name, version in _locked().items()
        if installed.get(name) != version
    }
    assert differ == {}, "installed differs from requirements.txt: run scripts/test again"
