"""Club owners upload a results file: the same all-or-nothing import as ``import_results``.

The file is checked first (its kind from its content, what it claims against every limit: a file
over one is refused at once, and nothing is stored). A small CSV file is then imported in the
request; a large one (more than ``settings.IMPORT_BACKGROUND_LINES`` lines, or any workbook)
goes to the task queue and the owner watches its progress on the job's page (htmx polls
``import_job_view``)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from core.errors import EfudaError

from ..i18n import error_text
from ..models import ImportJob, Role
from ..permissions import club_for_request
from ..services.import_files import source_label
from ..services.import_jobs import (
    import_check,
    import_in_background,
    import_job_create,
    import_job_expire,
    import_job_restart,
)
from ..services.imports import (
    DAIFUGO_COLUMNS,
    MAX_BYTES,
    NAPOLEON_COLUMNS,
    NAPOLEON_DEAL_OPTIONAL,
    SESSION_OPTIONAL,
    ImportFailed,
    ImportProblem,
    import_summary,
    results_import,
)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_(
            "CSV file (UTF-8 or Shift_JIS), Excel workbook (.xlsx) or LibreOffice spreadsheet "
            "(.ods)"
        ),
        help_text=_("Napoleon deals or Daifugō rounds; the header row says which."),
    )
    sheet = forms.CharField(
        label=_("Sheet (workbooks only)"), required=False, max_length=100,
        help_text=_("Leave empty for the first sheet."),
    )  # fmt: skip


def _success(report) -> str:
    """What was imported, counted as the game counts: Napoleon deals (with their redeals),
    Daifugō rounds (回戦)."""
    text = import_summary(game=report.get("game", ""), deals=report.get("deals", 0),
                          redeals=report.get("redeals", 0), sessions=report.get("sessions", 0),
                          players=report.get("players", 0))  # fmt: skip
    # How the file was read, in the reader's language (an older job stored it translated).
    kind = report.get("source_kind")
    source = source_label(kind, report.get("sheet", "")) if kind else report.get("source", "")
    return text + " " + gettext("The file was read as %(source)s.") % {"source": source}


@login_required
@require_http_methods(["GET", "POST"])
def results_import_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    problems = []
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        # Read one byte more than allowed, so the service can say the file is too big.
        data = upload.read(MAX_BYTES + 1)
        sheet = form.cleaned_data["sheet"].strip()
        try:
            checked = import_check(data, filename=upload.name)
            if import_in_background(checked):
                job = import_job_create(club=club, data=data, user=request.user,
                                        filename=upload.name, sheet=sheet,
                                        language=get_language(), checked=checked)  # fmt: skip
                return redirect("manage_import_job", club_slug=club.slug, job_id=job.pk)
            report = results_import(club=club, file=data, user=request.user,
                                    filename=upload.name, sheet=sheet)  # fmt: skip
        except EfudaError as err:  # too many imports waiting (services/import_jobs.py)
            problems = [ImportProblem(1, err.field, error_text(err))]
        except ImportFailed as failed:
            problems = failed.problems
        else:
            messages.success(request, _success({
                "game": report.game, "deals": report.deals, "redeals": report.redeals,
                "source_kind": report.source_kind, "sheet": report.sheet,
                "sessions": len(report.sessions), "players": report.players_created}))  # fmt: skip
            return redirect("manage_import", club_slug=club.slug)
    return render(request, "tournaments/imports/upload.html", {
        "club": club,
        "form": form,
        "problems": problems,
        "napoleon_header": ",".join(NAPOLEON_COLUMNS),
        "napoleon_optional": ",".join(NAPOLEON_DEAL_OPTIONAL),
        "session_optional": ",".join(SESSION_OPTIONAL),
        "daifugo_header": ",".join(DAIFUGO_COLUMNS),
    }, status=400 if problems else 200)  # fmt: skip


@login_required
@require_safe
def import_job_view(request, club_slug: str, job_id: int):
    """A background import: progress while it runs (the page polls itself with htmx, every
    second, for the fragment only), then the outcome with every error."""
    club = club_for_request(request, club_slug, role=Role.OWNER)
    job = get_object_or_404(ImportJob.objects.defer("data"), pk=job_id, club=club)
    job = import_job_expire(job=job)  # a job whose worker stopped shows as failed
    problems = [ImportProblem.from_stored(p) for p in job.problems]
    done = job.status == ImportJob.Status.DONE
    context = {"club": club, "job": job, "problems": problems,
               "summary": _success(job.report) if done else ""}  # fmt: skip
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/imports/_job.html", context)
    return render(request, "tournaments/imports/job.html", context)


@login_required
@require_http_methods(["POST"])
def import_job_restart_view(request, club_slug: str, job_id: int):
    """Start again a background import whose worker stopped (its file was kept)."""
    club = club_for_request(request, club_slug, role=Role.OWNER)
    job = get_object_or_404(ImportJob.objects.defer("data"), pk=job_id, club=club)
    try:
        import_job_restart(job=job, user=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    return redirect("manage_import_job", club_slug=club.slug, job_id=job.pk)
