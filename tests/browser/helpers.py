"""What the browser tests share: a person logged in on the browser's context (the session
cookie of a test client logged in as them), and screenshots of the steps for a look."""

import os

from django.conf import settings
from django.test import Client

SHOTS = os.environ.get("EFUDA_SHOTS")  # a folder: screenshots of each step, for a look


def shot(page, name: str) -> None:
    """The whole page as ``name``.png in ``EFUDA_SHOTS``, when it is set."""
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def signed_in(context, base_url: str, user) -> None:
    """``user`` logged in on every page ``context`` opens at ``base_url``."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": base_url}])
