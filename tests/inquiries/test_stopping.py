"""The stop condition: each reason on its own, its boundaries, and the priority order."""

from __future__ import annotations

import itertools

import pytest

from argumentation.sanad import Grade
from inquiries.stopping import MAX_ROUNDS, StopReason, StopState, stop_reason

ORDER = [
    StopReason.CRITICAL_DEFECT,
    StopReason.MAX_ROUNDS,
    StopReason.CONSENSUS,
    StopReason.STABLE_DISSENT,
    StopReason.EVIDENCE_EXHAUSTED,
]
DISSENT = {"advocate": "for", "breaker": "against"}
MOVING = [{"advocate": "for", "breaker": "for"}, DISSENT, {"advocate": "against", "breaker": "for"}]


def state(holding: set[StopReason], **changes) -> StopState:
    """A state in which exactly the reasons in `holding` are true."""
    fields = {
        "rounds_completed": MAX_ROUNDS if StopReason.MAX_ROUNDS in holding else 2,
        "thesis_claim_ids": ("C-1", "C-2"),
        "claim_grades": {
            "C-1": Grade.A,
            "C-2": Grade.D if StopReason.CRITICAL_DEFECT in holding else Grade.B,
        },
        "confidences": (
            {"advocate": 0.7, "breaker": 0.75}
            if StopReason.CONSENSUS in holding
            else {"advocate": 0.3, "breaker": 0.9}
        ),
        "position_history": [DISSENT] * 3 if StopReason.STABLE_DISSENT in holding else MOVING,
        "new_evidence_in_round": 0 if StopReason.EVIDENCE_EXHAUSTED in holding else 2,
    }
    fields.update(changes)
    return StopState(**fields)


def test_it_runs_another_round_when_nothing_holds() -> None:
    assert stop_reason(state(set())) is None


@pytest.mark.parametrize("reason", ORDER)
def test_it_stops_for_each_reason_alone(reason: StopReason) -> None:
    assert stop_reason(state({reason})) is reason


@pytest.mark.parametrize(
    ("higher", "lower"), list(itertools.combinations(ORDER, 2)), ids=lambda r: r.value
)
def test_it_picks_the_higher_of_any_two_reasons(higher: StopReason, lower: StopReason) -> None:
    assert stop_reason(state({higher, lower})) is higher


@pytest.mark.parametrize("size", [3, 4, 5])
def test_it_picks_the_first_in_order_of_any_set_of_reasons(size: int) -> None:
    for holding in itertools.combinations(ORDER, size):
        assert stop_reason(state(set(holding))) is next(r for r in ORDER if r in holding)


def test_a_thesis_claim_missing_from_the_registry_counts_as_a_critical_defect() -> None:
    assert stop_reason(state(set(), thesis_claim_ids=("C-1", "C-404"))) is (
        StopReason.CRITICAL_DEFECT
    )


def test_a_grade_d_claim_outside_the_thesis_is_not_critical() -> None:
    grades = {"C-1": Grade.A, "C-2": Grade.B, "C-3": Grade.D}
    assert stop_reason(state(set(), claim_grades=grades)) is None


@pytest.mark.parametrize(("rounds", "stops"), [(4, False), (5, True), (6, True)])
def test_it_stops_at_five_rounds(rounds: int, stops: bool) -> None:
    assert (stop_reason(state(set(), rounds_completed=rounds)) is StopReason.MAX_ROUNDS) is stops


@pytest.mark.parametrize(
    ("low", "high", "consensus"),
    [
        (0.80, 0.90, True),
        (0.30, 0.40, True),  # 0.4 - 0.3 is 0.10000000000000003 in floats
        (0.60, 0.70, True),
        (0.60, 0.7001, False),
        (0.20, 0.35, False),
    ],
)
def test_consensus_means_confidences_within_010(low: float, high: float, consensus: bool) -> None:
    confidences = {"advocate": low, "breaker": high, "observer": (low + high) / 2}
    result = stop_reason(state(set(), confidences=confidences))
    assert (result is StopReason.CONSENSUS) is consensus


def test_a_single_agent_is_no_consensus() -> None:
    assert stop_reason(state(set(), confidences={"advocate": 0.9})) is None


def test_stable_dissent_needs_two_rounds_without_change() -> None:
    assert stop_reason(state(set(), position_history=[DISSENT, DISSENT])) is None
    assert stop_reason(state(set(), position_history=[*MOVING, DISSENT, DISSENT])) is None
    assert stop_reason(state(set(), position_history=[*MOVING, DISSENT, DISSENT, DISSENT])) is (
        StopReason.STABLE_DISSENT
    )


def test_stable_agreement_is_not_dissent() -> None:
    agree = {"advocate": "for", "breaker": "for"}
    assert stop_reason(state(set(), position_history=[agree] * 3)) is None
