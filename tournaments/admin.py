"""Django admin for site staff; deal and membership changes keep their history, and every
change moves the club's data version, as a service's does (services/cache.py).

Whatever can take an owner away here (a membership's role changed or the membership deleted, an
account deleted or deactivated) goes through the club's services, which refuse to leave a club
without an owner who can log in (services/members.py, services/accounts.py)."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect
from simple_history.admin import SimpleHistoryAdmin

from core.errors import EfudaError

from .i18n import error_text
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
from .services.accounts import accounts_delete, accounts_owner_check
from .services.cache import club_hiding_refresh, club_version_bump
from .services.claims import membership_display_name_set
from .services.members import member_remove, membership_role_change, owners_kept_check

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
    transaction, so no cached page shows the club as it was. A saved row stays in its club:
    moving a player, a rule set, a session or a tournament to another club would leave its
    deals, score lines and entries behind (and the first club's pages as they were)."""

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and any(f.name == "club" for f in self.model._meta.fields):
            fields += ("club",)
        return fields

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._changed(_club_id(obj))

    def delete_model(self, request, obj):
        club_id = _club_id(obj)
        super().delete_model(request, obj)
        self._changed(club_id)  # a deleted club: nothing left to move

    def delete_queryset(self, request, queryset):
        with transaction.atomic(using=queryset.db):
            club_ids = {_club_id(obj) for obj in queryset}
            super().delete_queryset(request, queryset)
            for club_id in sorted(club_ids):
                self._changed(club_id)

    def _changed(self, club_id: int) -> None:
        club_version_bump(club_id=club_id)
        if self.model is Tournament:  # made private or public, a freeze set, deleted
            club_hiding_refresh(club_id=club_id)


class RefusalsAsMessages:
    """A service's refusal met on saving or deleting (someone changed the club since the page
    was shown) is the admin's error message on the same page; nothing is changed."""

    def _answer(self, view, request, *args, **kwargs):
        try:
            with transaction.atomic():
                return view(request, *args, **kwargs)
        except EfudaError as err:
            self.message_user(request, error_text(err), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def changeform_view(self, request, *args, **kwargs):
        return self._answer(super().changeform_view, request, *args, **kwargs)

    def delete_view(self, request, *args, **kwargs):
        return self._answer(super().delete_view, request, *args, **kwargs)

    def changelist_view(self, request, *args, **kwargs):  # the "delete selected" action
        return self._answer(super().changelist_view, request, *args, **kwargs)


def _with_refusal(found, check) -> tuple:
    """The admin's ``get_deleted_objects`` answer, with ``check``'s refusal (if it refuses)
    listed as protected: the admin then says the delete cannot be done, and why."""
    try:
        with transaction.atomic():
            check()
    except EfudaError as err:
        deleted, counts, perms_needed, protected = found
        return deleted, counts, perms_needed, [*protected, error_text(err)]
    return found


@admin.register(Club)
class ClubAdmin(Versioned, admin.ModelAdmin):
    list_display = ("name", "slug", "is_public", "created_at")
    search_fields = ("name", "slug")


@admin.register(Membership)
class MembershipAdmin(Versioned, RefusalsAsMessages, SimpleHistoryAdmin):
    """A membership's role and display name change, and a membership is deleted, through the
    club's services: the last owner stays, and a removed member's rights go with them."""

    list_display = ("user", "club", "role")
    list_filter = ("role",)
    search_fields = ("user__username", "club__slug")

    def get_readonly_fields(self, request, obj=None):
        # Whose membership in which club it is, and how they came in, stay as they are.
        return ("club", "user", "invited_by", "invitation") if obj is not None else ()

    def save_model(self, request, obj, form, change):
        if not change:  # a new membership takes no owner away
            super().save_model(request, obj, form, change)
            return
        if "role" in form.changed_data:
            membership_role_change(membership=obj, role=obj.role, by=request.user)
        if "display_name" in form.changed_data:
            obj._history_user = request.user
            membership_display_name_set(membership=obj, display_name=obj.display_name)

    def delete_model(self, request, obj):
        member_remove(membership=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for membership in queryset.order_by("pk"):
            member_remove(membership=membership, by=request.user)

    def get_deleted_objects(self, objs, request):
        memberships = list(objs)
        ids = {membership.pk for membership in memberships}
        return _with_refusal(
            super().get_deleted_objects(memberships, request),
            lambda: owners_kept_check(
                club_ids=[membership.club_id for membership in memberships],
                leaving=lambda owner: owner.pk in ids,
            ),
        )


class AccountChangeForm(UserChangeForm):
    """Unticking "active" for the last owner of a club is refused beside the box, naming the
    clubs (the save checks again under the clubs' lock)."""

    def clean_is_active(self):
        active = self.cleaned_data["is_active"]
        if self.instance.is_active and not active:
            try:
                accounts_owner_check(users=[self.instance])
            except EfudaError as err:
                raise ValidationError(error_text(err)) from None
        return active


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class AccountAdmin(RefusalsAsMessages, UserAdmin):
    """Django's own user admin, except that an account is deleted or deactivated only while
    every club it owns keeps another owner who can log in."""

    form = AccountChangeForm

    def save_model(self, request, obj, form, change):
        if change and "is_active" in form.changed_data and not obj.is_active:
            accounts_owner_check(users=[obj])  # the clubs stay locked until the save commits
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        accounts_delete(users=[obj])

    def delete_queryset(self, request, queryset):
        accounts_delete(users=queryset)

    def get_deleted_objects(self, objs, request):
        users = list(objs)
        return _with_refusal(
            super().get_deleted_objects(users, request),
            lambda: accounts_owner_check(users=users),
        )


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
