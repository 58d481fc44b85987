"""``manage.py club_owner --club SLUG USER``: make an account an owner of a club (a member
raised, or a newcomer added), for a site administrator recovering a club whose owners are all
gone. ``manage.py club_owner --ownerless`` lists the clubs with no owner who can log in.
docs/accounts.md, "Owners"."""

from django.core.management.base import BaseCommand, CommandError

from core.errors import EfudaError
from tournaments.i18n import error_text
from tournaments.models import Club, Role
from tournaments.selectors.clubs import clubs_without_owner
from tournaments.services.members import member_add, user_by_name


class Command(BaseCommand):
    help = "Make an account an owner of a club, or list the clubs without an owner."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", help="the account's user name")
        parser.add_argument("--club", help="the club's address (slug)")
        parser.add_argument(
            "--ownerless", action="store_true", help="list the clubs without an owner"
        )

    def handle(self, *args, username=None, club=None, ownerless=False, **options):
        if ownerless:
            for found in clubs_without_owner():
                self.stdout.write(f"{found.slug}\t{found.name}")
            return
        if not club or not username:
            raise CommandError("give --club SLUG and the USERNAME (or --ownerless)")
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with the address {club!r}")
        user = user_by_name(username)
        if user is not None and not user.is_active:
            raise CommandError(
                f"the account {user.get_username()!r} is deactivated: activate it in the "
                "admin first (an owner who cannot log in owns nothing)"
            )
        try:
            membership = member_add(club=found, username=username, role=Role.OWNER)
        except EfudaError as err:
            raise CommandError(error_text(err)) from None
        self.stdout.write(f"{membership.user.get_username()} is now an owner of {found.slug}")
