from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0002_cardversion_digest_current_version"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="cardversion",
            constraint=models.UniqueConstraint(
                fields=("card", "digest"), name="cardversion_unique_digest"
            ),
        ),
    ]
