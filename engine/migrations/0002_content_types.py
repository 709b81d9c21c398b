"""The moved models' content types follow them from ``debates`` to ``engine``.

A permission belongs to a content type, so renaming the type keeps every
permission granted on these models (``view_debate``: an instructor who may
read every debate) with the users and groups that hold it. On a new database
there is nothing to rename yet: the types are created after migrating.
"""

from django.db import migrations

MODELS = ("persona", "debate", "stagerun", "debateevent", "llmcall")


def _move(apps, *, source: str, target: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        old = content_type.objects.filter(app_label=source, model=model).first()
        if old is None:
            continue
        # Both exist only where the target's was made after an earlier migrate
        # (tests that migrate back and forth): the source's, with its grants, wins.
        content_type.objects.filter(app_label=target, model=model).delete()
        old.app_label = target
        old.save(update_fields=["app_label"])


def forwards(apps, schema_editor) -> None:
    _move(apps, source="debates", target="engine")


def backwards(apps, schema_editor) -> None:
    _move(apps, source="engine", target="debates")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("engine", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
