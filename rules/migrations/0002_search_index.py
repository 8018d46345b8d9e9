"""The full-text index of rule sections: an FTS5 table + triggers on SQLite, a generated
tsvector column + GIN index on PostgreSQL (nothing on other databases). The model state
does not change: the index lives beside the Section model (see rules/search/schema.py)."""

from django.db import migrations


def create_index(apps, schema_editor):
    from rules.search import schema

    schema.create(schema_editor.connection)


def drop_index(apps, schema_editor):
    from rules.search import schema

    schema.drop(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_index, drop_index, elidable=False),
    ]
