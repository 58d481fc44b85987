"""A tiny browser for scripts and tests: cookies, CSRF tokens, logins and form posts over one
keep-alive connection, using only the standard library (no third-party HTTP client).

Talks to a server on loopback. ``forwarded_https=True`` sends ``X-Forwarded-Proto: https`` as the
TLS proxy in front of gunicorn would, so production settings (secure cookies, SSL redirect,
strict CSRF origin checks) are exercised as deployed.
"""

from __future__ import annotations

import http.client
import re
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


class WebClient:
    def __init__(
        self, host: str, port: int, *, forwarded_https: bool = False, timeout: float = 30.0
    ):
        self.host, self.port, self.timeout = host, port, timeout
        self.forwarded_https = forwarded_https
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None

    # --- plumbing ------------------------------------------------------------------------
    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> Response:
        head = {"Host": f"{self.host}:{self.port}", "User-Agent": "efuda-webclient"}
        if self.forwarded_https:
            head["X-Forwarded-Proto"] = "https"
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        head.update(headers or {})
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                conn = self._connection()
                conn.request(method, path, body=body, headers=head)
                raw = conn.getresponse()
                data = raw.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed meanwhile: reconnect once.
                self.close()
                if attempt == 2:
                    raise
        elapsed = time.perf_counter() - started
        for header, value in raw.getheaders():
            if header.lower() == "set-cookie":
                cookie = SimpleCookie()
                cookie.load(value)
                for key, morsel in cookie.items():
                    if morsel["max-age"] == "0" or not morsel.value:
                        self.cookies.pop(key, None)
                    else:
                        self.cookies[key] = morsel.value
        if raw.getheader("connection", "").lower() == "close":
            self.close()
        return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, data, elapsed)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, fields, *, referer: str | None = None) -> Response:
        """POST a form (``fields``: dict or list of pairs, list values repeat the name)."""
        pairs = []
        items = fields.items() if isinstance(fields, dict) else fields
        for key, value in items:
            if isinstance(value, (list, tuple)):
                pairs.extend((key, str(v)) for v in value)
            elif value is not None:
                pairs.append((key, str(value)))
        scheme = "https" if self.forwarded_https else "http"
        origin = f"{scheme}://{self.host}:{self.port}"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": origin,
            "Referer": referer or origin + path,
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
        }
        return self.request("POST", path, urlencode(pairs).encode(), headers)

    # --- what a person does ----------------------------------------------------------------
    @staticmethod
    def token(page: Response) -> str:
        match = _TOKEN.search(page.text)
        if not match:
            raise AssertionError(f"no CSRF token on the page (status {page.status})")
        return match.group(1)

    def login(self, username: str, password: str) -> None:
        page = self.get("/accounts/login/")
        response = self.post(
            "/accounts/login/",
            {
                "csrfmiddlewaretoken": self.token(page),
                "login": username,
                "password": password,
            },
        )
        if response.status != 302 or "sessionid" not in self.cookies:
            raise AssertionError(f"login as {username} failed: {response.status}")

    def submit(self, path: str, fields: dict) -> Response:
        """Open the form page (for its token) and post ``fields`` to it."""
        page = self.get(path)
        return self.post(path, {"csrfmiddlewaretoken": self.token(page), **fields})
