from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path

from tournaments.api import urls as api_urls

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", api_urls()),  # the JSON API (tournaments/api, docs/api.md)
    # allauth's views under the names the templates and tests have always used.
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("", include("tournaments.urls")),
]

# The error pages in the site's frame and the reader's language (tournaments/views/errors.py).
handler403 = "tournaments.views.errors.permission_denied_view"
handler404 = "tournaments.views.errors.page_not_found_view"
handler500 = "tournaments.views.errors.server_error_view"
