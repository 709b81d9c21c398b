"""The run row moved to the engine (engine.0001): this link follows it in the state only.

The column and its foreign key to ``debates_debate`` are unchanged.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_field_labels"),
        ("engine", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tournament",
                    name="debate",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tournament",
                        to="engine.debate",
                        verbose_name="debate",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
