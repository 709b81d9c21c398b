"""Every guard rule and its edges, on plain values (the guards are pure functions)."""

from __future__ import annotations

from typing import Any

import pytest

from coach.guards import (
    GUARDS,
    GuardContext,
    GuardRejected,
    advance_gating,
    apply_guards,
    confirmation,
    empty_value,
    first_turn_bias,
    judgment_gate,
    next_step_correction,
    question_appending,
    schema_validation,
    step_coercion,
)
from coach.schemas import CoachAIResult, ProposedUpdate
from coach.steps import STEP_IDS, next_step

GOOD_TEXT = {
    "claim": "Cities should ban private cars from their centres.",
    "grounds": "A 2021 city survey found that 40% of car trips downtown are under 3 km.",
    "warrant": "If most trips are short, people can switch to walking or cycling.",
    "groundsBacking": "The survey was published by the city's transport office in 2021.",
    "warrantBacking": "Transport research shows short trips shift to bikes when lanes exist.",
    "qualifier": "Probably, in most large cities.",
    "rebuttal": "Unless public transport is unreliable or absent.",
}
WEAK_TEXT = {
    "claim": "Should cities ban cars?",
    "grounds": "Cars are bad for everyone.",
    "warrant": "It is obvious.",
    "groundsBacking": "Trust me on this one.",
    "warrantBacking": "Everybody knows it.",
    "qualifier": "Sure.",
    "rebuttal": "Cars are noisy and dirty.",
}


def result(step: str = "claim", **fields: Any) -> CoachAIResult:
    return CoachAIResult(assistantText="Good start.", step=step, **fields)


def proposal(step: str = "claim", value: str | None = None) -> dict[str, Any]:
    return {"field": step, "value": GOOD_TEXT[step] if value is None else value}


def context(step: str = "claim", **fields: Any) -> GuardContext:
    return GuardContext(current_step=step, draft_text=fields.pop("draft_text", ""), **fields)


def test_it_runs_the_guards_in_the_documented_order() -> None:
    assert [guard.__name__ for guard in GUARDS] == [
        "step_coercion",
        "empty_value",
        "question_not_graded",
        "first_turn_bias",
        "advance_gating",
        "next_step_correction",
        "confirmation",
        "no_proposals",
        "rejected_again",
        "criteria_gate",
        "judgment_gate",
        "completed",
        "schema_validation",
        "question_appending",
    ]


# 1. Step coercion ------------------------------------------------------------


def test_it_forces_the_step_and_the_proposal_field_to_the_current_step() -> None:
    raw = result("warrant", proposedUpdate=proposal("warrant"))
    guarded, decision = step_coercion(raw, context("grounds"))
    assert guarded.step == "grounds" and guarded.proposedUpdate.field == "grounds"
    assert guarded.proposedUpdate.value == GOOD_TEXT["warrant"]
    assert decision.changed and "warrant -> grounds" in decision.reason


def test_it_leaves_a_reply_on_the_current_step_alone() -> None:
    raw = result("claim", proposedUpdate=proposal())
    guarded, decision = step_coercion(raw, context("claim"))
    assert guarded == raw and not decision.changed


# 2. Empty value removal ------------------------------------------------------


@pytest.mark.parametrize("value", ["", "   ", "\n\t "])
def test_it_removes_a_proposal_with_an_empty_value(value: str) -> None:
    guarded, decision = empty_value(result(proposedUpdate=proposal(value=value)), context())
    assert guarded.proposedUpdate is None and decision.changed


def test_it_keeps_a_proposal_with_a_value() -> None:
    raw = result(proposedUpdate=proposal(value="x"))
    assert empty_value(raw, context())[0] == raw


# 3. First-turn bias ----------------------------------------------------------


@pytest.mark.parametrize("step", STEP_IDS)
def test_it_removes_a_low_confidence_proposal_on_the_first_turn_of_every_step(step: str) -> None:
    raw = result(step, confidence=0.79, proposedUpdate=proposal(step))
    guarded, decision = first_turn_bias(raw, context(step, is_first_turn=True))
    assert guarded.proposedUpdate is None and decision.changed
    assert "0.79 < 0.8" in decision.reason


