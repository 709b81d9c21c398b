"""A graph debate stage's updates: what they change, in a few statements whatever the rows."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from debates.models import Attack, AttackStatus, DebateArgument
from debates.stage_writes import link_counters, save_outcomes
from debates.state import load_state
from engine.models import Persona
from tests.debates.factories import make_debate

pytestmark = pytest.mark.django_db


def _attack(debate, persona, target, position: int) -> Attack:
    return Attack.objects.create(
        debate=debate,
        speaker=persona,
        to_argument=target,
        round=1,
        target_key=target.key,
        type="rebut",
        counter_proposition=f"not so {position}",
        confidence=0.5,
        position=position,
    )


def _rows(count: int = 3):
    debate = make_debate()
    persona = Persona.objects.filter(debates=debate).first()
    target = DebateArgument.objects.create(
        debate=debate, key="A1", speaker=persona, claim="claim", round=0
    )
    attacks = [_attack(debate, persona, target, i) for i in range(count)]
    counters = [
        DebateArgument.objects.create(
            debate=debate,
            key=f"A{i + 2}",
            speaker=persona,
            claim=f"counter {i}",
            round=1,
            origin="attack",
            origin_attack=attack,
        )
        for i, attack in enumerate(attacks[:2])
    ]
    return debate, attacks, counters


def test_it_links_each_given_attack_to_the_argument_made_from_it() -> None:
    debate, attacks, counters = _rows()
    with CaptureQueriesContext(connection) as queries:
        link_counters([attacks[0].pk, attacks[2].pk])
    assert len(queries.captured_queries) <= 1
    linked = dict(Attack.objects.filter(debate=debate).values_list("pk", "from_argument_id"))
    # The third attack has no counter: none; the second was not asked for: untouched.
    assert linked == {attacks[0].pk: counters[0].pk, attacks[1].pk: None, attacks[2].pk: None}
    with CaptureQueriesContext(connection) as queries:
        link_counters([])
    assert len(queries.captured_queries) == 0


def test_it_links_many_attacks_in_as_many_statements_as_one() -> None:
    _, attacks, _ = _rows(count=12)
    with CaptureQueriesContext(connection) as one:
        link_counters([attacks[0].pk])
    with CaptureQueriesContext(connection) as many:
        link_counters([attack.pk for attack in attacks])
    assert len(many.captured_queries) == len(one.captured_queries) <= 1


def test_it_saves_each_outcome_in_one_statement_per_outcome() -> None:
    debate, attacks, _ = _rows()
    views = {view.id: view for view in load_state(debate).attacks}
    judged = [
        replace(views[attacks[0].pk], status=AttackStatus.VALID),
        replace(views[attacks[1].pk], status=AttackStatus.DROPPED, drop_reason="x"),
        replace(views[attacks[2].pk], status=AttackStatus.VALID),
    ]
    with CaptureQueriesContext(connection) as queries:
        save_outcomes(judged)
    # Two outcomes: one statement each (not one per attack).
    assert len(queries.captured_queries) <= 2
    stored = {
        pk: (status, reason)
        for pk, status, reason in Attack.objects.filter(debate=debate).values_list(
            "pk", "status", "drop_reason"
        )
    }
    assert stored == {
        attacks[0].pk: ("valid", ""),
        attacks[1].pk: ("dropped", "x"),
        attacks[2].pk: ("valid", ""),
    }


def test_it_saves_many_attacks_of_one_outcome_in_as_many_statements_as_one() -> None:
    debate, attacks, _ = _rows(count=12)
    views = {view.id: view for view in load_state(debate).attacks}
    valid = [replace(views[a.pk], status=AttackStatus.VALID) for a in attacks]
    with CaptureQueriesContext(connection) as one:
        save_outcomes(valid[:1])
    with CaptureQueriesContext(connection) as many:
        save_outcomes(valid)
    assert len(many.captured_queries) == len(one.captured_queries) <= 1
    assert set(Attack.objects.filter(debate=debate).values_list("status", flat=True)) == {"valid"}
