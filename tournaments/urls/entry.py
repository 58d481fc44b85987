"""Sessions and deal entry: the session list and page (readers), recording and correcting
deals (scorekeepers)."""

from django.urls import path

from ..views import entry, sessions

urlpatterns = [
    path("c/<slug:club_slug>/sessions/", sessions.session_list_view, name="session_list"),
    path("c/<slug:club_slug>/sessions/new/", sessions.session_new_view, name="session_new"),
    path(
        "c/<slug:club_slug>/sessions/<id:pk>/", sessions.session_detail_view, name="session_detail"
    ),
    path("c/<slug:club_slug>/sessions/<id:pk>/deals/new/", entry.deal_new_view, name="deal_new"),
    path(
        "c/<slug:club_slug>/sessions/<id:pk>/deals/preview/",
        entry.deal_preview_view,
        name="deal_preview",
    ),
    path("c/<slug:club_slug>/sessions/<id:pk>/rounds/new/", entry.round_new_view, name="round_new"),
    path(
        "c/<slug:club_slug>/sessions/<id:pk>/rounds/preview/",
        entry.round_preview_view,
        name="round_preview",
    ),
    path("c/<slug:club_slug>/deals/<id:pk>/edit/", entry.deal_edit_view, name="deal_edit"),
    path("c/<slug:club_slug>/deals/<id:pk>/delete/", entry.deal_delete_view, name="deal_delete"),
    path("c/<slug:club_slug>/deals/<id:pk>/restore/", entry.deal_restore_view, name="deal_restore"),
    path("c/<slug:club_slug>/deals/<id:pk>/history/", entry.deal_history_view, name="deal_history"),
]