def test_it_keeps_a_first_turn_proposal_at_exactly_0_8() -> None:
    raw = result(confidence=0.8, proposedUpdate=proposal())
    guarded, decision = first_turn_bias(raw, context(is_first_turn=True))
    assert guarded.proposedUpdate is not None and not decision.changed


def test_it_treats_a_missing_confidence_as_too_low_on_the_first_turn() -> None:
    raw = result(proposedUpdate=proposal())
    assert first_turn_bias(raw, context(is_first_turn=True))[0].proposedUpdate is None


def test_it_keeps_a_first_turn_proposal_the_student_asked_for() -> None:
    raw = result(confidence=0.3, proposedUpdate=proposal())
    ctx = context(is_first_turn=True, is_rewrite_request=True)
    assert first_turn_bias(raw, ctx)[0].proposedUpdate is not None


def test_it_lets_later_turns_propose_with_any_confidence() -> None:
    raw = result(confidence=0.1, proposedUpdate=proposal())
    assert first_turn_bias(raw, context(is_first_turn=False))[0] == raw


# 4. Advance gating -----------------------------------------------------------


def test_it_blocks_an_advance_with_no_proposal_and_an_empty_draft() -> None:
    raw = result(confidence=0.95, shouldAdvance=True, nextStep="grounds")
    guarded, decision = advance_gating(raw, context(draft_text="  "))
    assert guarded.shouldAdvance is None and decision.changed
    assert "draft field is empty" in decision.reason


def test_it_allows_an_advance_on_a_good_draft_without_a_proposal() -> None:
    raw = result(confidence=0.7, shouldAdvance=True, nextStep="grounds")
    guarded, decision = advance_gating(raw, context(draft_text=GOOD_TEXT["claim"]))
    assert guarded.shouldAdvance is True and not decision.changed


@pytest.mark.parametrize("step", STEP_IDS)
def test_it_blocks_an_advance_when_the_text_fails_the_steps_heuristics(step: str) -> None:
    raw = result(
        step, confidence=0.9, shouldAdvance=True, proposedUpdate=proposal(step, WEAK_TEXT[step])
    )
    guarded, decision = advance_gating(raw, context(step, draft_text=GOOD_TEXT[step]))
    assert guarded.shouldAdvance is None and guarded.isComplete is None
    assert f"fails the {step} heuristics" in decision.reason


@pytest.mark.parametrize("step", STEP_IDS)
def test_it_judges_the_proposal_before_the_draft(step: str) -> None:
    raw = result(step, confidence=0.9, shouldAdvance=True, proposedUpdate=proposal(step))
    guarded, _ = advance_gating(raw, context(step, draft_text=WEAK_TEXT[step]))
    assert guarded.shouldAdvance or guarded.isComplete


def test_it_keeps_an_advance_at_exactly_0_6_and_blocks_it_just_below() -> None:
    at = result(confidence=0.6, shouldAdvance=True, proposedUpdate=proposal())
    below = result(confidence=0.59, shouldAdvance=True, proposedUpdate=proposal())
    assert advance_gating(at, context())[0].shouldAdvance is True
    guarded, decision = advance_gating(below, context())
    assert guarded.shouldAdvance is None and "0.59 < 0.6" in decision.reason


def test_it_blocks_an_advance_without_a_confidence() -> None:
    raw = result(shouldAdvance=True, proposedUpdate=proposal())
    assert advance_gating(raw, context())[0].shouldAdvance is None


def test_it_turns_an_advance_on_the_rebuttal_into_completion() -> None:
    raw = result(
        "rebuttal",
        confidence=0.9,
        shouldAdvance=True,
        nextStep="claim",
        proposedUpdate=proposal("rebuttal"),
    )
    guarded, decision = advance_gating(raw, context("rebuttal"))
    assert guarded.isComplete is True and guarded.shouldAdvance is None and guarded.nextStep is None
    assert decision.changed


def test_it_holds_completion_to_the_same_test_as_an_advance() -> None:
    weak = result(
        "rebuttal",
        confidence=0.9,
        isComplete=True,
        proposedUpdate=proposal("rebuttal", WEAK_TEXT["rebuttal"]),
    )
    unsure = result(
        "rebuttal", confidence=0.5, isComplete=True, proposedUpdate=proposal("rebuttal")
    )
    assert advance_gating(weak, context("rebuttal"))[0].isComplete is None
    assert advance_gating(unsure, context("rebuttal"))[0].isComplete is None


