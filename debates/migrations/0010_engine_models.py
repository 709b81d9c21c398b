"""The engine's models left ``debates`` for ``engine`` (engine.0001): state only, no table touched.

The graph debate's arguments and attacks now point at ``engine.Debate`` and
``engine.Persona``; their columns and foreign keys are unchanged. The other
formats' links follow in their own migrations, before the models leave here.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0009_field_labels"),
        ("engine", "0001_initial"),
        ("inquiries", "0004_engine_debate"),
        ("stresstests", "0005_engine_debate"),
        ("tournaments", "0005_engine_debate"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="attack",
                    name="debate",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attacks",
                        to="engine.debate",
                        verbose_name="debate",
                    ),
                ),
                migrations.AlterField(
                    model_name="debateargument",
                    name="debate",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="arguments",
                        to="engine.debate",
                        verbose_name="debate",
                    ),
                ),
                migrations.AlterField(
                    model_name="debateargument",
                    name="speaker",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="arguments",
                        to="engine.persona",
                        verbose_name="speaker",
                    ),
                ),
                migrations.AlterField(
                    model_name="attack",
                    name="speaker",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="attacks",
                        to="engine.persona",
                        verbose_name="speaker",
                    ),
                ),
                migrations.RemoveField(model_name="debate", name="creator"),
                migrations.RemoveField(model_name="debate", name="personas"),
                migrations.RemoveField(model_name="stagerun", name="debate"),
                migrations.RemoveField(model_name="llmcall", name="debate"),
                migrations.RemoveField(model_name="llmcall", name="persona"),
                migrations.DeleteModel(name="DebateEvent"),
                migrations.DeleteModel(name="StageRun"),
                migrations.DeleteModel(name="Debate"),
                migrations.DeleteModel(name="LLMCall"),
                migrations.DeleteModel(name="Persona"),
            ],
            database_operations=[],
        ),
    ]
