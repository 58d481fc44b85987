"""Club owners: members, roles, players, rule sets, settings; and founding a new club."""

from django.urls import path

from ..views import manage

urlpatterns = [
    path("clubs/new/", manage.club_new, name="club_new"),
    path("c/<slug:club>/manage/", manage.manage_home, name="club_manage"),
    path("c/<slug:club>/manage/settings/", manage.club_settings_view, name="club_settings"),
    path("c/<slug:club>/manage/members/add/", manage.member_add_view, name="member_add"),
    path("c/<slug:club>/manage/members/<id:pk>/role/", manage.member_role_view, name="member_role"),
    path(
        "c/<slug:club>/manage/members/<id:pk>/remove/",
        manage.member_remove_view,
        name="member_remove",
    ),
    path(
        "c/<slug:club>/manage/players/<id:pk>/rename/",
        manage.player_rename_view,
        name="player_rename",
    ),
    path(
        "c/<slug:club>/manage/players/<id:pk>/active/",
        manage.player_active_view,
        name="player_active",
    ),
    path("c/<slug:club>/manage/rulesets/new/", manage.ruleset_edit_view, name="ruleset_new"),
    path("c/<slug:club>/manage/rulesets/<id:pk>/", manage.ruleset_edit_view, name="ruleset_edit"),
]

# CSV import of results (club owners): tournaments/views/imports.py.
from ..views import imports as import_views  # noqa: E402

urlpatterns += [
    path("c/<slug:club>/manage/import/", import_views.results_import_view, name="manage_import"),
]
