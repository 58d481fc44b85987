"""The club's hiding flags (Club.has_private_tournament, Club.has_standings_freeze): the
visibility rule asks the database nothing where both are False. Existing clubs get them from
their tournaments, as services.cache.club_hiding_refresh writes them."""

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def set_flags(apps, schema_editor):
    Club = apps.get_model("tournaments", "Club")
    Tournament = apps.get_model("tournaments", "Tournament")
    db = schema_editor.connection.alias
    tournaments = Tournament.objects.using(db).filter(club_id=OuterRef("pk"))
    Club.objects.using(db).update(
        has_private_tournament=Exists(tournaments.filter(is_public=False)),
        has_standings_freeze=Exists(
            tournaments.filter(standings_hidden_rounds__gt=0, standings_revealed=False)
        ),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0024_webhooks"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="has_private_tournament",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name="club",
            name="has_standings_freeze",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(set_flags, migrations.RunPython.noop),
    ]
