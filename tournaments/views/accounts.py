"""Accounts in a club: invitations (owners create, revoke, re-issue; anyone opens one),
"this is me" claims (members claim, owners confirm), display names, "my clubs", player merge.

Thin: every POST calls one service; an EfudaError is shown beside its field or as a message.
"""

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.errors import EfudaError

from ..accounts import INVITATION_SESSION_KEY
from ..forms.clubs import ClaimForm, DisplayNameForm, InvitationForm, PlayerMergeForm
from ..forms.entry import add_efuda_error
from ..i18n import error_text
from ..models import Invitation, Membership, Player, PlayerClaim, PlayerMerge, Role
from ..permissions import club_for_request
from ..selectors import accounts as sel
from ..selectors.merge import merge_preview
from ..services.claims import (
    claim_confirm,
    claim_reject,
    claim_undo,
    membership_display_name_set,
    player_claim,
)
from ..services.invitations import (
    invitation_accept,
    invitation_check,
    invitation_create,
    invitation_reissue,
    invitation_revoke,
)
from ..services.merge import merge_refusal, player_merge, player_merge_undo


def invitation_link(invitation: Invitation) -> str:
    return settings.SITE_URL + reverse("invitation_open", args=[invitation.token])


def _qr_svg(url: str) -> str:
    # segno writes only the SVG of the code (no script, no style attribute): safe to inline.
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff"))


def _invitations_url(club) -> str:
    return reverse("club_invitations", args=[club.slug])


def _render_invitations(request, club, *, form=None, status=200):
    invitations = sel.club_invitations(club=club)
    for inv in invitations:
        inv.link = invitation_link(inv)
        inv.qr = _qr_svg(inv.link) if inv.state == sel.InvitationState.OPEN else ""
    return render(request, "tournaments/accounts/invitations.html", {
        "club": club,
        "invitations": invitations,
        "form": form or InvitationForm(players=sel.unclaimed_players(club=club)),
        "claims": sel.club_pending_claims(club=club),
        "decided_claims": sel.club_decided_claims(club=club),
        "history": sel.membership_history(club=club),
        "merges": sel.club_merges(club=club),
        "role_choices": Role.choices,
    }, status=status)  # fmt: skip


@login_required
@require_safe
def invitations_view(request, club_slug):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    return _render_invitations(request, club)


@login_required
@require_POST
def invitation_create_view(request, club_slug):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    players = sel.unclaimed_players(club=club)
    form = InvitationForm(request.POST, players=players)
    if form.is_valid():
        data = form.cleaned_data
        player = players.filter(pk=data["player"]).first() if data["player"] else None
        try:
            invitation_create(
                club=club, by=request.user, role=data["role"], max_uses=data["max_uses"],
                days=data["days"], player=player, note=data["note"],
            )  # fmt: skip
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Invitation created: show the QR code or send the link."))
            return redirect(_invitations_url(club))
    return _render_invitations(request, club, form=form, status=400)


