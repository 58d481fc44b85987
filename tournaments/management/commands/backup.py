"""``manage.py backup OUT``: write a full backup of efuda's data (gzip JSON lines).

See tournaments/services/backup.py for the format and docs/deploy.md for the routine.
"""

import os
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand

from tournaments.services.backup import backup_write


class Command(BaseCommand):
    help = "Write a full backup of every efuda table (users, clubs, deals, history) to OUT."

    def add_arguments(self, parser):
        parser.add_argument("out", help="file to write (e.g. efuda-20261123.json.gz); - = stdout")
        parser.add_argument("--database", default="default")

    def handle(self, *args, out, database, **options):
        if out == "-":
            manifest = backup_write(out=sys.stdout.buffer, using=database)
            sys.stdout.buffer.flush()
        else:
            target = Path(out)
            # Write next to the target and rename: a crash never leaves a half file named OUT.
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
        total = sum(manifest["counts"].values())
        self.stderr.write(
            f"efuda backup: {total} rows from {len(manifest['counts'])} tables -> {out}"
        )
