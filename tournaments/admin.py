"""Django admin for site staff; deal and membership changes keep their history, and every
change moves the club's data version, as a service's does (services/cache.py)."""

from django.contrib import admin
from django.db import transaction
from simple_history.admin import SimpleHistoryAdmin

from .models import (
    BidAggregate,
    Club,
    ClubRuleSet,
    Deal,
    GameSession,
    Membership,
    Player,
    ScoreLine,
    StandingAggregate,
)
from .models.events import (
    Adjustment,
    DealConfirmation,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from .services.cache import club_version_bump

# How a row of each model reaches its club's id (the rest: ``club_id``).
CLUB_OF = {
    Club: ("pk",),
    TournamentRound: ("tournament", "club_id"),
    TournamentTable: ("round", "tournament", "club_id"),
    DealConfirmation: ("deal", "club_id"),
    Adjustment: ("tournament", "club_id"),
}


def _club_id(obj) -> int:
    value = obj
    for name in CLUB_OF.get(type(obj), ("club_id",)):
        value = getattr(value, name)
    return value


class Versioned:
    """Saves and deletes by site staff move the club's data version in the admin's own
    transaction, so no cached page shows the club as it was."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        club_version_bump(club_id=_club_id(obj))

    def delete_model(self, request, obj):
        club_id = _club_id(obj)
        super().delete_model(request, obj)
        club_version_bump(club_id=club_id)  # a deleted club: nothing left to move

    def delete_queryset(self, request, queryset):
        with transaction.atomic(using=queryset.db):
            club_ids = {_club_id(obj) for obj in queryset}
            super().delete_queryset(request, queryset)
            for club_id in sorted(club_ids):
                club_version_bump(club_id=club_id)


@admin.register(Club)
class ClubAdmin(Versioned, admin.ModelAdmin):
    list_display = ("name", "slug", "is_public", "created_at")
    search_fields = ("name", "slug")


@admin.register(Membership)
class MembershipAdmin(Versioned, SimpleHistoryAdmin):
    list_display = ("user", "club", "role")
    list_filter = ("role",)
    search_fields = ("user__username", "club__slug")


@admin.register(Player)
class PlayerAdmin(Versioned, admin.ModelAdmin):
    list_display = ("name", "club", "active")
    list_filter = ("active",)
    search_fields = ("name", "club__slug")

    def has_delete_permission(self, request, obj=None):
        # A player is merged into another (services/merge.py: it moves the lines under the
        # club's lock) or set inactive, never deleted here: score lines have no foreign-key
        # constraint that would stop a delete racing an import (models.play.ScoreLine).
        return False


@admin.register(ClubRuleSet)
class ClubRuleSetAdmin(Versioned, SimpleHistoryAdmin):
    list_display = ("code", "club", "preset", "name")
    search_fields = ("code", "club__slug")


@admin.register(GameSession)
class GameSessionAdmin(Versioned, admin.ModelAdmin):
    list_display = ("date", "table", "club", "game", "ruleset")
    list_filter = ("game",)
    date_hierarchy = "date"


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
    """Read-only: deals change only through the services, which keep score lines and
    aggregates in step."""

    list_display = ("session", "seq", "game", "redeal", "is_deleted", "version", "updated_by")
    list_filter = ("game", "is_deleted")
    readonly_fields = [f.name for f in Deal._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ScoreLine, StandingAggregate, BidAggregate)
class DerivedAdmin(admin.ModelAdmin):
    """Derived rows: visible for checking, never edited by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ("player", "checked_in", "dropped_at_round")
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(Versioned, admin.ModelAdmin):
    """Site staff can correct a tournament's settings; running it happens on the staff pages."""

    list_display = ("name", "club", "date", "game", "is_public")
    list_filter = ("game", "is_public")
    search_fields = ("name", "club__name")
    inlines = [TournamentEntryInline]


@admin.register(TournamentRound, TournamentTable, DealConfirmation, Adjustment)
class TournamentDetailAdmin(Versioned, admin.ModelAdmin):
    """Rounds, tables, confirmations and adjustments: visible to staff for checking."""
