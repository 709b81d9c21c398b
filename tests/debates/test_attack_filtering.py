"""Attacks that cannot count: unknown or own targets, bad verdicts, duplicates."""

from __future__ import annotations

import pytest

from debates import events
from debates.graph import build_framework
from debates.models import Attack, AttackStatus, AttackValidation, DropReason
from debates.orchestrator import run_debate
from debates.state import load_state
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

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
