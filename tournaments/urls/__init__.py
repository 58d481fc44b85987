"""All of efuda's URLs, split by audience so what outsiders can reach is visible at a glance.

- ``public``: read pages (club home, sessions, standings, players) — public clubs or members.
- ``entry``: scorekeepers recording and correcting deals.
- ``manage``: club owners (members, roles, rule sets, settings).
- ``events``: tournaments (public pages, table entry by PIN, staff).
- ``accounts``: invitations, "this is me", my clubs, player merge.
- ``offline``: what the phone needs to keep entering deals without a connection.

``healthz`` is for the proxy and monitors (views/health.py).
"""

from django.urls import include, path

from ..views import health, home
from . import converters  # noqa: F401 - registers the id, year and month converters

urlpatterns = [
    path("", home.home_view, name="home"),
    path("welcome/", home.after_login_view, name="after_login"),
    path("invite/", home.invitation_find_view, name="invitation_find"),
    # for the proxy and monitors: database, migrations, task worker (docs/deploy.md, "Health")
    path("healthz", health.health_view, name="health"),
    path("", include("tournaments.urls.public")),
    path("", include("tournaments.urls.entry")),
    path("", include("tournaments.urls.manage")),
    path("", include("tournaments.urls.events")),
    path("", include("tournaments.urls.accounts")),
    path("", include("tournaments.urls.offline")),
]
