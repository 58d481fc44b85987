from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_merge_import_ratings"),
        ("tournaments", "0009_merge_tournaments_evening"),
    ]

    operations = []
