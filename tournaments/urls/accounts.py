"""Accounts in clubs: invitations, "this is me", my clubs, player merge."""

from django.urls import path

from ..views import accounts as v
from ..views import api_tokens, feed_keys

urlpatterns = [
    path("invite/<str:token>/", v.invitation_open_view, name="invitation_open"),
    path("me/clubs/", v.my_clubs_view, name="my_clubs"),
    path("me/tokens/", api_tokens.api_tokens_view, name="api_tokens"),
    path("me/tokens/<id:pk>/revoke/", api_tokens.api_token_revoke_view, name="api_token_revoke"),
    path("c/<slug:club_slug>/me/", v.club_me_view, name="club_me"),
    path("c/<slug:club_slug>/me/feeds/", feed_keys.feed_keys_view, name="club_feed_keys"),
    path("c/<slug:club_slug>/me/claim/", v.player_claim_view, name="player_claim"),
    path("c/<slug:club_slug>/me/name/", v.display_name_view, name="display_name"),
    path("c/<slug:club_slug>/manage/invitations/", v.invitations_view, name="club_invitations"),
    path(
        "c/<slug:club_slug>/manage/invitations/new/",
        v.invitation_create_view,
        name="invitation_create",
    ),
    path(
        "c/<slug:club_slug>/manage/invitations/<id:pk>/revoke/",
        v.invitation_revoke_view,
        name="invitation_revoke",
    ),
    path(
        "c/<slug:club_slug>/manage/invitations/<id:pk>/reissue/",
        v.invitation_reissue_view,
        name="invitation_reissue",
    ),
    path(
        "c/<slug:club_slug>/manage/claims/<id:pk>/confirm/",
        v.claim_confirm_view,
        name="claim_confirm",
    ),
    path(
        "c/<slug:club_slug>/manage/claims/<id:pk>/reject/",
        v.claim_reject_view,
        name="claim_reject",
    ),
    path(
        "c/<slug:club_slug>/manage/claims/<id:pk>/undo/",
        v.claim_undo_view,
        name="claim_undo",
    ),
    path("c/<slug:club_slug>/manage/players/merge/", v.player_merge_view, name="player_merge"),
    path(
        "c/<slug:club_slug>/manage/players/merge/<id:pk>/undo/",
        v.player_merge_undo_view,
        name="player_merge_undo",
    ),
]
