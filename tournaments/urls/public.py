"""Read pages: what outsiders may reach when a club is public (members only otherwise)."""

from django.urls import path

from ..views import cards, embeds, feeds, public, reports

urlpatterns = [
    path("c/<slug:club_slug>/", public.club_home_view, name="club_home"),
    path("c/<slug:club_slug>/standings/<str:game>/", public.standings_view, name="standings_all"),
    path(
        "c/<slug:club_slug>/standings/<str:game>/<year:year>/",
        public.standings_view,
        name="standings_season",
    ),
    path(
        "c/<slug:club_slug>/standings/<str:game>/<year:year>/<month:month>/",
        public.standings_view,
        name="standings_month",
    ),
    path(
        "c/<slug:club_slug>/embed/standings/<str:game>/",
        embeds.embed_standings_view,
        name="embed_standings_all",
    ),
    path(
        "c/<slug:club_slug>/embed/standings/<str:game>/<year:year>/",
        embeds.embed_standings_view,
        name="embed_standings_season",
    ),
    path(
        "c/<slug:club_slug>/embed/standings/<str:game>/<year:year>/<month:month>/",
        embeds.embed_standings_view,
        name="embed_standings_month",
    ),
    path(
        "c/<slug:club_slug>/standings/<str:game>/<year:year>/<month:month>/card.png",
        cards.standings_card_view,
        name="standings_card",
    ),
    path(
        "c/<slug:club_slug>/sessions/<id:pk>/card.png",
        cards.session_card_view,
        name="session_card",
    ),
    path("c/<slug:club_slug>/ratings/about/", public.ratings_about_view, name="ratings_about"),
    path("c/<slug:club_slug>/ratings/<str:game>/", public.ratings_view, name="ratings"),
    path(
        "c/<slug:club_slug>/players/<id:player_id>/",
        public.player_detail_view,
        name="player_detail",
    ),
    path(
        "c/<slug:club_slug>/sessions/<id:session_id>/sheet.pdf",
        reports.session_sheet_view,
        name="session_sheet_pdf",
    ),
    path(
        "c/<slug:club_slug>/sessions/<id:session_id>/blank.pdf",
        reports.session_blank_view,
        name="session_blank_pdf",
    ),
    path("c/<slug:club_slug>/sessions.atom", feeds.sessions_feed_view, name="club_sessions_feed"),
    path(
        "c/<slug:club_slug>/tournaments.ics",
        feeds.tournaments_ics_view,
        name="club_tournaments_ics",
    ),
    path("c/<slug:club_slug>/blank-sheet/", reports.club_blank_sheet_view, name="club_blank_sheet"),
]
