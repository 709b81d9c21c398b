"""The turn's statements written once (coach.turn_sql) store and read what the ORM would.

Run on the suite's database, whichever it is (SQLite by default, PostgreSQL in CI):
each check compares with the ORM's own answer for the same row.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext

from coach.models import Argument, CoachMessage, CoachTurn, Role
from coach.policy import OPEN
from coach.turn_sql import load_argument_and_policy, store_and_read_transcript, transcript
from config.sql_rows import from_row, insert

pytestmark = pytest.mark.django_db


def _orm_fields(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_it_loads_the_argument_as_the_orm_does(argument: Argument, student: Any) -> None:
    argument.pending_proposal = {"field": "claim", "value": "Cars out.", "rationale": "short"}
    argument.provenance = {"claim": {"source": "student"}}
    argument.claim = "Cities should ban cars — «mostly»."
    argument.save()
    loaded, policy = load_argument_and_policy(owner=student, argument_id=argument.pk)
    assert _orm_fields(loaded) == _orm_fields(Argument.objects.get(pk=argument.pk))
    assert loaded._state.adding is False and loaded._state.db == "default"
    assert policy == OPEN  # written outside any class


def test_it_finds_no_argument_of_someone_else_or_for_an_anonymous_caller(
    argument: Argument, other_student: Any
) -> None:
    from django.contrib.auth.models import AnonymousUser

    assert load_argument_and_policy(owner=other_student, argument_id=argument.pk) is None
    assert load_argument_and_policy(owner=AnonymousUser(), argument_id=argument.pk) is None
    assert load_argument_and_policy(owner=argument.owner, argument_id=argument.pk + 1000) is None


def test_it_inserts_a_turn_with_the_values_save_would_store(argument: Argument) -> None:
    message = insert(
        CoachMessage(argument=argument, role=Role.USER, text="Cars out.", step="claim")
    )
    assert message.pk is not None and message.created_at is not None
    turn = insert(
        CoachTurn(
            argument_id=argument.pk,
            user_message_id=message.pk,
            step="claim",
            raw_result={"assistantText": "Which cities?", "nested": [1, {"a": None}]},
            guarded_result=None,
            guard_decisions=[{"name": "g", "changed": False, "reason": ""}],
            cost_usd=Decimal("0.012345"),
            latency_ms=12,
        )
    )
    stored = CoachTurn.objects.get(pk=turn.pk)
    assert _orm_fields(stored) == _orm_fields(turn)
    assert stored.raw_result["nested"] == [1, {"a": None}]
    assert stored.guarded_result is None and stored.cost_usd == Decimal("0.012345")
    assert stored.coach == "ai" and stored.error_code == ""  # the fields' defaults


def test_it_sends_the_save_signals_to_whoever_listens(argument: Argument) -> None:
    seen: list[tuple[str, bool]] = []

    def before(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(("pre", instance.pk is None))

    def after(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
        seen.append(("post", created))

    pre_save.connect(before, sender=CoachMessage)
    post_save.connect(after, sender=CoachMessage)
    try:
        insert(CoachMessage(argument=argument, role=Role.USER, text="Cars out.", step="claim"))
    finally:
        pre_save.disconnect(before, sender=CoachMessage)
        post_save.disconnect(after, sender=CoachMessage)
    assert seen == [("pre", True), ("post", True)]


# A transcript on two steps: (role, step, text), in the order they were said.
EARLIER = [
    (Role.USER, "claim", "first"),
    (Role.ASSISTANT, "claim", "reply one"),
    (Role.USER, "grounds", "on another step"),
    (Role.USER, "claim", "second"),
    (Role.ASSISTANT, "claim", "reply two"),
]


def _say(argument: Argument, texts: list[tuple[str, str, str]]) -> None:
    for role, step, text in texts:
        CoachMessage.objects.create(argument=argument, role=role, step=step, text=text)


def test_it_reads_the_transcript_as_the_orm_query_did(argument: Argument) -> None:
    texts = EARLIER
    _say(argument, texts)
    last = CoachMessage.objects.filter(argument=argument).order_by("id").last()
    orm = CoachMessage.objects.filter(argument=argument, pk__lt=last.pk)
    expected = list(reversed(orm.order_by("-created_at", "-id").values_list("role", "text")[:3]))
    latest, on_claim = transcript(argument_id=argument.pk, before_id=last.pk, limit=3, step="claim")
    assert latest == expected
    assert on_claim == ["first", "second"]
    everything, on_grounds = transcript(
        argument_id=argument.pk, before_id=None, limit=50, step="grounds"
    )
    assert [text for _, text in everything] == [text for _, _, text in texts]
    assert on_grounds == ["on another step"]


def test_it_stores_a_message_and_reads_what_came_before_it_in_one_statement(
    argument: Argument,
) -> None:
    _say(argument, EARLIER[:4])  # the student's "second" is the last before the new one
    expected = transcript(argument_id=argument.pk, before_id=None, limit=3, step="claim")
    message = CoachMessage(argument=argument, role=Role.USER, text="third \u00e9", step="claim")
    with CaptureQueriesContext(connection) as queries:
        got = store_and_read_transcript(message, limit=3, step="claim")
    assert got == expected  # without the new message
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    stored = CoachMessage.objects.get(pk=message.pk)
    assert (stored.text, stored.role, stored.step) == ("third \u00e9", Role.USER, "claim")
    assert stored.created_at == message.created_at and not message._state.adding
    fresh = Argument.objects.create(owner=argument.owner, title="Empty", language="en")
    first = CoachMessage(argument=fresh, role=Role.USER, text="hello", step="claim")
    assert store_and_read_transcript(first, limit=3, step="claim") == ([], [])
    assert first.pk is not None


def test_it_builds_a_model_from_a_row_with_the_queries_converters(argument: Argument) -> None:
    argument.completed_at = argument.created_at
    argument.rejected_proposal = {"field": "claim", "value": "x"}
    argument.save()
    from django.db import connection

    fields = Argument._meta.concrete_fields
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(connection.ops.quote_name(f.column) for f in fields)} "
            f"FROM {connection.ops.quote_name(Argument._meta.db_table)} WHERE id = %s",
            [argument.pk],
        )
        row = cursor.fetchone()
    built = from_row(Argument, "default", row)
    assert _orm_fields(built) == _orm_fields(Argument.objects.get(pk=argument.pk))
