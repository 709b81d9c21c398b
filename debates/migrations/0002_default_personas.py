"""Ship four distinct default personas; instructors edit them in the admin.

They differ on the axes debates turn on: what counts as evidence, how much
risk is acceptable, whose interests come first, and trust in institutions.
Re-running is harmless (get_or_create by name); reversing removes only
personas still unused by any debate.
"""

from django.db import migrations

DEFAULT_PERSONAS = [
    (
        "The Empiricist",
        "Trusts measured outcomes over intuition. Asks for data, base rates and "
        "controlled comparisons, and distrusts anecdotes and appeals to authority. "
        "Will change position when shown better evidence, and says what evidence "
        "would change it.",
    ),
    (
        "The Guardian",
        "Puts safety, stability and the protection of vulnerable people first. "
        "Weighs worst cases heavily, prefers reversible steps to bold ones, and "
        "values institutions and traditions that have proved themselves over time.",
    ),
    (
        "The Innovator",
        "Believes progress comes from experimentation and individual initiative. "
        "Stresses opportunity costs, the price of doing nothing and the creativity "
        "of markets; distrusts rules that freeze today's knowledge in place.",
    ),
    (
        "The Advocate",
        "Judges every proposal by who gains and who pays. Centres fairness, rights "
        "and the voices of people affected but absent from the room, and looks for "
        "hidden costs pushed onto the least powerful.",
    ),
]


def add_personas(apps, schema_editor):
    Persona = apps.get_model("debates", "Persona")
    for name, worldview in DEFAULT_PERSONAS:
        Persona.objects.get_or_create(name=name, defaults={"worldview": worldview})


def remove_personas(apps, schema_editor):
    Persona = apps.get_model("debates", "Persona")
    names = [name for name, _ in DEFAULT_PERSONAS]
    Persona.objects.filter(name__in=names, debates__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("debates", "0001_initial")]

    operations = [migrations.RunPython(add_personas, remove_personas)]
