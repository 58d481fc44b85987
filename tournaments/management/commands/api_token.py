"""``manage.py api_token USER [--name NAME]``: prints a new read-and-write API token of USER
(for scripts; the person sees it, and may revoke it, on their tokens page)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.models import TokenScope
from tournaments.services.api import token_create


class Command(BaseCommand):
    help = "Print a new read-and-write API token of a user (shown once; only its hash is kept)."

    def add_arguments(self, parser):
        parser.add_argument("user", help="user name")
        parser.add_argument("--name", default="manage.py api_token", help="the token's name")

    def handle(self, *args, user, name, **options):
        found = get_user_model().objects.filter(username=user, is_active=True).first()
        if found is None:
            raise CommandError(f"no active user {user!r}")
        _token, raw = token_create(user=found, name=name, scope=TokenScope.WRITE)
        self.stdout.write(raw)
