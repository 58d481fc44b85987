from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tournaments_evening"),
        ("tournaments", "0009_merge_import_ratings"),
    ]

    operations = []
