"""The guards: the server, not the prompt, enforces the teaching contract.

Every reply — the AI's or the offline coach's — goes through `GUARDS`, in
this order; each is a pure function `(result, context) -> (result,
GuardDecision)` and says whether it changed anything and why, so the
instructor can read in the admin what the model wanted and what it got.

1. step_coercion      `step` and `proposedUpdate.field` := the current step.
2. empty_value        a proposal with an empty / whitespace value is removed.
3. question           the student asked a question about the step or the task
                      (coach.intents): it is answered, not graded, so a
                      proposal and any advance are removed.
4. first_turn_bias    on the student's first message for the step, a proposal
                      with confidence < 0.8 (or none) is removed, unless the
                      message asks for a rewrite. (The prompt also carries a
                      hint that favours coaching; see coach.prompts.)
5. advance_gating     `shouldAdvance` is removed when there is no proposal and
                      the draft is empty, when the text (the proposal's value,
                      else the draft) fails the step heuristics, or when
                      confidence < 0.6 (a missing confidence counts as 0).
                      On the rebuttal step a standing advance becomes
                      `isComplete: true`; `isComplete` is held to the same
                      test and is removed on any other step.
6. next_step          when `shouldAdvance` stands, `nextStep` := the step
                      after the current one; otherwise it is removed.
7. confirmation       when the student confirmed and the reply carries no
                      proposal, the pending proposal for this step is
                      re-attached.
8. rejected           a proposal of the very text the student rejected last on
                      this step is removed ("yes" after Reject must not put it
                      up again), and the reply says so.
9. judgment          a proposal (or an advance on the draft's text) that is
                      circular ("X because X"), another step's text again
                      (pasted or reworded: grounds = claim), or a backing
                      that repeats what it backs is removed, whatever the
                      model said, and the reply says what is wrong instead
                      (coach.heuristics.circular_or_copied, coach.judgment).
10. complete          once all seven steps are in the draft, nothing is
                      proposed or advanced, and the reply does not ask for a
                      press of Accept.
11. schema            the final result must validate (pydantic + the strict
                      contract checks); failure raises GuardRejected.
12. question_appending a non-empty `nextQuestion` is appended to
                      `assistantText` after a blank line, unless the text
                      already ends with it.

An instructor's policy (coach.policy) adds three rules: `advance_gating` also
holds the text to the assignment's required criteria; `no_proposals` (between
`confirmation` and `rejected`) strips every `proposedUpdate` when the policy is "hints
only", and says that the words are the student's to write; `criteria`
(after `rejected`, before `schema`) removes a proposal whose text misses a
required criterion, and says what is missing, so the coach never offers text
that the accept endpoint would refuse.

A guard that removes something the student was about to see says why in the
reply, in the argument's language (coach.notes), so the words never promise
a card that is not there.

Confirmation re-attaches after the gating on purpose: the student has just
accepted in words, and the proposal still waits for their click (the
accept endpoint), so nothing advances without them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from coach import notes
from coach.heuristics import check_step, circular_or_copied, problem_message
from coach.provenance import normalise
from coach.schemas import CoachAIResult, ProposedUpdate, contract_problems
from coach.steps import next_step, phrases_for

__all__ = [
    "ADVANCE_CONFIDENCE",
    "FIRST_TURN_CONFIDENCE",
    "GUARDS",
    "GuardContext",
    "GuardDecision",
    "GuardRejected",
    "GuardedResult",
    "advance_gating",
    "apply_guards",
    "completed",
    "confirmation",
    "criteria_gate",
    "empty_value",
    "first_turn_bias",
    "judgment_gate",
    "next_step_correction",
    "no_proposals",
    "question_appending",
    "question_not_graded",
    "rejected_again",
    "schema_validation",
    "step_coercion",
]

# A first attempt may be proposed back only when the coach is this sure it is excellent.
FIRST_TURN_CONFIDENCE = 0.8
# Below this, the coach is not sure enough to move the student on.
ADVANCE_CONFIDENCE = 0.6


@dataclass(frozen=True, slots=True)
class GuardContext:
    """What the guards know about the turn, computed by the server, not the model."""

    current_step: str
    draft_text: str
    is_first_turn: bool = False
    is_confirmation: bool = False
    is_rewrite_request: bool = False
    # {"field", "value", "rationale"} or None: the proposal waiting on this step.
    pending_proposal: dict[str, Any] | None = None
    # An instructor's policy: may the coach propose text at all (False: hints only)?
    proposals_allowed: bool = True
    # The current step's text -> the required criteria it misses (names); None: no criteria.
    criteria_check: Callable[[str], list[str]] | None = None
    # The argument's language: what a guard adds to the reply is said in it.
    language: str = "en"
    # The page's (the reader's): a button a guard names is named as the page shows it.
    page_language: str = ""
    # The elements a question about the step or the task asks about (coach.intents);
    # empty: the message is not such a question.
    question_topics: tuple[str, ...] = ()
    # The text the student rejected last on this step ("": none).
    rejected_value: str = ""
    # Every step's text so far (step id -> text): a proposal is judged against the others.
    draft: Mapping[str, str] = field(default_factory=dict)
    # All seven steps are in the draft: nothing is left to propose or accept.
    complete: bool = False


@dataclass(frozen=True, slots=True)
class GuardDecision:
    name: str
    changed: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "changed": self.changed, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class GuardedResult:
    result: CoachAIResult
    decisions: tuple[GuardDecision, ...] = field(default_factory=tuple)


class GuardRejected(Exception):
    """The result cannot be made to honour the contract (the schema guard failed)."""

    def __init__(self, reason: str, decisions: tuple[GuardDecision, ...]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.decisions = decisions


Guard = Callable[[CoachAIResult, GuardContext], tuple[CoachAIResult, GuardDecision]]


def _keep(name: str, reason: str) -> GuardDecision:
    return GuardDecision(name=name, changed=False, reason=reason)


def _change(name: str, reason: str) -> GuardDecision:
    return GuardDecision(name=name, changed=True, reason=reason)


def step_coercion(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name, step = "step_coercion", context.current_step
    fixes: list[str] = []
    update: dict[str, Any] = {}
    if result.step != step:
        fixes.append(f"step {result.step} -> {step}")
        update["step"] = step
    proposal = result.proposedUpdate
    if proposal is not None and proposal.field != step:
        fixes.append(f"proposedUpdate.field {proposal.field} -> {step}")
        update["proposedUpdate"] = proposal.model_copy(update={"field": step})
    if not fixes:
        return result, _keep(name, f"already on the current step ({step})")
    return result.model_copy(update=update), _change(name, "; ".join(fixes))


def empty_value(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "empty_value"
    proposal = result.proposedUpdate
    if proposal is None:
        return result, _keep(name, "no proposal")
    if proposal.value.strip():
        return result, _keep(name, "the proposal has a value")
    return result.model_copy(update={"proposedUpdate": None}), _change(
        name, "removed a proposal with an empty value"
    )


def _with_note(result: CoachAIResult, note: str, **update: Any) -> CoachAIResult:
    """The result with `update` applied and `note` said after the coach's own words."""
    text = result.assistantText.rstrip()
    if note and note not in text:
        text = f"{text} {note}" if text else note
    return result.model_copy(update={**update, "assistantText": text})


