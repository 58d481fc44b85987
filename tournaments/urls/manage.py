from django.urls import path  # noqa: F401

urlpatterns: list = []

# CSV import (club owners).
from ..views import imports as import_views  # noqa: E402

urlpatterns += [
    path("c/<slug:club_slug>/manage/import/", import_views.results_import_view,
         name="manage_import"),
]
