"""``/healthz``: whether this server can serve, for the proxy and for monitors (docs/deploy.md,
"Health"). JSON; 200 when the database answers, every migration is applied and the task worker
was seen within three heartbeats, else 503 naming the failing part. No login, no session, never
cached."""

import logging

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from ..selectors.health import health_report


@never_cache
@require_safe
def health_view(request):
    report = health_report(worker_within=3 * settings.WORKER_HEARTBEAT_SECONDS)
    return JsonResponse(report, status=200 if report["ok"] else 503)


class _Unlogged(logging.Filter):
    """Django logs every 5xx answer at ERROR (and mails it to ADMIN_EMAILS): a monitor asking
    every few seconds while the worker is stopped would flood both. The 503 here is the report
    itself; what failed in the database is logged once per call by ``efuda.health``."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        match = getattr(request, "resolver_match", None)
        return not (
            getattr(record, "status_code", None) == 503 and match and match.url_name == "health"
        )


logging.getLogger("django.request").addFilter(_Unlogged())