@login_required
@require_POST
def invitation_revoke_view(request, club_slug, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    invitation = get_object_or_404(Invitation, club=club, pk=pk)
    invitation_revoke(invitation=invitation, by=request.user)
    messages.success(request, _("Invitation withdrawn: its link no longer works."))
    return redirect(_invitations_url(club))


@login_required
@require_POST
def invitation_reissue_view(request, club_slug, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    invitation = get_object_or_404(Invitation, club=club, pk=pk)
    try:
        invitation_reissue(invitation=invitation, by=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    else:
        messages.success(request, _("A new invitation replaces the old one."))
    return redirect(_invitations_url(club))


@require_http_methods(["GET", "POST"])
def invitation_open_view(request, token):
    """The page a link or QR code opens. GET explains (and remembers the invitation through
    sign-up or login); POST, logged in, joins the club."""
    invitation = sel.invitation_by_token(token)
    if invitation is None:
        raise Http404
    error = None
    try:
        invitation_check(invitation)
    except EfudaError as err:
        error = error_text(err)
    if request.method == "POST":
        if not request.user.is_authenticated:
            request.session[INVITATION_SESSION_KEY] = invitation.token
            return redirect(f"{reverse('login')}?next={request.path}")
        if error is None:
            try:
                membership = invitation_accept(invitation=invitation, user=request.user)
            except EfudaError as err:
                error = error_text(err)
            else:
                request.session.pop(INVITATION_SESSION_KEY, None)
                text = {
                    Role.OWNER: _("You joined %(club)s as an owner."),
                    Role.SCOREKEEPER: _("You joined %(club)s as a scorekeeper."),
                }.get(membership.role, _("You joined %(club)s as a member."))
                messages.success(request, text % {"club": invitation.club.name})
                return redirect("club_home", club_slug=invitation.club.slug)
    elif error is None:
        request.session[INVITATION_SESSION_KEY] = invitation.token
    else:
        request.session.pop(INVITATION_SESSION_KEY, None)
    status = 200 if error is None else (410 if request.method == "GET" else 400)
    return render(request, "tournaments/accounts/invitation_open.html", {
        "invitation": invitation,
        "club": invitation.club,
        "error": error,
        "next": request.path,
    }, status=status)  # fmt: skip


@login_required
@require_safe
def my_clubs_view(request):
    return render(request, "tournaments/accounts/my_clubs.html", {
        "memberships": sel.my_clubs(user=request.user),
    })  # fmt: skip


def _membership(request, club) -> Membership:
    return get_object_or_404(Membership, club=club, user=request.user)


def _render_me(request, club, *, claim_form=None, name_form=None, status=200):
    membership = sel.my_membership(club=club, user=request.user)
    players = sel.unclaimed_players(club=club)
    return render(request, "tournaments/accounts/me.html", {
        "club": club,
        "membership": membership,
        "player": sel.my_player(club=club, user=request.user),
        "pending": sel.my_pending_claim(club=club, user=request.user),
        "claim_form": claim_form or ClaimForm(players=players),
        "has_players": players.exists(),
        "name_form": name_form or DisplayNameForm(
            initial={"display_name": membership.display_name if membership else ""}),
    }, status=status)  # fmt: skip


@login_required
@require_safe
def club_me_view(request, club_slug):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    return _render_me(request, club)


@login_required
@require_POST
def player_claim_view(request, club_slug):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    form = ClaimForm(request.POST, players=sel.unclaimed_players(club=club))
    if form.is_valid():
        player = get_object_or_404(Player, club=club, pk=form.cleaned_data["player"])
        try:
            claim = player_claim(club=club, user=request.user, player=player)
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            if claim.status == "confirmed":
                text = _("You are “%(name)s” in this club.")
                messages.success(request, text % {"name": player.name})
            else:
                messages.success(request, _("Sent: an owner of the club will confirm it."))
            return redirect("club_me", club_slug=club.slug)
    return _render_me(request, club, claim_form=form, status=400)


@login_required
@require_POST
def display_name_view(request, club_slug):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    membership = _membership(request, club)
    form = DisplayNameForm(request.POST)
    if form.is_valid():
        try:
            membership_display_name_set(
                membership=membership, display_name=form.cleaned_data["display_name"]
            )
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Your name in this club is saved."))
            return redirect("club_me", club_slug=club.slug)
    return _render_me(request, club, name_form=form, status=400)


def _claim_decide(request, club_slug, pk, decide, done: str):
    """Confirm or turn down a claim (owners only); the outcome is shown on the claims list."""
    club = club_for_request(request, club_slug, role=Role.OWNER)
    claim = get_object_or_404(PlayerClaim, club=club, pk=pk)
    try:
        decide(claim=claim, by=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    else:
        messages.success(request, done)
    return redirect(_invitations_url(club) + "#claims")


@login_required
@require_POST
def claim_confirm_view(request, club_slug, pk):
    return _claim_decide(
        request, club_slug, pk, claim_confirm,
        _("Confirmed: the account is now linked to the player."),
    )  # fmt: skip


@login_required
@require_POST
def claim_reject_view(request, club_slug, pk):
    return _claim_decide(request, club_slug, pk, claim_reject, _("Claim turned down."))


@login_required
@require_POST
def claim_undo_view(request, club_slug, pk):
    return _claim_decide(
        request, club_slug, pk, claim_undo,
        _("Undone: the account is no longer linked to the player; they may say who they are "
          "again."),
    )  # fmt: skip


def _refusals(preview) -> list[tuple[str, object]]:
    """Each reason the merge would be refused, said as the merge would say it, with what clears
    it (``selectors.merge.Obstacle``)."""
    return [(error_text(merge_refusal(o)), o) for o in preview.obstacles]


@login_required
@require_http_methods(["GET", "POST"])
def player_merge_view(request, club_slug):
    """Choose two players; the first press shows what will move and every reason the merge
    would be refused, and asks only when there is none; the second merges."""
    club = club_for_request(request, club_slug, role=Role.OWNER)
    players = club.players.order_by("name")
    form = PlayerMergeForm(request.POST or None, players=players)
    status = 200
    preview, refusals = None, []
    if request.method == "POST":
        status = 400
        if form.is_valid():
            keep = get_object_or_404(Player, club=club, pk=form.cleaned_data["keep"])
            merge = get_object_or_404(Player, club=club, pk=form.cleaned_data["merge"])
            if keep.pk == merge.pk:
                form.add_error("merge", _("Choose two different players."))
            elif not form.cleaned_data["confirm"]:
                preview = merge_preview(club=club, keep=keep, merge=merge)
                refusals = _refusals(preview)
                status = 200
            else:
                try:
                    record = player_merge(club=club, keep=keep, merge=merge, by=request.user)
                except EfudaError as err:  # something changed since the preview: again
                    preview = merge_preview(club=club, keep=keep, merge=merge)
                    refusals = _refusals(preview) or [(error_text(err), None)]
                else:
                    text = _("“%(merged)s” merged into “%(kept)s”: %(deals)s deal(s) moved. "
                             "Undo it below if it was a mistake.")  # fmt: skip
                    params = {"merged": record.merged_name, "kept": keep.name,
                              "deals": record.deals}  # fmt: skip
                    messages.success(request, text % params)
                    return redirect(reverse("player_merge", args=[club.slug]) + "#merged")
    return render(request, "tournaments/accounts/merge.html", {
        "club": club, "form": form, "merges": sel.club_merges(club=club), "preview": preview,
        "refusals": refusals,
    }, status=status)  # fmt: skip


@login_required
@require_POST
def player_merge_undo_view(request, club_slug, pk):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    record = get_object_or_404(PlayerMerge, club=club, pk=pk)
    try:
        player = player_merge_undo(record=record, by=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    else:
        text = _("Merge undone: “%(name)s” is back with their deals.")
        messages.success(request, text % {"name": player.name})
    return redirect(reverse("player_merge", args=[club.slug]) + "#merged")
