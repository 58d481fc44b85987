"""``manage.py restore IN``: restore a backup written by ``manage.py backup`` into an EMPTY,
migrated database, in one transaction (all or nothing). Any failure ends in one line saying why
and exit status 1; nothing is restored then. After a restore the cache is emptied."""

import sys

from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils.translation import gettext as _

from tournaments.services.backup import BackupError, backup_restore


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


class Command(BaseCommand):
    help = "Restore a backup file into an empty database (run migrate first, create no users)."

    def add_arguments(self, parser):
        parser.add_argument("src", help="backup file written by `manage.py backup`; - = stdin")
        parser.add_argument("--database", default="default")

    def handle(self, *args, src, database, **options):
        try:
            if src == "-":
                manifest = backup_restore(src=sys.stdin.buffer, using=database)
            else:
                with open(src, "rb") as fh:
                    manifest = backup_restore(src=fh, using=database)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(
                _("Nothing was restored: cannot read %(file)s: %(reason)s.")
                % {"file": src, "reason": _reason(exc)}
            ) from None
        except DatabaseError as exc:
            raise CommandError(
                _("Nothing was restored: the database failed: %(reason)s.")
                % {"reason": _reason(exc)}
            ) from None
        # Pages kept in a shared cache (CACHE_URL) for the database this one replaces are keyed
        # by club ids and data versions this one may reach again: none of them is served.
        cache.clear()
        total = sum(manifest["counts"].values())
        self.stdout.write(
            f"efuda restore: {total} rows restored from the backup of {manifest['created']}."
        )
