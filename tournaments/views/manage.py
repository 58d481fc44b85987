"""Club owners: members and roles, players, rule sets and club settings; founding a club.

Every POST calls one service; an EfudaError is shown beside the field it names (the page is
re-rendered with the bound form), success redirects back to the management page.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

import rules
from core.errors import EfudaError

from ..forms.clubs import (
    ClubCreateForm,
    ClubSettingsForm,
    MemberAddForm,
    PlayerRenameForm,
    RoleForm,
    RuleSetForm,
)
from ..forms.entry import add_efuda_error
from ..i18n import error_text
from ..models import ClubRuleSet, Membership, Player, Role
from ..permissions import club_for_request
from ..selectors.accounts import club_tools
from ..selectors.clubs import club_admin
from ..services.clubs import club_create, club_update
from ..services.members import member_add, member_remove, membership_role_change
from ..services.players import player_anonymise, player_rename, player_set_active
from ..services.rulesets import ruleset_save
from .embeds import embed_snippets


def _manage_url(club) -> str:
    return reverse("club_manage", args=[club.slug])


def _render_manage(request, club, *, member_form=None, club_form=None, status=200):
    admin = club_admin(club=club)
    return render(request, "tournaments/manage/home.html", {
        "club": club,
        "tools": club_tools(club=club, role=Role.OWNER),
        "memberships": admin.memberships,
        "role_choices": Role.choices,
        "players": admin.players,
        "rulesets": admin.rulesets,
        "presets": rules.PRESETS,
        "member_form": member_form or MemberAddForm(),
        "club_form": club_form or ClubSettingsForm(initial={
            "name": club.name, "is_public": club.is_public, "embed_origins": club.embed_origins,
        }),
        "embeds": embed_snippets(request, club),
    }, status=status)  # fmt: skip


@login_required
@require_http_methods(["GET"])
def club_manage_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    return _render_manage(request, club)


@login_required
@require_POST
def member_add_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            member_add(
                club=club, username=form.cleaned_data["username"],
                role=form.cleaned_data["role"], by=request.user,
            )  # fmt: skip
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Member saved."))
            return redirect(_manage_url(club))
    return _render_manage(request, club, member_form=form, status=400)


@login_required
@require_POST
def member_role_view(request, club_slug: str, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    membership = get_object_or_404(Membership, club=club, pk=pk)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            membership_role_change(
                membership=membership, role=form.cleaned_data["role"], by=request.user
            )
        except EfudaError as err:
            messages.error(request, error_text(err))
        else:
            messages.success(request, _("Role changed."))
    return redirect(_manage_url(club))


@login_required
@require_POST
def member_remove_view(request, club_slug: str, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    membership = get_object_or_404(Membership, club=club, pk=pk)
    try:
        member_remove(membership=membership, by=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    else:
        messages.success(request, _("Member removed."))
    return redirect(_manage_url(club))


@login_required
@require_POST
def player_rename_view(request, club_slug: str, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    player = get_object_or_404(Player, club=club, pk=pk)
    form = PlayerRenameForm(request.POST)
    if form.is_valid():
        try:
            player_rename(player=player, name=form.cleaned_data["name"])
        except EfudaError as err:
            messages.error(request, error_text(err))
        else:
            messages.success(request, _("Player renamed."))
    return redirect(_manage_url(club) + "#players")


@login_required
@require_POST
def player_active_view(request, club_slug: str, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    player = get_object_or_404(Player, club=club, pk=pk)
    player_set_active(player=player, active=request.POST.get("active") == "1")
    return redirect(_manage_url(club) + "#players")


@login_required
@require_http_methods(["GET", "POST"])
def player_anonymise_view(request, club_slug: str, pk):
    """GET asks for confirmation; POST replaces the player's name by 「匿名 N」 everywhere
    (services.players.player_anonymise)."""
    club = club_for_request(request, club_slug, role=Role.OWNER)
    player = get_object_or_404(Player, club=club, pk=pk)
    error = None
    if request.method == "POST":
        try:
            player = player_anonymise(player=player)
        except EfudaError as err:
            error = error_text(err)
        else:
            text = _("The player is now “%(name)s” everywhere.")
            messages.success(request, text % {"name": player.name})
            return redirect(_manage_url(club) + "#players")
    return render(
        request,
        "tournaments/manage/player_anonymise.html",
        {"club": club, "player": player, "error": error},
        status=400 if error else 200,
    )


@login_required
@require_POST
def club_settings_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    form = ClubSettingsForm(request.POST)
    if form.is_valid():
        try:
            club_update(
                club=club, name=form.cleaned_data["name"], is_public=form.cleaned_data["is_public"],
                embed_origins=form.cleaned_data["embed_origins"],
            )  # fmt: skip
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Club settings saved."))
            return redirect(_manage_url(club))
    return _render_manage(request, club, club_form=form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit_view(request, club_slug: str, pk=None):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    ruleset = get_object_or_404(ClubRuleSet, club=club, pk=pk) if pk else None
    if request.method == "POST":
        preset = request.POST.get("preset")
        form = RuleSetForm(request.POST, preset=preset)
        # A changed preset only redraws its options; nothing is saved yet.
        if form.is_valid() and request.POST.get("action") != "redraw":
            options = form.options()
            if not form.errors:
                code = ruleset.code if ruleset else form.cleaned_data["code"]
                try:
                    ruleset_save(club=club, code=code, preset=form.preset_code,
                                 options=options, name=form.cleaned_data["name"])  # fmt: skip
                except EfudaError as err:
                    add_efuda_error(form, err)
                else:
                    messages.success(request, _("Rule set saved."))
                    return redirect(_manage_url(club) + "#rulesets")
    else:
        preset = request.GET.get("preset") or (ruleset.preset if ruleset else None)
        initial = {"preset": preset}
        if ruleset:
            initial |= {"code": ruleset.code, "name": ruleset.name}
            if preset == ruleset.preset:
                initial |= RuleSetForm.initial_from_options(ruleset.options)
        form = RuleSetForm(initial=initial, preset=preset)
    return render(request, "tournaments/manage/ruleset.html", {
        "club": club, "ruleset": ruleset, "form": form,
        "preset": rules.PRESETS[form.preset_code],
    })  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def club_new_view(request):
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(
                slug=form.cleaned_data["slug"],
                name=form.cleaned_data["name"],
                owner=request.user,
                is_public=form.cleaned_data["is_public"],
            )
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Club created. You are its owner."))
            return redirect(_manage_url(club))
    return render(request, "tournaments/manage/club_new.html", {"form": form})
