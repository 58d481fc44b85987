"""Napoleon deals say 独り立ち (solo) and the redeal (流れ) explicitly in their stored data.

Before, a deal with no adjutant (or the Napoleon as adjutant) was scored as solo, and a deal with
neither a Napoleon nor a bid as a redeal. The scoring core now refuses both unless said, so the
deals already stored get ``"solo": true`` (adjutant cleared) and ``"redeal": true`` written into
their data, exactly as they were scored. Points do not change.
"""

from django.db import migrations


def _explicit(data: dict) -> dict | None:
    data = dict(data or {})
    changed = False
    if not data.get("redeal") and data.get("napoleon") in (None, "") and data.get("bid") is None:
        data["redeal"] = True
        changed = True
    if data.get("redeal"):
        return data if changed else None
    if "solo" not in data:
        adjutant = data.get("adjutant")
        solo = adjutant in (None, "") or str(adjutant) == str(data.get("napoleon"))
        data["solo"] = solo
        if solo:
            data["adjutant"] = None
        changed = True
    return data if changed else None


def forwards(apps, schema_editor):
    Deal = apps.get_model("tournaments", "Deal")
    for deal in Deal.objects.filter(game="napoleon").only("id", "data").iterator():
        data = _explicit(deal.data)
        if data is not None:
            Deal.objects.filter(pk=deal.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_merge_offline_ratings")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
