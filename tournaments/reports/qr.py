"""QR codes for printed sheets: absolute addresses from ``settings.SITE_URL`` as inline SVG.

A printed code outlives the request that printed it and is scanned by a phone that knows
nothing of the printing host, so it always carries the site's public address, never a bare
path (``SITE_URL`` is read from the environment, see config/settings/base.py).
"""

from __future__ import annotations

from functools import lru_cache

import segno
from django.conf import settings
from django.urls import reverse
from django.utils.safestring import mark_safe


def absolute_url(viewname: str, *args) -> str:
    """The public address of a page, e.g. ``https://scores.example.org/t/3/table/12/``."""
    return settings.SITE_URL + reverse(viewname, args=args)


@lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG sized by CSS (``svg.qr``).

    segno writes only the SVG of the code (no script, no style attribute): safe to inline.
    Error correction M survives a crease or a coffee ring on a printed card. A code depends
    on its address alone, so each process keeps the last few hundred (encoding one took ≈4 ms
    of every session sheet).
    """
    code = segno.make(url, error="m", micro=False)
    return mark_safe(code.svg_inline(omitsize=True, border=2, dark="#000", light="#fff",
                                     svgclass="qr"))  # fmt: skip