def test_it_removes_completion_before_the_rebuttal() -> None:
    raw = result("qualifier", confidence=0.9, isComplete=True, proposedUpdate=proposal("qualifier"))
    guarded, decision = advance_gating(raw, context("qualifier"))
    assert guarded.isComplete is None and decision.changed


# 5. Next-step correction -----------------------------------------------------


@pytest.mark.parametrize("step", STEP_IDS[:-1])
def test_it_sets_next_step_to_the_step_after_the_current_one(step: str) -> None:
    raw = result(step, shouldAdvance=True, nextStep="claim" if step != "claim" else "rebuttal")
    guarded, decision = next_step_correction(raw, context(step))
    assert guarded.nextStep == next_step(step) and decision.changed


def test_it_fills_a_missing_next_step() -> None:
    guarded, _ = next_step_correction(result(shouldAdvance=True), context())
    assert guarded.nextStep == "grounds"


def test_it_drops_a_next_step_without_an_advance() -> None:
    guarded, decision = next_step_correction(result(nextStep="grounds"), context())
    assert guarded.nextStep is None and decision.changed


# 6. Confirmation -------------------------------------------------------------

PENDING = {"field": "claim", "value": "Cities should ban cars.", "rationale": "Shorter."}


def test_it_reattaches_the_pending_proposal_when_the_student_confirmed() -> None:
    guarded, decision = confirmation(
        result(), context(is_confirmation=True, pending_proposal=PENDING)
    )
    assert guarded.proposedUpdate.model_dump() == PENDING and decision.changed


def test_it_does_not_reattach_without_a_confirmation() -> None:
    raw = result()
    assert confirmation(raw, context(pending_proposal=PENDING))[0] == raw


def test_it_does_not_reattach_a_proposal_for_another_step() -> None:
    raw = result("grounds")
    ctx = context("grounds", is_confirmation=True, pending_proposal=PENDING)
    assert confirmation(raw, ctx)[0].proposedUpdate is None


def test_it_keeps_the_models_own_proposal_over_the_pending_one() -> None:
    raw = result(proposedUpdate=proposal())
    ctx = context(is_confirmation=True, pending_proposal=PENDING)
    assert confirmation(raw, ctx)[0].proposedUpdate.value == GOOD_TEXT["claim"]


# 7. Schema validation --------------------------------------------------------


def test_it_rejects_a_result_that_breaks_the_contract() -> None:
    broken = result().model_copy(update={"confidence": 1.5})
    with pytest.raises(GuardRejected):
        schema_validation(broken, context())
    with pytest.raises(GuardRejected, match="shouldAdvance without nextStep"):
        schema_validation(result(shouldAdvance=True), context())


def test_it_passes_a_valid_result_through() -> None:
    raw = result(confidence=0.4)
    guarded, decision = schema_validation(raw, context())
    assert guarded == raw and not decision.changed


# 8. Question appending -------------------------------------------------------


def test_it_appends_the_next_question_after_a_blank_line() -> None:
    guarded, decision = question_appending(result(nextQuestion=" Why? "), context())
    assert guarded.assistantText == "Good start.\n\nWhy?" and decision.changed


@pytest.mark.parametrize("question", [None, "", "   "])
def test_it_appends_nothing_without_a_question(question: str | None) -> None:
    assert (
        question_appending(result(nextQuestion=question), context())[0].assistantText
        == "Good start."
    )


# The whole chain -------------------------------------------------------------


def test_it_records_one_decision_per_guard_in_order() -> None:
    raw = result(
        "warrant",
        confidence=0.9,
        shouldAdvance=True,
        nextStep="rebuttal",
        proposedUpdate=proposal("warrant"),
        nextQuestion="Next?",
    )
    outcome = apply_guards(result=raw, context=context("claim"))
    assert [d.name for d in outcome.decisions] == [
        "step_coercion", "empty_value", "question", "first_turn_bias", "advance_gating",
        "next_step", "confirmation", "no_proposals", "rejected", "criteria", "judgment",
        "complete", "schema", "question_appending",
    ]  # fmt: skip
    final = outcome.result
    assert (final.step, final.proposedUpdate.field, final.nextStep) == ("claim", "claim", "grounds")
    assert final.assistantText.endswith("\n\nNext?")


