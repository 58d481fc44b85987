"""Reading version-1 backups (efuda wrote them until backups became tables of rows).

A version-1 file holds, after its manifest, one object per line as Django's ``python``
serializer writes it (``model``, ``pk``, ``fields``; many-to-many fields inside their object;
content types and permissions by natural key). It is restored object by object through the
serializer, a few hundred rows a second: slow for a big club, but every version-1 file ever
written still restores. ``backup.backup_restore`` calls this inside its transaction and does
the checks common to both versions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.core import serializers
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError
from django.utils.translation import gettext as _

from .backup_errors import BackupError, damaged


def _objects(lines: Iterable, counts: dict[str, int]) -> Iterator[dict]:
    for _number, obj in lines:
        if not isinstance(obj, dict) or "model" not in obj:
            raise BackupError(_("The backup contains a line that is not a stored object."))
        label = str(obj["model"]).lower()
        counts[label] = counts.get(label, 0) + 1
        yield obj


def restore_objects(lines: Iterable, *, using: str, wanted: set[str],
                    loaded: dict[str, int]) -> set:  # fmt: skip
    """Save every object of ``lines`` ((line number, decoded line) pairs); count them per
    model in ``loaded``; return the models written."""
    touched = set()
    try:
        for item in serializers.deserialize(
            "python", _objects(lines, loaded), using=using, handle_forward_references=True
        ):
            model = type(item.object)
            if model._meta.label_lower not in wanted:
                raise BackupError(
                    _("The backup holds %(model)s rows, which are not part of a backup.")
                    % {"model": model._meta.label_lower}
                )
            try:
                item.save(using=using)
            except (IntegrityError, DataError, ValueError, TypeError, OverflowError,
                    ValidationError) as exc:  # fmt: skip
                raise damaged(exc, model._meta.db_table) from None
            touched.add(model)
    except serializers.base.DeserializationError as exc:
        raise BackupError(_("The backup could not be read: %(error)s") % {"error": exc}) from None
    return touched
