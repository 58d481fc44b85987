"""``manage.py export_standings --club SLUG --game napoleon|daifugo [--month YYYY-MM] [--all]
[--language ja|en]``.

The header row is in ``--language`` (the site's own language, Japanese, unless given), as the
``?format=csv`` download's is in its reader's: the same reader and language give the same
bytes. Prints what every reader of the club's pages sees
(``selectors.visibility.common_visibility``: no private tournament's deals for a public club, no
frozen round's); ``--all`` adds them, as the club's own staff see the standings."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournaments.exports import write_csv
from tournaments.models import Club, Game
from tournaments.selectors.standings import Period, standings
from tournaments.selectors.visibility import Visibility, common_visibility


class Command(BaseCommand):
    help = "Write a club's standings as CSV to stdout (all time unless --month is given)."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="club address (slug)")
        parser.add_argument("--game", required=True, choices=Game.values)
        parser.add_argument("--month", help="YYYY-MM; all time when left out")
        parser.add_argument(
            "--min",
            type=int,
            default=0,
            dest="min_deals",
            help="minimum deals for the rate columns",
        )
        parser.add_argument(
            "--all",
            action="store_true",
            dest="everything",
            help="include the deals hidden from the club's readers (private tournaments of a "
            "public club, rounds of a standings freeze), as the club's staff see them",
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the header row's language (default: the site's, %(default)s)",
        )
        parser.add_argument(
            "--no-bom",
            action="store_true",
            help="plain UTF-8 (default: UTF-8 with a byte-order mark, for spreadsheet apps)",
        )

    def handle(
        self, *args, club, game, month=None, min_deals=0, no_bom=False, everything=False,
        language=None, **options,
    ):  # fmt: skip
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with address {club!r}")
        period = Period("all")
        if month:
            try:
                period = Period.parse(month)
            except ValueError:
                period = None
            if period is None or period.kind != "month":
                raise CommandError(f"--month must be YYYY-MM, not {month!r}")
        visibility = (
            Visibility(club_id=found.pk) if everything else common_visibility(club_id=found.pk)
        )
        result = standings(
            club=found, game=game, period=period, min_deals=min_deals, visibility=visibility
        )
        self.stdout.ending = ""
        with translation.override(language or settings.LANGUAGE_CODE):
            write_csv(self.stdout, result, bom=not no_bom)
