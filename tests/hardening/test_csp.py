"""Content-Security-Policy: only efuda's own scripts and styles, on every page; and no page
carries inline code the policy would block (so nothing silently stops working)."""

import re

import pytest

from tests.hardening.urls import all_routes, build_world, urls_for

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(ld\+)?json\")[^>]*>",
                           re.I)  # fmt: skip
INLINE_STYLE = re.compile(r"<style[\s>]|\sstyle=", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)


def _directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_policy_allows_only_own_scripts_and_styles(client):
    response = client.get("/")
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


def test_every_page_sends_the_policy_and_has_no_inline_code(client):
    world = build_world(payload="x")
    client.force_login(world.owner)
    checked = 0
    for route in all_routes():
        if route.name.startswith("admin:") or route.name in ("logout", "set_language"):
            continue
        for url in urls_for(route, world.objects):
            response = client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            body = response.content.decode()
            assert "Content-Security-Policy" in response, url
            assert not INLINE_SCRIPT.search(body), (url, INLINE_SCRIPT.search(body).group(0))
            assert not INLINE_STYLE.search(body), url
            assert not HANDLER.search(body), (url, HANDLER.search(body).group(0))
            assert "javascript:" not in body, url
            checked += 1
    assert checked >= 20


def test_htmx_does_not_inject_its_indicator_styles(client):
    body = client.get("/").content.decode()
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false}\'>' in body
