"""Club owners: members, roles, players, rule sets, settings; and founding a new club."""

from django.urls import path

from ..views import exports, imports, manage, webhooks

urlpatterns = [
    path("clubs/new/", manage.club_new_view, name="club_new"),
    path("c/<slug:club_slug>/manage/", manage.club_manage_view, name="club_manage"),
    path("c/<slug:club_slug>/manage/settings/", manage.club_settings_view, name="club_settings"),
    path("c/<slug:club_slug>/manage/members/add/", manage.member_add_view, name="member_add"),
    path(
        "c/<slug:club_slug>/manage/members/<id:pk>/role/",
        manage.member_role_view,
        name="member_role",
    ),
    path(
        "c/<slug:club_slug>/manage/members/<id:pk>/remove/",
        manage.member_remove_view,
        name="member_remove",
    ),
    path(
        "c/<slug:club_slug>/manage/players/<id:pk>/rename/",
        manage.player_rename_view,
        name="player_rename",
    ),
    path(
        "c/<slug:club_slug>/manage/players/<id:pk>/active/",
        manage.player_active_view,
        name="player_active",
    ),
    path(
        "c/<slug:club_slug>/manage/players/<id:pk>/anonymise/",
        manage.player_anonymise_view,
        name="player_anonymise",
    ),
    # Webhooks: tournaments/views/webhooks.py (docs/api.md, "Webhooks").
    path("c/<slug:club_slug>/manage/webhooks/", webhooks.webhooks_view, name="webhooks"),
    path("c/<slug:club_slug>/manage/webhooks/<id:pk>/", webhooks.webhook_view, name="webhook"),
    path(
        "c/<slug:club_slug>/manage/webhooks/<id:pk>/ping/",
        webhooks.webhook_ping_view,
        name="webhook_ping",
    ),
    path(
        "c/<slug:club_slug>/manage/webhooks/<id:pk>/delete/",
        webhooks.webhook_delete_view,
        name="webhook_delete",
    ),
    path("c/<slug:club_slug>/manage/rulesets/new/", manage.ruleset_edit_view, name="ruleset_new"),
    path(
        "c/<slug:club_slug>/manage/rulesets/<id:pk>/",
        manage.ruleset_edit_view,
        name="ruleset_edit",
    ),
    # Every deal out as a results file (owners and scorekeepers): tournaments/views/exports.py.
    path("c/<slug:club_slug>/export/", exports.results_export_view, name="results_export"),
    # CSV import of results: tournaments/views/imports.py.
    path("c/<slug:club_slug>/manage/import/", imports.results_import_view, name="manage_import"),
    path(
        "c/<slug:club_slug>/manage/import/<id:job_id>/",
        imports.import_job_view,
        name="manage_import_job",
    ),
    path(
        "c/<slug:club_slug>/manage/import/<id:job_id>/restart/",
        imports.import_job_restart_view,
        name="manage_import_job_restart",
    ),
]
