"""``manage.py export_results --club SLUG --game napoleon|daifugo [--format csv|xlsx]
[--from YYYY-MM-DD] [--to YYYY-MM-DD] [--encoding utf-8|shift_jis] [--no-bom] [--output FILE]``.

Every live deal of the club in one game, in the file ``import_results`` reads back
(docs/import-format.md): CSV on standard output unless ``--output`` names a file (a workbook
always needs ``--output``)."""

import datetime
import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import EfudaError
from tournaments import exports
from tournaments.i18n import error_text
from tournaments.models import Club, Game
from tournaments.selectors.results import results_rows


def _day(value: str | None, option: str) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{option} must be YYYY-MM-DD, not {value!r}") from None


class Command(BaseCommand):
    help = "Write a club's deals of one game as a results file the import reads back."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="club address (slug)")
        parser.add_argument("--game", required=True, choices=Game.values)
        parser.add_argument("--format", choices=("csv", "xlsx"), default="csv")
        parser.add_argument("--from", dest="date_from", help="first day, YYYY-MM-DD")
        parser.add_argument("--to", dest="date_to", help="last day, YYYY-MM-DD")
        parser.add_argument(
            "--encoding", choices=("utf-8", "shift_jis"), default="utf-8",
            help="CSV only: utf-8 (default, with a byte-order mark) or shift_jis",
        )  # fmt: skip
        parser.add_argument("--no-bom", action="store_true", help="CSV in UTF-8 without a BOM")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, club, game, format="csv", date_from=None, date_to=None,
               encoding="utf-8", no_bom=False, output=None, **options):  # fmt: skip
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with address {club!r}")
        start, end = _day(date_from, "--from"), _day(date_to, "--to")
        if start and end and start > end:
            raise CommandError("--to comes before --from")
        rows = results_rows(club=found, game=game, date_from=start, date_to=end)
        if format == "xlsx":
            if not output:
                raise CommandError("a workbook needs --output FILE")
            body = exports.xlsx_bytes(rows, sheet=str(Game(game).label))
        else:
            try:
                body = exports.csv_bytes(
                    rows,
                    encoding=exports.SHIFT_JIS if encoding == "shift_jis" else "utf-8",
                    bom=not no_bom,
                )
            except EfudaError as err:
                raise CommandError(error_text(err)) from None
        if output:
            with open(output, "wb") as handle:
                handle.write(body)
            return
        stream = getattr(self.stdout, "_out", sys.stdout)
        if hasattr(stream, "buffer"):
            stream.flush()
            stream.buffer.write(body)
            stream.buffer.flush()
        else:  # a text stream (call_command's StringIO): the text itself
            stream.write(body.decode(exports.SHIFT_JIS if encoding == "shift_jis" else "utf-8"))
