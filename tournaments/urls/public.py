"""Read pages: what outsiders may reach when a club is public (members only otherwise)."""

from django.urls import path

from ..views import public, reports

urlpatterns = [
    path("c/<slug:club_slug>/", public.club_home, name="club_home"),
    path("c/<slug:club_slug>/standings/<str:game>/", public.standings, name="standings_all"),
    path(
        "c/<slug:club_slug>/standings/<str:game>/<year:year>/",
        public.standings,
        name="standings_season",
    ),
    path(
        "c/<slug:club_slug>/standings/<str:game>/<year:year>/<month:month>/",
        public.standings,
        name="standings_month",
    ),
    path("c/<slug:club_slug>/players/<id:player_id>/", public.player_detail, name="player_detail"),
    path(
        "c/<slug:club_slug>/sessions/<id:session_id>/sheet.pdf",
        reports.session_sheet,
        name="session_sheet_pdf",
    ),
    path(
        "c/<slug:club_slug>/sessions/<id:session_id>/blank.pdf",
        reports.session_blank,
        name="session_blank_pdf",
    ),
]
