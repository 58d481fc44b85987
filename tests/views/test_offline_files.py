"""The service worker, the web app manifest and the icons: served from the site root with the
headers a browser requires, and usable under a 'self'-only Content-Security-Policy."""

import json
import re

from django.templatetags.static import static
from django.urls import reverse

from tournaments.views.offline import ICONS, OFFLINE_ASSETS


def test_service_worker_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    first, code = response.content.decode().split("\n", 1)
    config = json.loads(re.fullmatch(r"self\.EFUDA = (.*);", first).group(1))
    assert config["assets"] == [static(p) for p in OFFLINE_ASSETS]
    assert 'addEventListener("fetch"' in code
    assert client.post("/sw.js").status_code == 405


def test_worker_version_follows_its_files(client, tmp_path, settings):
    before = client.get("/sw.js").content.decode().split("\n", 1)[0]
    assert before == client.get("/sw.js").content.decode().split("\n", 1)[0]
    settings.STATIC_URL = "/static-v2/"  # new file names (as hashed names change on deploy)
    after = client.get("/sw.js").content.decode().split("\n", 1)[0]
    assert after != before and "/static-v2/js/outbox.js" in after


def test_manifest_and_icons(client):
    response = client.get(reverse("web_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["short_name"] == "efuda 絵札" and "大富豪" in data["name"]
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512", "any"}
    from django.contrib.staticfiles import finders
    from PIL import Image

    for path, sizes, _kind in ICONS:
        found = finders.find(path)
        assert found, path
        if sizes != "any":
            with Image.open(found) as image:
                assert "x".join(map(str, image.size)) == sizes


def test_entry_pages_carry_the_outbox_without_inline_code(client, users, napoleon_session):
    client.force_login(users["scorekeeper"])
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    html = client.get(url).content.decode()
    assert 'id="outbox"' in html and static("js/outbox.js") in html
    assert 'rel="manifest"' in html
    assert f'data-page="{url}"' in html
    # No inline script, handler or style in what this feature adds.
    outbox = html[
        html.index('<section id="outbox"') : html.index("</section>", html.index('id="outbox"'))
    ]
    assert "<script" not in outbox and not re.search(r"\son[a-z]+=", outbox)
    assert "style=" not in outbox
    for script in re.findall(r"<script[^>]*>", html):
        assert "src=" in script or 'type="application/json"' in script, script
