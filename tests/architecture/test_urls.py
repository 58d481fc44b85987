"""One way to name things in the URLs and views (docs/architecture.md, "Conventions")."""

import importlib
import inspect
import pkgutil

from django.urls import URLPattern, URLResolver, get_resolver

import tournaments.views
from tournaments.permissions import club_for_request

# The tournament list of a club is open to anyone for the club's public tournaments, even when
# the club itself is private: it loads the club by its own rule (tested in tests/events).
LOADING_PENDING = {"tournaments.views.events.public"}


def _pending(module: str, pending: set) -> bool:
    """A pending module, or a module of a pending package (views/events is a package now)."""
    return any(module == name or module.startswith(name + ".") for name in pending)


def _patterns(resolver=None):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry)
        elif isinstance(entry, URLPattern):
            yield entry


def _app_patterns():
    return [p for p in _patterns() if p.callback.__module__.startswith("tournaments.views")]


def test_the_club_in_a_url_is_always_club_slug():
    offenders = [
        f"{p.name}: {p.pattern}"
        for p in _app_patterns()
        if any("club" in key and key != "club_slug" for key in p.pattern.converters)
    ]
    assert not offenders, "a URL names its club '<slug:club_slug>': " + ", ".join(offenders)


def test_view_functions_end_in_view():
    offenders = [
        f"{p.callback.__module__}.{p.callback.__name__} (URL {p.name})"
        for p in _app_patterns()
        if not p.callback.__name__.endswith("_view")
    ]
    assert not offenders, "view functions are named '<what>_view': " + ", ".join(offenders)


def test_views_with_a_club_slug_load_the_club_one_way():
    """A view whose URL names a club loads it with ``club_for_request``; no view module loads a
    Club by itself (``get_object_or_404(Club, ...)``, ``Club.objects...``)."""
    offenders = []
    for p in _app_patterns():
        view = inspect.unwrap(p.callback)
        if _pending(view.__module__, LOADING_PENDING) or "club_slug" not in p.pattern.converters:
            continue
        module = importlib.import_module(view.__module__)
        if "club_for_request" not in inspect.getsource(module):
            offenders.append(f"{view.__module__}.{view.__name__} (URL {p.name})")
    for info in pkgutil.iter_modules(tournaments.views.__path__):
        name = f"tournaments.views.{info.name}"
        if name in LOADING_PENDING:
            continue
        source = inspect.getsource(importlib.import_module(name))
        if "get_object_or_404(Club," in source or "Club.objects" in source:
            offenders.append(f"{name} loads a Club itself")
    assert club_for_request.__module__ == "tournaments.permissions"
    assert not offenders, "load the club with club_for_request: " + ", ".join(offenders)
