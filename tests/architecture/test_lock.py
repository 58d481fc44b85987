"""The install is locked: what runs the suite is exactly what uv.lock names.

A fresh clone installs the lock (scripts/install, through scripts/lib.sh's install_python) with
`uv sync --frozen`: each file checked against its hash, the lock never re-resolved, anything it
does not name removed. A release made last night changes nothing until scripts/lock upgrades the
lock and the suite passes on it.
"""

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = tomllib.loads((ROOT / "uv.lock").read_text())
VENV = Path(sys.prefix)


def _locked() -> dict[str, str]:
    return {
        canonicalize_name(p["name"]): p["version"]
        for p in LOCK["package"]
        if "registry" in p["source"]
    }


def _direct() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {Requirement(r).name for r in project["dependencies"]}
    for group in project["optional-dependencies"].values():
        names |= {Requirement(r).name for r in group}
    return {canonicalize_name(n) for n in names}


def test_every_package_comes_from_the_public_index_with_hashes():
    assert LOCK["version"] == 1
    registry = [p for p in LOCK["package"] if "registry" in p["source"]]
    assert {p["name"] for p in LOCK["package"]} - {p["name"] for p in registry} == {"efuda"}
    assert len(registry) > 50
    for package in registry:
        assert package["source"]["registry"] == "https://pypi.org/simple", package["name"]
        files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
        assert files, package["name"]
        for file in files:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", file["hash"]), package["name"]
            assert file["url"].startswith("https://files.pythonhosted.org/"), file["url"]


def test_every_dependency_of_pyproject_is_locked():
    assert _direct() - set(_locked()) == set()
    assert {"uv", "pip"} <= set(_locked())


def test_the_installed_versions_are_the_locked_ones_and_nothing_else():
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    # (the project itself is not in the lock as a package: an efuda.egg-info left in the
    # checkout by a build shows it as installed)
    installed.pop("efuda", None)
    differ = {
        name: (version, _locked().get(name))
        for name, version in installed.items()
        if _locked().get(name) != version
    }
    assert differ == {}, "installed differs from uv.lock: run scripts/install"
    assert _direct() <= set(installed)


def test_uv_finds_the_environment_in_step_with_the_lock():
    uv = VENV / "bin" / "uv"
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV), "UV_PYTHON_DOWNLOADS": "never"}
    command = [str(uv), "sync", "--frozen", "--all-extras", "--check", "--python", sys.executable]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_bootstrap_line_names_every_file_of_the_locked_uv():
    command = [sys.executable, str(ROOT / "scripts/lockfile.py"), "uv"]
    line = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
    (uv,) = [p for p in LOCK["package"] if p["name"] == "uv"]
    assert line[0] == f"uv=={uv['version']}"
    assert line[1:] == [f"--hash={wheel['hash']}" for wheel in uv["wheels"]]


def test_the_lock_answers_pyproject_as_it_is():
    """A range changed in pyproject.toml without `scripts/lock` fails here, not on a server."""
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    command = [str(VENV / "bin" / "uv"), "lock", "--check", "--offline"]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
