"""Refuse a SECRET_KEY that anyone can read: one written anywhere in the repository.

A key copied from ``deploy/efuda.env.example``, the docs or a test is public, so sessions and
password-reset links signed with it could be forged. The production settings call
``published_key_file`` at start-up and refuse to run; ``manage.py check --deploy`` reports the
same as error ``efuda.E001``. Pure Python (no Django), so the settings can use it.
"""

from __future__ import annotations

import os
from pathlib import Path

SKIP_DIRS = {
    ".git", ".venv", "venv", "node_modules", "staticfiles", "media", "__pycache__",
    ".ruff_cache", ".pytest_cache", ".mypy_cache", ".hypothesis",
}  # fmt: skip
SKIP_SUFFIXES = {
    ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".mo", ".woff", ".woff2", ".ttf", ".otf",
    ".sqlite3", ".sqlite3-wal", ".sqlite3-shm", ".gz", ".zip", ".xlsx", ".pyc",
}  # fmt: skip
MAX_FILE = 4 * 1024 * 1024


def published_key_file(key: str, base_dir: Path) -> Path | None:
    """The first file under ``base_dir`` that contains ``key``, or None."""
    needle = key.encode("utf-8")
    if not needle:
        return None
    for root, dirs, files in os.walk(base_dir):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            path = Path(root) / name
            if path.suffix.lower() in SKIP_SUFFIXES or ".sqlite3" in name:
                continue
            try:
                if path.stat().st_size > MAX_FILE:
                    continue
                if needle in path.read_bytes():
                    return path
            except OSError:
                continue
    return None


def refusal(key: str, base_dir: Path) -> str | None:
    """Why ``key`` must not be used in production (None: it may)."""
    advice = "e.g. python -c 'import secrets; print(secrets.token_urlsafe(64))'"
    if key.startswith("insecure-") or len(key) < 50 or len(set(key)) < 5:
        return (
            "Set SECRET_KEY to a long random value in production (at least 50 characters), "
            + advice
            + "."
        )
    found = published_key_file(key, base_dir)
    if found is not None:
        return (
            f"SECRET_KEY is the example key or another key written in the repository "
            f"({found.relative_to(base_dir)}): anyone can read it. Generate your own, {advice}."
        )
    return None