def test_it_lets_a_confirmation_restore_what_the_first_turn_bias_removed_only_from_pending() -> (
    None
):
    raw = result(confidence=0.5, proposedUpdate=proposal(value="Model's own idea."))
    ctx = context(is_first_turn=True, is_confirmation=True, pending_proposal=PENDING)
    final = apply_guards(result=raw, context=ctx).result
    assert final.proposedUpdate.value == PENDING["value"]


def test_it_names_the_failed_guard_when_rejecting() -> None:
    raw = result().model_copy(update={"confidence": -1})
    with pytest.raises(GuardRejected) as caught:
        apply_guards(result=raw, context=context())
    assert caught.value.decisions[-1].name == "schema"
    assert len(caught.value.decisions) == 13  # twelve before schema, then schema


# An instructor's policy (coach.policy) -------------------------------------


def test_it_strips_every_proposal_when_the_policy_is_hints_only() -> None:
    raw = result("claim", confidence=0.95, proposedUpdate=proposal("claim"))
    outcome = apply_guards(result=raw, context=context("claim", proposals_allowed=False))
    assert outcome.result.proposedUpdate is None
    decision = next(d for d in outcome.decisions if d.name == "no_proposals")
    assert decision.changed and "hints only" in decision.reason


def test_it_strips_a_proposal_the_confirmation_guard_restored_under_hints_only() -> None:
    pending = {"field": "claim", "value": GOOD_TEXT["claim"], "rationale": ""}
    raw = result("claim")
    ctx = context("claim", proposals_allowed=False, is_confirmation=True, pending_proposal=pending)
    assert apply_guards(result=raw, context=ctx).result.proposedUpdate is None


def test_it_holds_the_advance_to_the_required_criteria() -> None:
    raw = result("claim", confidence=0.95, shouldAdvance=True, nextStep="grounds")
    ctx = context(
        "claim", draft_text=GOOD_TEXT["claim"], criteria_check=lambda text: ["needs a number"]
    )
    outcome = apply_guards(result=raw, context=ctx)
    assert outcome.result.shouldAdvance is None
    gate = next(d for d in outcome.decisions if d.name == "advance_gating")
    assert "needs a number" in gate.reason
    passing = context("claim", draft_text=GOOD_TEXT["claim"], criteria_check=lambda text: [])
    assert apply_guards(result=raw, context=passing).result.shouldAdvance


def test_it_says_why_it_stripped_a_proposal_under_hints_only() -> None:
    raw = result("claim", proposedUpdate=proposal("claim"))
    for language, button in (("en", '"Use my words for the claim"'), ("es", "«Usar mis palabras")):
        ctx = context("claim", proposals_allowed=False, language=language)
        text = apply_guards(result=raw, context=ctx).result.assistantText
        assert text.startswith("Good start.") and button in text


# A proposal the accept endpoint would refuse is not offered -----------------


def test_it_removes_a_proposal_that_misses_a_required_criterion_and_says_what_is_missing() -> None:
    raw = result(
        "grounds",
        confidence=0.95,
        proposedUpdate=proposal("grounds", "Air pollution is bad for people."),
        shouldAdvance=True,
        nextStep="warrant",
    )
    ctx = context(
        "grounds",
        language="es",
        criteria_check=lambda text: [] if "%" in text else ["Los datos contienen un número"],
    )
    outcome = apply_guards(result=raw, context=ctx)
    final = outcome.result
    assert final.proposedUpdate is None and not final.shouldAdvance and final.nextStep is None
    assert "Tu docente exige esto para los datos: los datos contienen un número." in (
        final.assistantText
    )
    gate = next(d for d in outcome.decisions if d.name == "criteria")
    assert gate.changed and "Los datos contienen un número" in gate.reason
    meeting = result("grounds", proposedUpdate=proposal("grounds", "40% of trips are short."))
    assert apply_guards(result=meeting, context=ctx).result.proposedUpdate is not None


