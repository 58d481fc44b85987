"""``manage.py ratings_rebuild [--club SLUG]``: replay the stored ratings of one club (or every
club) in both games from their score lines. Run once after upgrading to a version with ratings;
afterwards deals keep them up to date by themselves."""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments.models import Club, Game
from tournaments.services.ratings import ratings_replay


class Command(BaseCommand):
    help = "Recompute the stored skill ratings of one club or of every club."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's address (slug); every club if omitted")

    def handle(self, *args, club=None, **options):
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club with the address {club!r}")
        for found in clubs:
            for game in Game.values:
                started = time.perf_counter()
                with transaction.atomic():
                    state = ratings_replay(club_id=found.pk, game=game)
                self.stdout.write(
                    f"{found.slug} {game}: {state.deals} deals rated in "
                    f"{time.perf_counter() - started:.1f} s"
                )
