"""Rows written with statements written once are the rows the ORM writes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext

from coach.models import Argument, CoachMessage, CoachTurn, Role
from config.sql_rows import (
    insert_all,
    insert_linked,
    rows_by_pks,
    save_row,
    update_by_pks,
    values_where,
)
from debates.models import Attack, DebateArgument
from engine.ledger import _add_to_running_cost
from engine.models import Debate, LLMCall, Persona
from tests.debates.factories import make_debate

pytestmark = pytest.mark.django_db

_COMPARED = [f.attname for f in LLMCall._meta.concrete_fields if f.name not in ("id", "created_at")]


def _calls(debate: Debate, prefix: str, count: int) -> list[LLMCall]:
    return [
        LLMCall(
            debate=debate,
            stage="attacks",
            round=1,
            model="claude-x",
            request_hash=f"{prefix}{i:04d}",
            input_tokens=10 + i,
            cost_usd=Decimal("0.000123") * (i + 1),
            status="ok",
            raw_text='{"é": "\u00e9"}',
        )
        for i in range(count)
    ]


def test_it_writes_what_bulk_create_writes_in_one_statement() -> None:
    debate = make_debate()
    with CaptureQueriesContext(connection) as queries:
        insert_all(_calls(debate, "ours", 3))
    assert [q["sql"].split(" (")[0] for q in queries.captured_queries] == [
        'INSERT INTO "debates_llmcall"'
    ]
    LLMCall.objects.bulk_create(_calls(debate, "orm-", 3))
    ours = list(LLMCall.objects.filter(request_hash__startswith="ours").order_by("request_hash"))
    theirs = list(LLMCall.objects.filter(request_hash__startswith="orm-").order_by("request_hash"))
    assert len(ours) == len(theirs) == 3
    for a, b in zip(ours, theirs, strict=True):
        assert {n: getattr(a, n) for n in _COMPARED if n != "request_hash"} == {
            n: getattr(b, n) for n in _COMPARED if n != "request_hash"
        }
        assert a.created_at is not None


def test_it_hands_more_rows_than_a_statement_carries_to_bulk_create() -> None:
    debate = make_debate()
    insert_all(_calls(debate, "many", 80))
    insert_all([])
    assert LLMCall.objects.filter(request_hash__startswith="many").count() == 80


def test_it_adds_to_the_running_cost_exactly() -> None:
    debate = make_debate()
    for amount in ("0.000123", "0.1", "0.000001", "2.5"):
        _add_to_running_cost(debate.pk, Decimal(amount))
    debate.refresh_from_db()
    assert debate.cost_usd == Decimal("2.600124")


def test_it_sets_the_keys_the_database_gave_in_order_and_lends_them_on() -> None:
    debate = make_debate()
    persona = Persona.objects.filter(debates=debate).first()
    arguments = [
        DebateArgument(debate=debate, key=f"A{i}", speaker=persona, claim=f"claim {i}", round=0)
        for i in range(3)
    ]
    # Built before its arguments have keys, as a stage builds them.
    attack = Attack(
        debate=debate,
        speaker=persona,
        from_argument=arguments[2],
        to_argument=arguments[0],
        round=1,
        target_key="A0",
        type="rebut",
        counter_proposition="not so",
        confidence=0.5,
    )
    insert_all(arguments, set_pks=True)
    insert_all([attack], set_pks=True)
    stored = dict(DebateArgument.objects.filter(debate=debate).values_list("key", "pk"))
    assert [a.pk for a in arguments] == [stored["A0"], stored["A1"], stored["A2"]]
    assert Attack.objects.get(pk=attack.pk).from_argument_id == stored["A2"]
    assert all(not a._state.adding for a in arguments)


def test_it_updates_what_the_orms_update_updates() -> None:
    ours, theirs = make_debate(), make_debate()
    values = {"claims": ["Cars", "Ciudades \u00e9"], "rounds_completed": 3, "stop_code": "x"}
    with CaptureQueriesContext(connection) as queries:
        assert update_by_pks(Debate, [ours.pk], **values) == 1
    assert len(queries.captured_queries) == 1
    assert queries.captured_queries[0]["sql"].startswith('UPDATE "debates_debate" SET')
    Debate.objects.filter(pk=theirs.pk).update(**values)
    ours.refresh_from_db()
    theirs.refresh_from_db()
    assert {n: getattr(ours, n) for n in values} == {n: getattr(theirs, n) for n in values}
    assert ours.claims == ["Cars", "Ciudades \u00e9"]


def test_it_updates_only_the_given_rows_and_more_than_a_statement_carries() -> None:
    debate = make_debate()
    insert_all(_calls(debate, "upd-", 950))
    ids = sorted(LLMCall.objects.filter(debate=debate).values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        assert update_by_pks(LLMCall, [], status="failed") == 0
    assert queries.captured_queries == []
    assert update_by_pks(LLMCall, ids[:-1], status="failed") == 949
    assert LLMCall.objects.filter(debate=debate, status="failed").count() == 949
    assert LLMCall.objects.get(pk=ids[-1]).status == "ok"


def test_it_reads_rows_by_key_as_in_bulk_does() -> None:
    debates = [make_debate(topic=f"Topic {i} \u00e9") for i in range(3)]
    keys = [debates[2].pk, debates[0].pk, debates[2].pk, 10**9]
    ours = rows_by_pks(Debate, keys, for_update=True)
    theirs = Debate.objects.in_bulk(keys)
    assert ours.keys() == theirs.keys() == {debates[0].pk, debates[2].pk}
    for pk, row in ours.items():
        assert {f.attname: getattr(row, f.attname) for f in Debate._meta.concrete_fields} == {
            f.attname: getattr(theirs[pk], f.attname) for f in Debate._meta.concrete_fields
        }
    with CaptureQueriesContext(connection) as queries:
        assert rows_by_pks(Debate, []) == {}
    assert queries.captured_queries == []


def test_it_saves_a_row_as_save_does() -> None:
    ours, theirs = make_debate(), make_debate()
    for debate in (ours, theirs):
        debate.claims = ["Claim \u00e9", "Other"]
        debate.cost_usd = Decimal("0.123456")
        debate.stop_params = {"round": 2}
        debate.rounds_completed = 2
    before = ours.updated_at
    with CaptureQueriesContext(connection) as queries:
        save_row(ours)
    assert len(queries.captured_queries) == 1
    assert queries.captured_queries[0]["sql"].startswith('UPDATE "debates_debate" SET')
    theirs.save()
    stored = {d.pk: d for d in Debate.objects.filter(pk__in=[ours.pk, theirs.pk])}
    compared = [
        f.attname
        for f in Debate._meta.concrete_fields
        if f.attname not in ("id", "created_at", "updated_at")
    ]
    assert {n: getattr(stored[ours.pk], n) for n in compared} == {
        n: getattr(stored[theirs.pk], n) for n in compared
    }
    assert stored[ours.pk].updated_at > before  # auto_now, as save() sets it


def test_it_inserts_a_row_that_is_not_there_as_save_does() -> None:
    gone = make_debate()
    pk = gone.pk
    Debate.objects.filter(pk=pk).delete()
    save_row(gone)
    assert Debate.objects.filter(pk=pk).exists()


def test_it_reads_values_as_values_list_does() -> None:
    debates = [make_debate(topic=f"Topic {i} \u00e9", rounds=2 + i % 2) for i in range(4)]
    Debate.objects.filter(pk=debates[0].pk).update(
        claims=["Claim \u00e9"], cost_usd=Decimal("0.000123")
    )
    names = ["claims", "cost_usd", "created_at", "topic"]
    ours = values_where(Debate, names, max_rounds=2, status="queued")
    theirs = list(
        Debate.objects.filter(max_rounds=2, status="queued").order_by("pk").values_list(*names)
    )
    assert ours == theirs and len(ours) == 2
    assert ours[0][:2] == (["Claim \u00e9"], Decimal("0.000123"))
    assert values_where(Debate, ["topic"], max_rounds=99) == []


def _reply_and_record(argument: Argument, text: str) -> tuple[CoachMessage, CoachTurn]:
    reply = CoachMessage(argument=argument, role=Role.ASSISTANT, text=text, step="claim")
    record = CoachTurn(
        argument=argument,
        step="claim",
        coach="ai",
        model="claude-x",
        raw_result={"assistantText": text},
        guarded_result={"assistantText": text, "step": "claim"},
        guard_decisions=[{"name": "step", "changed": False, "reason": ""}],
        input_tokens=12,
        cost_usd=Decimal("0.000321"),
        latency_ms=7,
    )
    return reply, record


def test_it_inserts_a_row_and_the_row_linked_to_it_as_two_saves_do(django_user_model) -> None:
    owner = django_user_model.objects.create_user("linked-rows")
    argument = Argument.objects.create(owner=owner, title="Cars", language="en")
    saved: list[tuple[str, bool]] = []

    def heard(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
        saved.append((sender.__name__, created))

    post_save.connect(heard)
    try:
        ours = _reply_and_record(argument, "Same words \u00e9.")
        with CaptureQueriesContext(connection) as queries:
            insert_linked(*ours, link="assistant_message")
    finally:
        post_save.disconnect(heard)
    if connection.vendor == "postgresql":
        assert [q["sql"][:4] for q in queries.captured_queries] == ["WITH"]
    assert saved == [("CoachMessage", True), ("CoachTurn", True)]
    theirs = _reply_and_record(argument, "Same words \u00e9.")
    theirs[0].save()
    theirs[1].assistant_message = theirs[0]
    theirs[1].save()
    for ours_row, theirs_row in zip(ours, theirs, strict=True):
        assert ours_row.pk is not None and not ours_row._state.adding
        model = type(ours_row)
        compared = [
            f.attname
            for f in model._meta.concrete_fields
            if f.attname not in ("id", "created_at", "assistant_message_id")
        ]
        stored, expected = model.objects.get(pk=ours_row.pk), model.objects.get(pk=theirs_row.pk)
        assert {n: getattr(stored, n) for n in compared} == {
            n: getattr(expected, n) for n in compared
        }
        assert stored.created_at is not None
    assert CoachTurn.objects.get(pk=ours[1].pk).assistant_message_id == ours[0].pk
    assert ours[1].assistant_message == ours[0]


def test_it_writes_neither_row_when_the_second_fails(django_user_model) -> None:
    owner = django_user_model.objects.create_user("linked-rows-fail")
    argument = Argument.objects.create(owner=owner, title="Cars", language="en")
    reply, record = _reply_and_record(argument, "Never stored.")
    record.step = None  # NOT NULL: the record's insert fails
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_linked(reply, record, link="assistant_message")
    assert not CoachMessage.objects.filter(text="Never stored.").exists()