_NO_PROPOSAL_NO_ADVANCE = {
    "proposedUpdate": None,
    "shouldAdvance": None,
    "nextStep": None,
    "isComplete": None,
}


def question_not_graded(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "question"
    if not context.question_topics:
        return result, _keep(name, "not a question about the step or the task")
    wanted = [
        key for key in ("proposedUpdate", "shouldAdvance", "isComplete") if getattr(result, key)
    ]
    if not wanted:
        return result, _keep(name, "a question, answered without a proposal or an advance")
    return result.model_copy(update=_NO_PROPOSAL_NO_ADVANCE), _change(
        name, f"a question is not an attempt: removed {', '.join(wanted)}"
    )


def first_turn_bias(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "first_turn_bias"
    if not context.is_first_turn:
        return result, _keep(name, "not the first message for this step")
    if result.proposedUpdate is None:
        return result, _keep(name, "first message, and no proposal: coaching first")
    if context.is_rewrite_request:
        return result, _keep(name, "first message, but the student asked for a rewrite")
    confidence = result.confidence
    if confidence is not None and confidence >= FIRST_TURN_CONFIDENCE:
        return result, _keep(
            name, f"first message, kept: confidence {confidence} >= {FIRST_TURN_CONFIDENCE}"
        )
    shown = "none" if confidence is None else str(confidence)
    return result.model_copy(update={"proposedUpdate": None}), _change(
        name,
        f"removed the proposal on the first message: confidence {shown} < {FIRST_TURN_CONFIDENCE}",
    )


def _advance_blocker(result: CoachAIResult, context: GuardContext) -> str | None:
    """Why the student may not move on yet, or None."""
    proposal = result.proposedUpdate
    if proposal is None and not context.draft_text.strip():
        return "no proposal and the draft field is empty"
    text = proposal.value if proposal is not None else context.draft_text
    source = "the proposal" if proposal is not None else "the draft"
    verdict = check_step(step=context.current_step, text=text)
    if not verdict.ok:
        return (
            f"{source} fails the {context.current_step} heuristics ({', '.join(verdict.problems)})"
        )
    unmet = context.criteria_check(text) if context.criteria_check is not None else []
    if unmet:
        return f"{source} misses required criteria ({'; '.join(unmet)})"
    confidence = result.confidence
    if confidence is None or confidence < ADVANCE_CONFIDENCE:
        shown = "none" if confidence is None else str(confidence)
        return f"confidence {shown} < {ADVANCE_CONFIDENCE}"
    return None


def advance_gating(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "advance_gating"
    on_rebuttal = context.current_step == "rebuttal"
    wants = bool(result.shouldAdvance) or bool(result.isComplete)
    if not wants:
        return result, _keep(name, "no advance asked")
    if result.isComplete and not on_rebuttal and not result.shouldAdvance:
        return result.model_copy(update={"isComplete": None}), _change(
            name, f"removed isComplete on the {context.current_step} step"
        )
    blocker = _advance_blocker(result, context)
    if blocker is not None:
        cleared = result.model_copy(update={"shouldAdvance": None, "isComplete": None})
        return cleared, _change(name, f"removed the advance: {blocker}")
    if on_rebuttal:
        changed = bool(result.shouldAdvance) or not result.isComplete
        completed = result.model_copy(
            update={"shouldAdvance": None, "nextStep": None, "isComplete": True}
        )
        if changed:
            return completed, _change(name, "the rebuttal is the last step: advance -> isComplete")
        return completed, _keep(name, "the argument is complete")
    if result.isComplete:
        return result.model_copy(update={"isComplete": None}), _change(
            name, f"advance kept; removed isComplete on the {context.current_step} step"
        )
    return result, _keep(name, "advance allowed")


def next_step_correction(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "next_step"
    if not result.shouldAdvance:
        if result.nextStep is None:
            return result, _keep(name, "no advance, no next step")
        return result.model_copy(update={"nextStep": None}), _change(
            name, f"removed nextStep {result.nextStep}: no advance"
        )
    expected = next_step(context.current_step)
    if result.nextStep == expected:
        return result, _keep(name, f"nextStep is {expected}")
    return result.model_copy(update={"nextStep": expected}), _change(
        name, f"nextStep {result.nextStep} -> {expected}"
    )


def confirmation(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "confirmation"
    if not context.is_confirmation:
        return result, _keep(name, "the student did not confirm")
    if result.proposedUpdate is not None:
        return result, _keep(name, "confirmed, and the reply carries a proposal")
    pending = context.pending_proposal
    if not pending or pending.get("field") != context.current_step:
        return result, _keep(name, "confirmed, but no proposal is pending for this step")
    value = str(pending.get("value") or "")
    if not value.strip():
        return result, _keep(name, "confirmed, but the pending proposal is empty")
    restored = ProposedUpdate(
        field=context.current_step, value=value, rationale=pending.get("rationale") or None
    )
    return result.model_copy(update={"proposedUpdate": restored}), _change(
        name, "the student confirmed: re-attached the pending proposal"
    )


def no_proposals(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "no_proposals"
    if context.proposals_allowed:
        return result, _keep(name, "proposals allowed")
    if result.proposedUpdate is None:
        return result, _keep(name, "hints only, and no proposal")
    note = notes.hints_only_note(
        step=context.current_step, language=context.language, page_language=context.page_language
    )
    return _with_note(result, note, proposedUpdate=None), _change(
        name, "hints only: removed the proposal"
    )


def rejected_again(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "rejected"
    proposal = result.proposedUpdate
    if proposal is None or not context.rejected_value.strip():
        return result, _keep(name, "no proposal, or nothing rejected on this step")
    if normalise(proposal.value) != normalise(context.rejected_value):
        return result, _keep(name, "the proposal is not the text the student rejected")
    note = notes.rejected_again(step=context.current_step, language=context.language)
    return _with_note(result, note, **_NO_PROPOSAL_NO_ADVANCE), _change(
        name, "removed a proposal of the text the student had just rejected"
    )


def criteria_gate(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "criteria"
    proposal = result.proposedUpdate
    if context.criteria_check is None:
        return result, _keep(name, "no required criteria")
    if proposal is None:
        return result, _keep(name, "no proposal")
    unmet = context.criteria_check(proposal.value)
    if not unmet:
        return result, _keep(name, "the proposal meets the required criteria")
    note = notes.criteria_note(
        step=context.current_step, language=context.language, unmet=unmet, held_back=True
    )
    return _with_note(result, note, **_NO_PROPOSAL_NO_ADVANCE), _change(
        name, f"removed a proposal that misses required criteria ({'; '.join(unmet)})"
    )


# What the judgment guard says instead of a reply that proposed flawed text.
_HELD_BACK = {
    "en": "I cannot put that up as {the}: {problem}.",
    "es": "No puedo proponer eso como {the}: {problem}.",
}
_COMPLETE = {
    "en": "Your argument is complete: all seven steps are in your draft, so there is nothing "
    "left to accept. You can still change any step in the draft.",
    "es": "Tu argumento está completo: los siete pasos están en tu borrador, así que no queda "
    "nada que aceptar. Aún puedes cambiar cualquier paso en el borrador.",
}


def judgment_gate(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    """No coach proposes (or moves on with) a circular or copied text, whatever it says."""
    name = "judgment"
    proposal = result.proposedUpdate
    advancing = bool(result.shouldAdvance or result.isComplete)
    if proposal is None and not advancing:
        return result, _keep(name, "no proposal and no advance")
    text = proposal.value if proposal is not None else context.draft_text
    step = context.current_step
    problem = circular_or_copied(
        step=step, text=text, draft=context.draft, language=context.language
    )
    if problem is None:
        return result, _keep(name, "not circular, not another step's text")
    language = context.language if context.language in _HELD_BACK else "en"
    said = _HELD_BACK[language].format(
        the=phrases_for(step, language).the, problem=problem_message(problem, language)
    )
    # The model's words praised or offered that text: they are replaced, not added to.
    held = result.model_copy(update={**_NO_PROPOSAL_NO_ADVANCE, "assistantText": said})
    return held, _change(name, f"removed the proposal and any advance: {problem}")


def completed(result: CoachAIResult, context: GuardContext) -> tuple[CoachAIResult, GuardDecision]:
    """Once the argument is complete nothing is left to accept: no card, no "press Accept"."""
    name = "complete"
    if not context.complete:
        return result, _keep(name, "the argument is not complete")
    wanted = [
        key for key in ("proposedUpdate", "shouldAdvance", "isComplete") if getattr(result, key)
    ]
    if not wanted:
        return result, _keep(name, "complete, and nothing proposed")
    language = context.language if context.language in _COMPLETE else "en"
    done = result.model_copy(
        update={**_NO_PROPOSAL_NO_ADVANCE, "assistantText": _COMPLETE[language]}
    )
    return done, _change(name, f"the argument is complete: removed {', '.join(wanted)}")


def schema_validation(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    """Re-validate from plain JSON: model_copy skips validation, so check it all here."""
    name = "schema"
    try:
        validated = CoachAIResult.model_validate(result.model_dump())
    except ValidationError as error:
        raise GuardRejected(f"schema: {error.error_count()} error(s): {error}", ()) from error
    problems = contract_problems(validated)
    if problems:
        raise GuardRejected("schema: " + "; ".join(problems), ())
    return validated, _keep(name, "the result honours the contract")


def question_appending(
    result: CoachAIResult, context: GuardContext
) -> tuple[CoachAIResult, GuardDecision]:
    name = "question_appending"
    question = (result.nextQuestion or "").strip()
    if not question:
        return result, _keep(name, "no nextQuestion")
    text = result.assistantText.rstrip()
    if text.endswith(question):
        return result, _keep(name, "assistantText already ends with the question")
    return result.model_copy(update={"assistantText": f"{text}\n\n{question}"}), _change(
        name, "appended nextQuestion to assistantText"
    )


GUARDS: tuple[Guard, ...] = (
    step_coercion,
    empty_value,
    question_not_graded,
    first_turn_bias,
    advance_gating,
    next_step_correction,
    confirmation,
    no_proposals,
    rejected_again,
    criteria_gate,
    judgment_gate,
    completed,
    schema_validation,
    question_appending,
)


def apply_guards(*, result: CoachAIResult, context: GuardContext) -> GuardedResult:
    """Run every guard in order; raise GuardRejected if the schema guard fails."""
    decisions: list[GuardDecision] = []
    for guard in GUARDS:
        try:
            result, decision = guard(result, context)
        except GuardRejected as rejected:
            failed = GuardDecision(name="schema", changed=False, reason=rejected.reason)
            raise GuardRejected(rejected.reason, (*decisions, failed)) from rejected
        decisions.append(decision)
    return GuardedResult(result=result, decisions=tuple(decisions))
