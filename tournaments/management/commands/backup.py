"""``manage.py backup OUT``: write a full backup of efuda's data (gzip JSON lines).

See tournaments/services/backup.py for the format and docs/deploy.md for the routine. A backup
that cannot be written (a full disk, a file size limit, a database that does not answer) ends
in one line saying why and exit status 1, and leaves no file behind.
"""

import os
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils.translation import gettext as _

from tournaments.services.backup import backup_write


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


class Command(BaseCommand):
    help = "Write a full backup of every efuda table (users, clubs, deals, history) to OUT."

    def add_arguments(self, parser):
        parser.add_argument("out", help="file to write (e.g. efuda-20261123.json.gz); - = stdout")
        parser.add_argument("--database", default="default")

    def handle(self, *args, out, database, **options):
        try:
            manifest = self._write(out, database)
        except OSError as exc:
            raise CommandError(
                _("No backup was written to %(file)s: %(reason)s. No file was left behind.")
                % {"file": out, "reason": _reason(exc)}
            ) from None
        except DatabaseError as exc:
            raise CommandError(
                _("No backup was written: the database failed: %(reason)s. No file was left "
                  "behind.") % {"reason": _reason(exc)}
            ) from None  # fmt: skip
        total = sum(manifest["counts"].values())
        self.stderr.write(
            f"efuda backup: {total} rows from {len(manifest['counts'])} tables -> {out}"
        )

    def _write(self, out: str, database: str) -> dict:
        if out == "-":
            manifest = backup_write(out=sys.stdout.buffer, using=database)
            sys.stdout.buffer.flush()
            return manifest
        target = Path(out)
        # Write next to the target and rename: a failure never leaves a half file named OUT.
        fd, tmp = tempfile.mkstemp(prefix=".efuda-backup-", dir=target.parent or ".")
        try:
            with os.fdopen(fd, "wb") as fh:
                manifest = backup_write(out=fh, using=database)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o600)  # holds password hashes
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return manifest
