"""Each rating row keeps its rating chart's points (Rating.curve): the player page reads them
instead of the history. Existing rows get them from the history of their club's current
generation, as services/rating_curves.py keeps them (the rule is written out here: a
migration does not follow later changes of the code)."""

from django.db import migrations, models

CHART_POINTS = 120


def _ns(total):
    step = max(1, -(-total // CHART_POINTS))
    return sorted({*range(step, total + 1, step), 1, total}) if total else []


def fill_curves(apps, schema_editor):
    Rating = apps.get_model("tournaments", "Rating")
    RatingHistory = apps.get_model("tournaments", "RatingHistory")
    RatingState = apps.get_model("tournaments", "RatingState")
    db = schema_editor.connection.alias
    generations = {
        (club_id, game): generation
        for club_id, game, generation in RatingState.objects.using(db).values_list(
            "club_id", "game", "generation"
        )
    }
    for rating in Rating.objects.using(db).only("club_id", "game", "player_id", "deals"):
        generation = generations.get((rating.club_id, rating.game), 0)
        rows = (
            RatingHistory.objects.using(db)
            .filter(
                player_id=rating.player_id,
                game=rating.game,
                generation=generation,
                n__in=_ns(rating.deals),
            )
            .order_by("n")
            .values_list("n", "date", "mu", "sigma")
        )
        curve = "".join(
            f"{n} {day.isoformat()} {round(mu, 2)!r} {round(mu - 3 * sigma, 2)!r}\n"
            for n, day, mu, sigma in rows
        )
        Rating.objects.using(db).filter(pk=rating.pk).update(curve=curve)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_club_hides_flag"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="curve",
            field=models.TextField(blank=True, db_default="", default=""),
        ),
        migrations.RunPython(fill_curves, migrations.RunPython.noop),
    ]
