"""The club's data version: what keeps cached read pages fresh.

Every write to a club's records bumps ``Club.data_version`` inside the writing transaction, and
cached pages are keyed by that number (``views/page_cache.py``), so the first read after a
commit renders anew and nothing older is ever served. Saves and deletes of the app's models are
caught here once for all (``connect``), whoever writes them; bulk writes that bypass model
signals (``bulk_create``, ``QuerySet.update``: imports, merges) call :func:`club_version_bump`
themselves.
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import F
from django.db.models.signals import post_delete, post_save

from ..models import Club

# How to reach the club from an instance of each model, tried in order. Every model of the app
# must resolve through one of these, or be listed in UNVERSIONED (a test checks this).
CLUB_PATHS = (
    ("club_id",),
    ("session", "club_id"),
    ("tournament", "club_id"),
    ("deal", "session", "club_id"),
    ("round", "tournament", "club_id"),
    ("entry", "tournament", "club_id"),
    ("table", "round", "tournament", "club_id"),
)
# Models whose rows no read page shows (PIN failures), and the high-volume rows that are only
# ever written together with their deal, player or club, whose own save or delete bumps the
# version in the same transaction (score lines, aggregates, ratings). Leaving these out keeps a
# cascade (deleting a club, merging a player) from bumping once per row.
UNVERSIONED = {
    "pinattempt",
    "apitoken",  # a person's API token: no club's data
    "scoreline",
    "standingaggregate",
    "bidaggregate",
    "rating",
    "ratingstate",
    "ratinghistory",
}


def club_version_bump(*, club_id: int) -> None:
    """Mark the club's pages as changed (call inside the writing transaction)."""
    Club.objects.filter(pk=club_id).update(data_version=F("data_version") + 1)


def club_id_of(instance) -> int | None:
    if isinstance(instance, Club):
        return instance.pk
    for path in CLUB_PATHS:
        value = instance
        try:
            for name in path:
                value = getattr(value, name)
        except AttributeError:
            continue
        except Exception:  # a related row already gone (cascade deletes): nothing to bump
            return None
        if value is not None:
            return value
    return None


def _changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):  # loaddata / restore: the restore bumps once at the end
        return
    club_id = club_id_of(instance)
    if club_id is not None:
        club_version_bump(club_id=club_id)


def versioned_models() -> list:
    return [
        model
        for model in apps.get_app_config("tournaments").get_models()
        if not model._meta.model_name.startswith("historical")
        and model._meta.model_name not in UNVERSIONED
    ]


def connect() -> None:
    """Called once from the app's ``ready()``."""
    for model in versioned_models():
        uid = f"efuda-version-{model._meta.label_lower}"
        post_save.connect(_changed, sender=model, dispatch_uid=uid + "-save")
        post_delete.connect(_changed, sender=model, dispatch_uid=uid + "-delete")
