"""The sites a club lets show its standings in a frame (views/embeds.py): the owner's list of
origins, checked here before ``clubs.club_update`` stores it.

Each line is one origin as a browser names it in CSP ``frame-ancestors``: ``https://`` and a
host name, with a port if it is not 443 (``https://blog.example.org``,
``https://example.org:8443``). No path, no query, no ``*``, no plain ``http://`` (a page
served without TLS could be anyone's). A slash at the end is dropped, letters are made lower
case and repeats are kept once; empty lines are skipped. The first line that is not an origin
is refused, naming its number and what it says.
"""

from __future__ import annotations

import re

from core.i18n import N_

from .errors import make_fail

MAX_ORIGINS = 20
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
ORIGIN = re.compile(rf"https://{_LABEL}(?:\.{_LABEL})*(?::(?P<port>[0-9]{{1,5}}))?")

fail = make_fail(
    {
        "embed_origin_invalid": N_(
            "Line %(line)s (“%(value)s”) is not a site's address: write https:// and the host "
            "name, with :port if needed (e.g. https://blog.example.org), one site a line."
        ),
        "embed_origins_too_many": N_("At most %(max)s sites may show the standings."),
    }
)


def embed_origins_clean(text: str) -> str:
    """The origins of ``text`` (one a line) checked and normalised, one a line (module doc)."""
    origins: list[str] = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        value = line.strip()
        if not value:
            continue
        origin = value.removesuffix("/").lower()
        found = ORIGIN.fullmatch(origin)
        port = int(found["port"] or 443) if found else 0
        if not 0 < port < 65536:
            raise fail("embed_origins", "embed_origin_invalid", line=number, value=value[:100])
        if found["port"]:  # written as the browser writes it: no :443, no leading zeros
            origin = origin[: found.start("port") - 1] + ("" if port == 443 else f":{port}")
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_ORIGINS:
        raise fail("embed_origins", "embed_origins_too_many", max=MAX_ORIGINS)
    return "\n".join(origins)
