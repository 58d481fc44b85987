"""The service worker, the web app manifest and the icons: served from the site root with the
headers a browser requires, and usable under a 'self'-only Content-Security-Policy. The entry
page's ES modules: each one it imports preloaded by the page and kept by the worker, and
collected for production under hashed names that their importers name."""

import json
import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings
from django.urls import reverse

from tournaments.views.offline import ICONS, OFFLINE_ASSETS

JS = Path(settings.BASE_DIR) / "static" / "js"
# A static import or re-export: `import { a } from "./b.js";`, `export { a } from "./b.js";`,
# `import "./b.js";` (the forms Django's support_js_module_import_aggregation rewrites).
IMPORT = re.compile(r"""\b(?:from|import)\s*["']([^"']+)["']\s*;""")


def imports_of(name: str) -> list[str]:
    """The static imports of static/js/<name>, as paths under static/ ("js/b.js")."""
    found = []
    for spec in IMPORT.findall((JS / name).read_text(encoding="utf-8")):
        assert spec.startswith("./") and spec.endswith(".js"), f"{name} imports {spec!r}"
        found.append("js/" + spec[2:])
    return found


def module_graph(roots: list[str]) -> set[str]:
    """Every module the roots (paths under static/, "js/entry.js") import, however deep."""
    seen, todo = set(), list(roots)
    while todo:
        for dep in imports_of(todo.pop().removeprefix("js/")):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


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


def test_every_static_import_names_a_file_in_static_js():
    modules = [p.name for p in sorted(JS.glob("*.js"))]
    graph = {name: imports_of(name) for name in modules}
    assert graph["entry.js"] and graph["outbox.js"]  # the split modules are imported
    missing = [
        (n, dep) for n, deps in graph.items() for dep in deps if not (JS.parent / dep).is_file()
    ]
    assert not missing


def test_entry_page_preloads_and_keeps_every_module_it_imports(client, users, napoleon_session):
    client.force_login(users["scorekeeper"])
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    html = client.get(url).content.decode()
    prefix = static("js/")
    modules = re.findall(r'<script src="([^"]+)" type="module">', html)
    assert static("js/entry.js") in modules and static("js/outbox.js") in modules
    roots = ["js/" + m.removeprefix(prefix) for m in modules]
    graph = module_graph(roots)
    assert {"js/entry-preview.js", "js/outbox-list.js"} <= graph
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    assert preloaded == {static(p) for p in graph}
    # The page opens offline: its scripts, every module they import and the outbox's core.
    core = re.search(r'data-core="([^"]+)"', html).group(1)
    scripts = set(re.findall(r'<script src="([^"]+)"', html))
    kept = {static(p) for p in OFFLINE_ASSETS}
    assert scripts | preloaded | {core} <= kept
    # The classic head script comes first: it marks <html> with "js" before the page paints.
    head = html[: html.index("</head>")]
    assert head.index(static("js/entry-head.js")) < head.index(static("js/entry.js"))
    assert f'<script src="{static("js/entry-head.js")}"></script>' in head


def production_static_storage() -> str:
    """The static files storage config/settings/production.py names (the module itself
    refuses to load with the test settings' key)."""
    text = (Path(settings.BASE_DIR) / "config" / "settings" / "production.py").read_text()
    return re.search(r'"staticfiles": \{"BACKEND": "([^"]+)"\}', text).group(1)


def test_collected_modules_import_their_siblings_hashed_copies(tmp_path):
    """collectstatic with production's storage: every module's hashed copy imports the hashed
    copies the manifest names (the files the service worker keeps), and nothing else in it
    changed."""
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": production_static_storage()}}
    with override_settings(
        STATIC_ROOT=tmp_path,
        STATICFILES_DIRS=[("js", JS)],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STORAGES=storages,
    ):
        call_command("collectstatic", "--noinput", "-v", "0")
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    checked = 0
    for source in sorted(JS.glob("*.js")):
        name = "js/" + source.name
        hashed = paths[name]
        assert hashed != name
        collected = (tmp_path / hashed).read_text(encoding="utf-8")
        original = source.read_text(encoding="utf-8")
        expected = original
        for dep in imports_of(source.name):
            plain, target = "./" + dep.removeprefix("js/"), "./" + paths[dep].removeprefix("js/")
            assert f'"{target}"' in collected, (name, dep)
            expected = expected.replace(f'"{plain}"', f'"{target}"')
            checked += 1
        assert collected == expected, name
    assert checked >= 5
