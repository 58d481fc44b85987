"""A confirmed deal survives a crash: record it through a real gunicorn server, SIGKILL the
server right after the response, start it again, and the deal is there (exactly once).

Uses PostgreSQL when DATABASE_URL points at it (a scratch database next to the test one),
otherwise an SQLite file; the server runs the production settings behind a simulated proxy.
"""

import json
import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

from loadtest.server import PYTHON, ROOT, Server, prepare, server_env


@pytest.fixture
def database_url(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'restart.sqlite3'}"
        return
    import psycopg

    name = f"efuda_restart_{uuid.uuid4().hex[:8]}"
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SQL = (
    "SELECT COUNT(DISTINCT d.id), COUNT(l.id) FROM tournaments_deal d "
    "LEFT JOIN tournaments_scoreline l ON l.deal_id = d.id WHERE d.client_id = {mark}"
)


def _deals_in_db(url, key):
    """(deals, score lines) stored under ``key``, read straight from the database files."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            # Django keeps a UUIDField in SQLite as 32 hex digits.
            return tuple(conn.execute(SQL.format(mark="?"), (key.hex,)).fetchone())
    import psycopg

    with psycopg.connect(url) as conn:
        return tuple(conn.execute(SQL.format(mark="%s"), (key,)).fetchone())


def test_confirmed_deal_survives_kill_9(tmp_path, database_url):
    env = server_env(database_url, tmp_path / "static")
    prepare(env, skip_admin_static=True)
    import subprocess

    seeded = subprocess.run(
        [PYTHON, "-m", "loadtest.seed", "--scorekeepers", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert seeded.returncode == 0, seeded.stderr[-2000:]
    world = json.loads(seeded.stdout.strip().splitlines()[-1])
    keeper = world["keepers"][0]
    ids = world["players"][:5]
    key = uuid.uuid4()
    fields = {
        "seats": ids,
        "napoleon": ids[0],
        "bid": 14,
        "trump": "S",
        "called_suit": "S",
        "called_rank": "A",
        "adjutant": ids[1],
        "honours": 15,
        "discarded": 0,
        "client_id": str(key),
        "action": "save",
    }

    server = Server(env, workers=2, log=tmp_path / "gunicorn.log").start()
    try:
        client = server.client()
        client.login(keeper["username"], keeper["password"])
        page = client.get(keeper["entry"])
        assert page.status == 200
        response = client.post(
            keeper["entry"], {"csrfmiddlewaretoken": client.token(page), **fields}
        )
        assert response.status == 302, response.text[:2000]
        server.kill()  # SIGKILL right after the confirmation reached the phone
    finally:
        server.kill()
    assert server.process.returncode == -9

    assert _deals_in_db(database_url, key) == (1, 5)
    with Server(env, workers=2, log=tmp_path / "gunicorn.log") as again:
        client = again.client()
        page = client.get(keeper["page"])
        assert page.status == 200
        assert "Aoi" in page.text and 'id="deal-1"' in page.text
        # The phone did not see the answer and sends the same form again: still one deal.
        client.login(keeper["username"], keeper["password"])
        entry = client.get(keeper["entry"])
        response = client.post(
            keeper["entry"], {"csrfmiddlewaretoken": client.token(entry), **fields}
        )
        assert response.status == 302
    assert _deals_in_db(database_url, key) == (1, 5)
