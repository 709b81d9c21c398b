"""The engine's models moved from ``debates`` to ``engine`` with their rows and grants.

Today's schema (before ``engine.0001``) is filled through the historical models,
then migrated forward; the rows are read back through the code's own models,
and a permission granted on the old ``debates.debate`` is held as
``engine.view_debate``.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from debates.models import Attack, DebateArgument
from engine.models import Debate, DebateEvent, LLMCall, Persona, StageRun

BEFORE = [
    ("debates", "0009_field_labels"),
    ("inquiries", "0003_field_labels"),
    ("stresstests", "0004_field_labels"),
    ("tournaments", "0004_field_labels"),
    ("engine", None),
]
AFTER = [("debates", "0010_engine_models"), ("engine", "0002_content_types")]


def _state_before(executor: MigrationExecutor):
    """The project as it was: every other app at its latest, these at BEFORE."""
    moved = {app for app, _ in BEFORE}
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in moved]
    return executor.loader.project_state(others + [node for node in BEFORE if node[1]])


def _fill(apps) -> dict[str, int]:
    """One run of each kind of row, through the models as they were."""
    user = apps.get_model("auth", "User").objects.create(username="teacher", is_staff=True)
    content_type = apps.get_model("contenttypes", "ContentType").objects.get(
        app_label="debates", model="debate"
    )
    user.user_permissions.add(
        apps.get_model("auth", "Permission").objects.get(
            content_type=content_type, codename="view_debate"
        )
    )
    persona = apps.get_model("debates", "Persona").objects.create(name="Ada", worldview="w")
    debate = apps.get_model("debates", "Debate").objects.create(
        topic="Old topic", creator=user, status="done", cost_usd=Decimal("0.25"), event_seq=1
    )
    debate.personas.add(persona)
    apps.get_model("debates", "StageRun").objects.create(
        debate=debate, name="decompose", input_hash="i", output_hash="o"
    )
    apps.get_model("debates", "DebateEvent").objects.create(
        debate=debate, seq=1, type="debate_start", payload={"topic": "Old topic"}
    )
    apps.get_model("debates", "LLMCall").objects.create(
        debate=debate, persona=persona, stage="arguments", model="m", request_hash="h", status="ok"
    )
    argument = apps.get_model("debates", "DebateArgument").objects.create(
        debate=debate, key="A1", speaker=persona, round=0, claim="c"
    )
    apps.get_model("debates", "Attack").objects.create(
        debate=debate,
        speaker=persona,
        round=1,
        to_argument=argument,
        target_key="A1",
        type="rebut",
        target_component="claim",
        counter_proposition="not c",
        confidence=0.5,
    )
    return {"user": user.pk, "debate": debate.pk, "persona": persona.pk}


# Slow: migrating back and forth re-renders the models hundreds of times (30-200 s under load).
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_it_keeps_every_row_and_grant_when_the_engine_moves() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        ids = _fill(_state_before(executor).apps)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    debate = Debate.objects.get(pk=ids["debate"])
    assert (debate.topic, debate.status, debate.cost_usd) == ("Old topic", "done", Decimal("0.25"))
    assert debate.creator_id == ids["user"]
    assert list(debate.personas.values_list("name", flat=True)) == ["Ada"]
    assert list(StageRun.objects.filter(debate=debate).values_list("name", flat=True)) == [
        "decompose"
    ]
    assert DebateEvent.objects.get(debate=debate, seq=1).payload == {"topic": "Old topic"}
    assert LLMCall.objects.get(debate=debate).persona == Persona.objects.get(pk=ids["persona"])
    assert DebateArgument.objects.get(debate=debate).speaker.name == "Ada"
    assert Attack.objects.get(debate=debate).to_argument.key == "A1"
    teacher = get_user_model().objects.get(pk=ids["user"])
    assert teacher.has_perm("engine.view_debate")
