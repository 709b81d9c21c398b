"""A stop is stored as a code with its parameters (debates/stop_messages.py).

Rows stopped before hold only the English sentence: the known sentences are
read here, once, into their code and parameters (stop_messages.legacy_code),
so pages never parse text; a sentence that matches none stays as it is and
is shown as stored.
"""

from django.db import migrations, models

from engine.stop_messages import legacy_code


def forwards(apps, schema_editor):
    Debate = apps.get_model("debates", "Debate")
    for debate in Debate.objects.exclude(stop_detail="").only("pk", "stop_detail").iterator():
        if coded := legacy_code(debate.stop_detail):
            Debate.objects.filter(pk=debate.pk).update(stop_code=coded[0], stop_params=coded[1])


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0006_drop_reason_over_limit"),
    ]

    operations = [
        migrations.AddField(
            model_name="debate",
            name="stop_code",
            field=models.CharField(blank=True, default="", max_length=40, verbose_name="stop code"),
        ),
        migrations.AddField(
            model_name="debate",
            name="stop_params",
            field=models.JSONField(blank=True, default=dict, verbose_name="stop parameters"),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
