"""The stop check: each reason in graph terms, and the priority between them."""

from decimal import Decimal

from debates.stopping import GraphStopReason, labels_unchanged, round_decision
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision, budget_decision, is_budget_stop

STEADY = {"A1": "IN", "A2": "OUT"}


def decide(**overrides):
    values = {
        "round": 2,
        "max_rounds": 5,
        "defect": None,
        "camps": 2,
        "undecided": 2,
        "label_history": [{"A1": "IN"}, {"A1": "OUT"}, {"A1": "IN"}],
        "new_valid_attacks": 3,
    }
    values.update(overrides)
    decision = round_decision(**values)
    return decision.reason if decision else None


def test_it_continues_while_the_graph_moves():
    assert decide() is None


def test_it_puts_a_critical_defect_before_everything():
    assert (
        decide(
            defect=StopDecision.coded(StopReason.CRITICAL_DEFECT, "validation_failed", round=5),
            round=5,
            camps=1,
            undecided=0,
        )
        == StopReason.CRITICAL_DEFECT
    )


def test_it_stops_at_max_rounds_before_judging_consensus():
    assert decide(round=5, camps=1, undecided=0) == StopReason.MAX_ROUNDS


def test_it_finds_consensus_in_one_camp_without_undecided_arguments():
    assert decide(camps=1, undecided=0) == GraphStopReason.CONSENSUS
    assert decide(camps=1, undecided=1) is None
    assert decide(camps=2, undecided=0) is None


def test_it_finds_stable_dissent_when_two_rounds_moved_no_label():
    grown = {**STEADY, "A3": "IN"}
    assert decide(label_history=[STEADY, STEADY, grown]) == GraphStopReason.STABLE_DISSENT
    assert decide(label_history=[{"A1": "OUT"}, STEADY, STEADY]) is None
    # Needs two rounds of history.
    assert decide(round=1, label_history=[STEADY, STEADY]) is None


def test_it_prefers_stable_dissent_to_exhausted_evidence():
    history = [STEADY, STEADY, STEADY]
    assert decide(label_history=history, new_valid_attacks=0) == GraphStopReason.STABLE_DISSENT


def test_it_finds_evidence_exhausted_when_a_round_adds_no_valid_attack():
    assert decide(new_valid_attacks=0) == GraphStopReason.EVIDENCE_EXHAUSTED


def test_it_checks_only_defects_after_the_opening_round():
    assert decide(round=0, camps=1, undecided=0, new_valid_attacks=0) is None
    assert (
        decide(
            round=0, defect=StopDecision.coded(StopReason.CRITICAL_DEFECT, "no_opening_argument")
        )
        == StopReason.CRITICAL_DEFECT
    )


def test_it_compares_labels_of_known_arguments_only():
    assert labels_unchanged({"A1": "IN"}, {"A1": "IN", "A2": "OUT"})
    assert not labels_unchanged({"A1": "IN"}, {"A1": "UNDEC"})
    assert not labels_unchanged({"A1": "IN"}, {})


def test_it_stops_before_a_stage_the_budget_cannot_pay():
    allowed = budget_decision(
        budget=Decimal("1"),
        spent=Decimal("0.5"),
        next_stage="attacks",
        round=2,
        estimate=Decimal("0.5"),
    )
    refused = budget_decision(
        budget=Decimal("1"),
        spent=Decimal("0.6"),
        next_stage="attacks",
        round=2,
        estimate=Decimal("0.5"),
    )
    assert allowed is None
    assert refused.reason == StopReason.BUDGET
    assert "attacks" in refused.detail and "$0.4000" in refused.detail
    assert refused.code == "budget" and is_budget_stop(reason=refused.reason, code=refused.code)
    assert refused.params == {
        "stage": "attacks",
        "round": 2,
        "estimate": "0.5000",
        "left": "0.4000",
        "budget": "1.00",
    }
