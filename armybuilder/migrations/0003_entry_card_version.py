"""Saved list entries are pinned to a card version. Entries that exist already are pinned to
their card's current version: that is the data they were last judged with."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def pin_existing_entries(apps, schema_editor):
    ListEntry = apps.get_model("armybuilder", "ListEntry")
    Card = apps.get_model("cards", "Card")
    current = Card.objects.filter(pk=OuterRef("card_id")).values("current_version_id")[:1]
    ListEntry.objects.filter(card_version__isnull=True).update(card_version=Subquery(current))


class Migration(migrations.Migration):
    dependencies = [
        ("armybuilder", "0002_collection"),
        ("cards", "0003_cardversion_unique_digest"),
    ]

    operations = [
        migrations.AddField(
            model_name="listentry",
            name="card_version",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="cards.cardversion",
            ),
        ),
        migrations.RunPython(pin_existing_entries, migrations.RunPython.noop),
    ]
