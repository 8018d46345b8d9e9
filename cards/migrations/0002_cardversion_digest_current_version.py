"""Card versions become immutable: a `digest` of label + stats, unique per card (a label
may now appear twice, with different stats), and `Card.current_version`. Existing rows get
their digest; each card points at its latest recorded version. The uniqueness of the
digest is added by the next migration (its own transaction: PostgreSQL will not alter a
table with pending trigger events)."""

import hashlib
import json

import django.db.models.deletion
from django.db import migrations, models


def _digest(version, stats):
    # The same canonical form as cards.models.version_digest (copied: a migration must not
    # change when the app's code does).
    canonical = json.dumps(
        {"version": version, "stats": stats},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def fill_digests_and_current_versions(apps, schema_editor):
    CardVersion = apps.get_model("cards", "CardVersion")
    Card = apps.get_model("cards", "Card")
    versions = list(CardVersion.objects.only("pk", "version", "stats"))
    for version in versions:
        version.digest = _digest(version.version, version.stats)
    CardVersion.objects.bulk_update(versions, ["digest"], batch_size=500)
    latest = {}
    for pk, card_id in CardVersion.objects.order_by("card_id", "recorded_at", "pk").values_list(
        "pk", "card_id"
    ):
        latest[card_id] = pk  # the last one wins: the latest recorded
    cards = [Card(pk=card_id, current_version_id=pk) for card_id, pk in latest.items()]
    Card.objects.bulk_update(cards, ["current_version"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="cardversion",
            name="cardversion_unique_label",
        ),
        migrations.AddField(
            model_name="cardversion",
            name="digest",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="card",
            name="current_version",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="cards.cardversion",
            ),
        ),
        migrations.RunPython(fill_digests_and_current_versions, migrations.RunPython.noop),
    ]
