# Section.kind gains "front" (front matter); Section.slug accepts Persian headings' slugs.
# Both changes are validation-only: the columns stay as they are. The slug change is applied
# to the model state only, because altering the column on SQLite would rebuild the table
# and drop the full-text index triggers of 0002.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rules', '0002_search_index'),
    ]

    operations = [
        migrations.AlterField(
            model_name='section',
            name='kind',
            field=models.CharField(choices=[('chapter', 'Chapter'), ('rule', 'Rule'), ('example', 'Example'), ('sidebar', 'Sidebar'), ('flavour', 'Flavour text'), ('card', 'Card'), ('credits', 'Credits'), ('page', 'Page (no reliable heading)'), ('reference', 'Quick reference'), ('front', 'Front matter')], default='rule', max_length=16),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='section',
                    name='slug',
                    field=models.SlugField(allow_unicode=True, help_text='Stable within the book: URL anchor.', max_length=160),
                ),
            ],
            database_operations=[],
        ),
    ]