def test_it_does_not_put_up_again_the_text_the_student_just_rejected() -> None:
    pending_again = result("claim", confidence=0.9, proposedUpdate=proposal("claim", "Cars out."))
    ctx = context("claim", is_confirmation=True, rejected_value="cars out")
    outcome = apply_guards(result=pending_again, context=ctx)
    assert outcome.result.proposedUpdate is None
    assert "You turned that version down" in outcome.result.assistantText
    other = result("claim", confidence=0.9, proposedUpdate=proposal("claim", "No cars downtown."))
    assert apply_guards(result=other, context=ctx).result.proposedUpdate is not None


@pytest.mark.parametrize("field", ["proposedUpdate", "shouldAdvance"])
def test_it_never_grades_a_question_as_an_attempt(field: str) -> None:
    graded = result(
        "grounds",
        confidence=0.9,
        proposedUpdate=proposal("grounds"),
        shouldAdvance=True,
        nextStep="warrant",
    )
    ctx = context(
        "grounds", draft_text=GOOD_TEXT["grounds"], question_topics=("groundsBacking", "grounds")
    )
    outcome = apply_guards(result=graded, context=ctx)
    assert getattr(outcome.result, field) is None
    assert next(d for d in outcome.decisions if d.name == "question").changed


# Judgment: circular and copied text, whatever the model says ----------------


SCHOOL = {
    "claim": "Schools should start at 9 a.m. instead of 8 a.m.",
    "grounds": "A 2017 study of 9,000 students found that later starts meant more sleep.",
}


@pytest.mark.parametrize(
    ("step", "value", "language", "says"),
    [
        ("warrant", "Homework should be banned because it should be banned.", "en", "own reason"),
        ("claim", "Homework should be banned because it should be banned.", "en", "own reason"),
        ("grounds", SCHOOL["claim"], "en", "same text as your claim"),
        ("grounds", "schools should start at 9 am instead of 8 am", "en", "same text"),
        ("grounds", "The fact is schools must start at 9 and not 8.", "en", "your claim again"),
        ("groundsBacking", SCHOOL["grounds"], "en", "same text as your grounds"),
        ("warrant", "Deberían prohibir los deberes porque deberían prohibirlos.", "es", "razón"),
    ],
)
def test_it_holds_back_circular_and_copied_text_whatever_the_model_says(
    step: str, value: str, language: str, says: str
) -> None:
    raw = CoachAIResult(
        assistantText="Great job, that works perfectly!",
        step=step,
        confidence=0.95,
        proposedUpdate=ProposedUpdate(field=step, value=value),
        shouldAdvance=True,
        nextStep="rebuttal",
    )
    ctx = context(step, draft=SCHOOL, language=language)
    final = apply_guards(result=raw, context=ctx).result
    assert final.proposedUpdate is None and not final.shouldAdvance and not final.isComplete
    assert "Great job" not in final.assistantText and says in final.assistantText


def test_it_holds_back_an_advance_on_a_circular_draft() -> None:
    raw = result("warrant", confidence=0.9, shouldAdvance=True, nextStep="groundsBacking")
    circular = "Cars should be banned because cars should be banned."
    guarded, decision = judgment_gate(raw, context("warrant", draft_text=circular, draft=SCHOOL))
    assert decision.changed and not guarded.shouldAdvance


def test_it_keeps_a_good_proposal() -> None:
    value = "If students sleep more, they concentrate better and learn more."
    raw = result("warrant", confidence=0.9, proposedUpdate=proposal("warrant", value))
    guarded, decision = judgment_gate(raw, context("warrant", draft=SCHOOL))
    assert not decision.changed and guarded.proposedUpdate.value == value


def test_it_proposes_nothing_once_the_argument_is_complete() -> None:
    raw = result("rebuttal", confidence=0.9, isComplete=True, proposedUpdate=proposal("rebuttal"))
    final = apply_guards(result=raw, context=context("rebuttal", complete=True)).result
    assert final.proposedUpdate is None and not final.isComplete
    assert "Accept" not in final.assistantText and "nothing left to accept" in final.assistantText
