"""The site's addresses and one that fails (a server error page, seen in the browser)."""

from django.urls import path

from config import urls as site


def boom_view(request):
    raise RuntimeError("a deliberate failure: the server error page")


urlpatterns = [path("_boom/", boom_view), *site.urlpatterns]
for _name in ("handler400", "handler403", "handler404", "handler500"):
    if hasattr(site, _name):
        globals()[_name] = getattr(site, _name)
