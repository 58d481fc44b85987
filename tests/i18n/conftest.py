"""Compiled catalogues for the i18n tests.

``.mo`` files are build artefacts (scripts/test and scripts/start compile them, git ignores
them). When this package runs on its own, compile them here if they are missing or older than
their ``.po``, then drop Django's cached catalogues so the fresh ones are read.
"""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.signals import setting_changed
from django.test import signals as _test_signals  # noqa: F401  (connects the receivers)


def _stale_catalogues() -> list[Path]:
    stale = []
    for locale_dir in settings.LOCALE_PATHS:
        for po in Path(locale_dir).glob("*/LC_MESSAGES/*.po"):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                stale.append(po)
    return stale


def _forget_loaded_catalogues() -> None:
    # Django drops its cached catalogues when LOCALE_PATHS changes; say that it did.
    setting_changed.send(
        sender=settings._wrapped.__class__,
        setting="LOCALE_PATHS",
        value=settings.LOCALE_PATHS,
        enter=False,
    )


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues():
    if _stale_catalogues():
        cwd = os.getcwd()
        os.chdir(settings.BASE_DIR)  # compilemessages looks for locale/ dirs under the cwd
        try:
            call_command("compilemessages", ignore=[".venv"], verbosity=0)
        finally:
            os.chdir(cwd)
        _forget_loaded_catalogues()
    yield
