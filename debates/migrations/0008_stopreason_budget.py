"""``BUDGET`` becomes a stop reason of the engine's own.

Runs stopped by their budget were stored as ``CRITICAL_DEFECT`` with the
``budget`` stop code (read from their sentence by 0007 for older rows): they
are given their own reason here, so no page takes them for a defect of the
argument.
"""

from django.db import migrations, models


def forwards(apps, schema_editor):
    Debate = apps.get_model("debates", "Debate")
    Debate.objects.filter(stop_reason="CRITICAL_DEFECT", stop_code="budget").update(
        stop_reason="BUDGET"
    )


def backwards(apps, schema_editor):
    Debate = apps.get_model("debates", "Debate")
    Debate.objects.filter(stop_reason="BUDGET").update(stop_reason="CRITICAL_DEFECT")


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0007_debate_stop_code"),
    ]

    operations = [
        migrations.AlterField(
            model_name="debate",
            name="stop_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("BUDGET", "budget spent"),
                    ("CRITICAL_DEFECT", "critical defect"),
                    ("MAX_ROUNDS", "maximum rounds reached"),
                    ("CONSENSUS", "consensus"),
                    ("STABLE_DISSENT", "stable dissent"),
                    ("EVIDENCE_EXHAUSTED", "evidence exhausted"),
                ],
                default="",
                max_length=20,
                verbose_name="stop reason",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
