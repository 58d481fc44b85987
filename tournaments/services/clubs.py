"""Clubs: founding, settings, discarding an empty one, the club's lock (memberships: members.py)."""

from django.db import IntegrityError, transaction

from ..models import Club, Deal, Membership, Role
from .cache import club_version_bump
from .embeds import embed_origins_clean
from .errors import fail
from .names import clean_name
from .ratings import ratings_visibility_changed


def club_create(*, slug: str, name: str = "", owner=None, is_public: bool = False) -> Club:
    """A new club (named after its address when no name is given); ``owner`` becomes its owner."""
    slug = (slug or "").strip()
    name = clean_name(name, field="name") or slug
    if not name:
        raise fail("name", "club_name_empty")
    if Club.objects.filter(slug=slug).exists():
        raise fail("slug", "club_slug_taken", slug=slug)
    try:
        with transaction.atomic():
            club = Club.objects.create(slug=slug, name=name[:100], is_public=is_public)
            club_version_bump(club_id=club.pk)
            if owner is not None:
                Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    except IntegrityError:  # founded by a concurrent request in the meantime
        raise fail("slug", "club_slug_taken", slug=slug) from None
    return club


def club_lock(*, club_id: int) -> None:
    """Lock the club's row until the transaction ends. Every change of the club's people (a
    membership, an owner, an invitation, an account deleted or deactivated) takes it before any
    other row, so two such changes of one club run one after the other and the second reads
    what the first left (docs/architecture.md, "Lock order"). Call inside the transaction.
    ``FOR NO KEY UPDATE`` (the lock an update of the club's data version takes): it does not
    wait for a writer that holds only a key-share lock on the club."""
    club = Club.objects.select_for_update(no_key=True).filter(pk=club_id)
    club.values_list("pk", flat=True).first()


def club_discard_empty(*, club: Club) -> bool:
    """Remove a club that holds no session (one created for an import that then failed);
    a club with any session is kept. True if it was removed. (Its version goes with it.)"""
    with transaction.atomic():
        if club.sessions.exists():
            return False
        Club.objects.filter(pk=club.pk).delete()
    return True


@transaction.atomic
def club_update(
    *, club: Club, name: str, is_public: bool, embed_origins: str | None = None
) -> Club:
    """The club's settings; ``embed_origins`` (None: unchanged) are the sites that may show
    its standings in a frame, one a line (services/embeds.py)."""
    name = clean_name(name, field="name")
    if not name:
        raise fail("name", "club_name_empty")
    fields = ["name", "is_public"]
    if embed_origins is not None:
        club.embed_origins = embed_origins_clean(embed_origins)
        fields.append("embed_origins")
    opened = club.is_public != bool(is_public)
    club.name = name[:100]
    club.is_public = bool(is_public)
    club_version_bump(club_id=club.pk)
    club.save(update_fields=fields)
    if (
        opened
        and Deal.objects.filter(
            club=club, session__event_table__round__tournament__is_public=False
        ).exists()
    ):
        # A private tournament's deals are hidden from a public club's visitors, so the
        # ratings (what every reader sees) learn from them only while the club is private.
        ratings_visibility_changed(club_id=club.pk)
    return club
