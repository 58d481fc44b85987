"""Deal.client_id (the id a phone gives each deal) replaces Deal.submission_key.

Keys the entry form made were uuid4().hex, so they become the same deal's client_id; any other
key (tests, hand-made posts) only ever guarded against a double submit that has happened or not
by now, and is dropped.
"""

import uuid

from django.db import migrations, models


def keys_to_client_ids(apps, schema_editor):
    Deal = apps.get_model("tournaments", "Deal")
    keyed = Deal.objects.exclude(submission_key__isnull=True).exclude(submission_key="")
    seen = set()
    for pk, key in keyed.values_list("pk", "submission_key").iterator():
        try:
            client_id = uuid.UUID(key)
        except ValueError:
            continue
        if client_id not in seen:  # "ab-cd" and "abcd" spell the same id: the first keeps it
            seen.add(client_id)
            Deal.objects.filter(pk=pk).update(client_id=client_id)


def client_ids_to_keys(apps, schema_editor):
    Deal = apps.get_model("tournaments", "Deal")
    for pk, client_id in Deal.objects.exclude(client_id=None).values_list("pk", "client_id"):
        Deal.objects.filter(pk=pk).update(submission_key=client_id.hex)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="client_id",
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.RunPython(keys_to_client_ids, client_ids_to_keys),
        migrations.RemoveField(
            model_name="deal",
            name="submission_key",
        ),
    ]
