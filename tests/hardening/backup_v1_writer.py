"""The version-1 backup writer, as efuda shipped it until backups became tables of rows: the
restore must still read every file it wrote (test_backup.py makes one with it).

One object per line as Django's ``python`` serializer writes it, content types and permissions
by natural key, after the same manifest (``"version": 1``). Kept here word for word in what it
writes; the application writes version 2 (tournaments/services/backup.py).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import IO

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from tournaments.services.backup import FORMAT, _applied_migrations, _label, backup_models

CHUNK = 1000


def _rows(model, using: str) -> Iterator[dict]:
    queryset = model._default_manager.using(using).order_by("pk")
    batch: list = []
    for obj in queryset.iterator(chunk_size=CHUNK):
        batch.append(obj)
        if len(batch) >= CHUNK:
            yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)
            batch = []
    if batch:
        yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)


def _line(obj: dict) -> bytes:
    return (json.dumps(obj, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n").encode("utf-8")


def backup_write_v1(*, out: IO[bytes], using: str = DEFAULT_DB_ALIAS) -> dict:
    models = backup_models()
    connection = connections[using]
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        counts = {_label(m): m._default_manager.using(using).count() for m in models}
        manifest = {
            "format": FORMAT,
            "version": 1,
            "created": timezone.now().isoformat(),
            "database": connection.vendor,
            "migrations": _applied_migrations(using),
            "counts": counts,
        }
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
            gz.write(_line(manifest))
            for model in models:
                for obj in _rows(model, using):
                    gz.write(_line(obj))
    return manifest
