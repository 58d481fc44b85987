"""``manage.py restore IN``: restore a backup written by ``manage.py backup`` into an EMPTY,
migrated database, in one transaction (all or nothing)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.backup import BackupError, backup_restore


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
                try:
                    fh = open(src, "rb")  # noqa: SIM115 (closed below)
                except OSError as exc:
                    raise CommandError(f"Cannot open {src}: {exc.strerror}") from None
                with fh:
                    manifest = backup_restore(src=fh, using=database)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        total = sum(manifest["counts"].values())
        self.stdout.write(
            f"efuda restore: {total} rows restored from the backup of {manifest['created']}."
        )
