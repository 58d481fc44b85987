"""uv's own line from uv.lock, for scripts/lib.sh: a fresh venv installs the locked uv with pip,
checked against the lock's hashes, and uv then installs the rest of the lock.

    python scripts/lockfile.py uv     ->  uv==VERSION --hash=sha256:... (one per wheel)

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

LOCK = Path(__file__).resolve().parents[1] / "uv.lock"


def locked_line(name: str) -> str:
    (package,) = [p for p in tomllib.loads(LOCK.read_text())["package"] if p["name"] == name]
    hashes = " ".join(f"--hash={wheel['hash']}" for wheel in package["wheels"])
    return f"{name}=={package['version']} {hashes}"


if __name__ == "__main__":
    print(locked_line(sys.argv[1]))
