"""Attacks that cannot count: unknown or own targets, mistyped, bad verdicts, duplicates."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.db.models import Count

from debates import events
from debates.graph import build_framework
from debates.models import (
    ArgumentOrigin,
    Attack,
    AttackStatus,
    AttackValidation,
    DebateArgument,
    DropReason,
    StageName,
)
from debates.schemas import AttackValidations
from debates.stages import STAGES
from debates.state import load_state
from engine.calls import CallResult
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel, parse_request

pytestmark = pytest.mark.django_db


def _run(fake_anthropic, model: FakeDebateModel, *, personas: int = 2, rounds: int = 1):
    fake_anthropic.responder = model
    debate = make_debate(personas=personas, rounds=rounds)
    run_debate(debate_id=debate.id)
    debate.refresh_from_db()
    return debate


def _event(debate, type_):
    return debate.events.filter(type=type_).order_by("seq").first().payload


def test_it_drops_and_records_attacks_on_unknown_and_own_arguments(fake_anthropic):
    debate = _run(
        fake_anthropic,
        FakeDebateModel(
            attacks_per_round=1, attack_unknown=True, attack_own=True, attack_missing_premise=True
        ),
    )

    dropped = Attack.objects.filter(debate=debate, status=AttackStatus.DROPPED)
    reasons = sorted(dropped.values_list("drop_reason", flat=True))
    # Each of the two personas tried each of the three bad attacks once.
    assert reasons == sorted(
        [DropReason.UNKNOWN_TARGET, DropReason.OWN_ARGUMENT, DropReason.BAD_COMPONENT] * 2
    )
    unknown = dropped.filter(drop_reason=DropReason.UNKNOWN_TARGET).first()
    assert (unknown.target_key, unknown.to_argument, unknown.from_argument) == ("A999", None, None)
    own = dropped.filter(drop_reason=DropReason.OWN_ARGUMENT).first()
    assert own.to_argument.speaker_id == own.speaker_id
    # Dropped attacks create no counter-argument, are never validated, never count.
    assert not AttackValidation.objects.filter(attack__in=dropped).exists()
    payload = _event(debate, events.ATTACKS_GENERATED)
    assert sorted(a["drop_reason"] for a in payload["dropped"]) == reasons
    assert {a["id"] for a in payload["attacks"]}.isdisjoint({a.id for a in dropped})
    counted = build_framework(load_state(debate)).attacks
    assert all(a.from_argument is None for a in dropped)
    assert len(counted) > 0


def test_it_keeps_invalid_attacks_out_of_the_graph(fake_anthropic):
    debate = _run(fake_anthropic, FakeDebateModel(invalid_every=2))

    invalid = list(Attack.objects.filter(debate=debate, status=AttackStatus.INVALID))
    valid = list(Attack.objects.filter(debate=debate, status=AttackStatus.VALID))
    assert invalid and valid
    assert all(not a.validation.valid and a.validation.corrections for a in invalid)
    af = build_framework(load_state(debate))
    for attack in invalid:
        assert attack.from_argument.key not in af.arguments
        assert (attack.from_argument.key, attack.to_argument.key) not in af.attacks
    for attack in valid:
        assert (attack.from_argument.key, attack.to_argument.key) in af.attacks
    payload = _event(debate, events.VALIDATION_COMPLETE)
    assert sorted(a["valid"] for a in payload["attacks"]) == [False] * len(invalid) + [True] * len(
        valid
    )


def test_it_ignores_verdicts_for_unknown_attacks_and_drops_unjudged_ones(fake_anthropic):
    debate = _run(fake_anthropic, FakeDebateModel(unknown_verdict=True, omit_verdicts=True))

    unjudged = Attack.objects.filter(debate=debate, drop_reason=DropReason.NOT_VALIDATED)
    judged = Attack.objects.filter(debate=debate, validation__isnull=False)
    assert unjudged.exists() and judged.exists()
    assert all(a.status == AttackStatus.DROPPED for a in unjudged)
    payload = _event(debate, events.VALIDATION_COMPLETE)
    assert payload["ignored_verdicts"] == ["T999"]
    af = build_framework(load_state(debate))
    assert all(a.from_argument.key not in af.arguments for a in unjudged)


def test_it_keeps_the_most_confident_of_duplicate_attacks(fake_anthropic):
    debate = _run(fake_anthropic, FakeDebateModel(duplicate_attack=True))

    duplicates = list(Attack.objects.filter(debate=debate, status=AttackStatus.DUPLICATE))
    assert len(duplicates) == 2  # one per persona
    for duplicate in duplicates:
        kept = Attack.objects.get(
            debate=debate,
            status=AttackStatus.VALID,
            to_argument=duplicate.to_argument,
            target_component=duplicate.target_component,
            target_index=duplicate.target_index,
            type=duplicate.type,
        )
        assert kept.confidence > duplicate.confidence
    af = build_framework(load_state(debate))
    assert all(d.from_argument.key not in af.arguments for d in duplicates)


def test_it_counts_a_repeat_of_an_earlier_round_as_a_duplicate(fake_anthropic):
    debate = _run(fake_anthropic, FakeDebateModel(repeat_attacks=True), rounds=3)

    second = list(Attack.objects.filter(debate=debate, round=2))
    assert second and all(a.status == AttackStatus.DUPLICATE for a in second)
    # Nothing new in round 2: the debate ends there, for that reason.
    assert (debate.stop_reason, debate.rounds_completed) == ("EVIDENCE_EXHAUSTED", 2)
    assert debate.events.filter(type=events.GRAPH_CONVERGENCE).count() == 1


def test_it_refuses_a_rebut_aimed_at_a_premise_though_the_referee_would_accept_it(
    fake_anthropic,
):
    model = FakeDebateModel(attacks_per_round=1, rebut_premise=True)
    debate = _run(fake_anthropic, model)

    mistyped = list(Attack.objects.filter(debate=debate, type="rebut", target_component="premise"))
    assert len(mistyped) == 2  # one per persona
    assert all(a.status == AttackStatus.DROPPED for a in mistyped)
    assert all(a.drop_reason == DropReason.WRONG_TYPE for a in mistyped)
    # No counter-argument, no verdict asked for, no edge in the framework.
    assert all(a.from_argument is None for a in mistyped)
    assert not AttackValidation.objects.filter(attack__in=mistyped).exists()
    af = build_framework(load_state(debate))
    assert af.attacks  # the well-typed attacks still count
    counted = Attack.objects.filter(debate=debate, status=AttackStatus.VALID)
    assert {(a.from_argument.key, a.to_argument.key) for a in counted} <= set(af.attacks)
    payload = _event(debate, events.ATTACKS_GENERATED)
    assert sorted(a["drop_reason"] for a in payload["dropped"]) == [DropReason.WRONG_TYPE] * 2


def test_it_refuses_a_pending_mistyped_attack_whatever_the_verdict(fake_anthropic):
    # A debate whose attacks were saved before the type rule existed, resumed:
    # the mistyped attack is pending and goes to the referee, which accepts it.
    debate = _run(fake_anthropic, FakeDebateModel(attacks_per_round=0))
    state = load_state(debate)
    target = next(a for a in state.arguments if a.premises)
    attacker = next(p for p in debate.personas.all() if p.id != target.speaker_id)
    attack = Attack.objects.create(
        debate=debate,
        round=1,
        speaker=attacker,
        to_argument=DebateArgument.objects.get(debate=debate, key=target.key),
        target_key=target.key,
        type="rebut",
        target_component="premise",
        target_index=0,
        counter_proposition="The premise is false.",
        rationale="It was never measured.",
        confidence=0.9,
        status=AttackStatus.PENDING,
    )
    DebateArgument.objects.create(
        debate=debate,
        key="A900",
        speaker=attacker,
        round=1,
        claim=attack.counter_proposition,
        origin=ArgumentOrigin.ATTACK,
        origin_attack=attack,
    )
    attack.from_argument = DebateArgument.objects.get(debate=debate, key="A900")
    attack.save()
    state = load_state(debate)
    stage = STAGES[StageName.VALIDATION]
    (spec,) = stage.specs(state=state, round=1, cheap_model=settings.CHEAP_MODEL)
    request = parse_request(
        {
            "output_config": {"format": {"schema": {"title": "AttackValidations"}}},
            "messages": list(spec.prompt.messages),
        }
    )
    verdicts = AttackValidations.model_validate(FakeDebateModel().judge(request))
    assert [(v.attack_id, v.valid, v.type_correct) for v in verdicts.verdicts] == [
        ("T1", True, True)
    ]
    result = CallResult(spec=spec, parsed=verdicts, error=None, reused=False, cost_usd=Decimal("0"))

    stage.commit(debate=debate, state=state, round=1, results=[result])

    attack.refresh_from_db()
    assert (attack.status, attack.drop_reason) == (AttackStatus.DROPPED, DropReason.WRONG_TYPE)
    assert not AttackValidation.objects.filter(attack=attack).exists()
    af = build_framework(load_state(debate))
    assert "A900" not in af.arguments


def test_it_keeps_four_attacks_per_persona_and_ignores_more_in_a_graph_debate(fake_anthropic):
    # The stress test caps its personas at 3 and records the extras; the graph
    # debate keeps its 4 and records nothing more.
    debate = _run(
        fake_anthropic,
        FakeDebateModel(arguments_per_persona=4, attacks_per_round=6),
        personas=3,
    )

    per_persona = sorted(
        Attack.objects.filter(debate=debate, round=1)
        .values("speaker")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    assert per_persona == [4, 4, 4]
    assert not Attack.objects.filter(debate=debate, drop_reason=DropReason.OVER_LIMIT).exists()
