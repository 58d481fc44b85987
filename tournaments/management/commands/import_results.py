"""``manage.py import_results FILE.csv --club SLUG``: all or nothing (docs/import-format.md)."""

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_slug
from django.utils import translation
from django.utils.translation import gettext, ngettext

from tournaments.models import Club
from tournaments.services.clubs import club_create, club_discard_empty
from tournaments.services.imports import ImportFailed, import_summary, results_import


class Command(BaseCommand):
    help = (
        "Import Napoleon or Daifugō results from a CSV file (UTF-8 or Shift_JIS), an .xlsx or .ods "
        "spreadsheet; nothing on any error."
    )
    # Django's system checks (models, URLs, templates: every view module imported) cost about
    # half a second of start-up for a command that needs none of them; `manage.py check` and
    # the deploy checks run them where they belong (docs/performance.md, "Imports").
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file ('-' reads standard input)")
        parser.add_argument("--club", required=True, help="club slug; created if missing")
        parser.add_argument("--sheet", default="", help="the workbook's sheet (default: the first)")
        parser.add_argument(
            "--lang",
            default="en",
            choices=["en", "ja"],
            help="language of the messages (default: en)",
        )

    def handle(self, *args, file, club, lang, sheet="", **options):
        with translation.override(lang):
            try:
                validate_slug(club)
            except ValidationError:
                raise CommandError(
                    gettext("--club %(club)s: use letters, digits, - and _ only.") % {"club": club}
                ) from None
            data = self._read(file)
            # No transaction around the import: it checks and scores holding no lock and writes
            # in one short transaction of its own (an outer one would hold SQLite's only writer,
            # or PostgreSQL's row locks, for the whole import). A club created here is removed
            # again if the import fails.
            target = Club.objects.filter(slug=club).first()
            created = target is None
            if created:
                target = club_create(slug=club, name=club)
            try:
                report = results_import(club=target, file=data, filename=file, sheet=sheet)
            except BaseException as failed:
                if created:
                    club_discard_empty(club=target)
                if not isinstance(failed, ImportFailed):
                    raise
                lines = [str(p) for p in failed.problems]
                summary = ngettext(
                    "%(count)d error; nothing was imported.",
                    "%(count)d errors; nothing was imported.",
                    len(lines),
                ) % {"count": len(lines)}
                raise CommandError("\n".join([*lines, summary])) from None
            self.stdout.write(
                import_summary(
                    game=report.game,
                    deals=report.deals,
                    redeals=report.redeals,
                    sessions=len(report.sessions),
                    players=report.players_created,
                    club=target.slug,
                )  # fmt: skip
            )
            self.stdout.write(
                gettext("The file was read as %(source)s.") % {"source": report.source}
            )

    def _read(self, file: str) -> bytes:
        if file == "-":
            return sys.stdin.buffer.read()
        try:
            return Path(file).read_bytes()
        except OSError as err:
            raise CommandError(
                gettext("Cannot read %(file)s: %(reason)s") % {"file": file, "reason": err.strerror}
            ) from None
