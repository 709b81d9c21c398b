"""The coach's reply contract: what the model (or the offline coach) must answer.

Field names are camelCase because they are the JSON the model writes and the
page reads; `extra="forbid"` makes the schema closed
(`additionalProperties: false`), which structured output requires.

The model is deliberately lenient about what the guards repair — a
whitespace proposal value, `shouldAdvance` without `nextStep`, a wrong step —
because the guards exist to fix those and say so in the turn record; a reply
that fails here could not be guarded at all. `contract_problems` is the
strict check the schema guard runs on the final, guarded result.

Every string the model writes has a length cap (a model that ignores
max_tokens must not fill the transcript with megabytes). Each cap is far
above what the prompt asks for and above what ``MAX_TOKENS`` (1,200 tokens,
about 5,000 characters) lets an honest reply write in that field, so only a
misbehaving reply meets it; a proposal's value may be as long as a field the
student types (``MAX_PROPOSAL_CHARS`` = the API's ``MAX_FIELD_CHARS``), since
the offline coach proposes the student's own words.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAX_ASSISTANT_TEXT_CHARS",
    "MAX_NOTE_CHARS",
    "MAX_PROPOSAL_CHARS",
    "CoachAIResult",
    "ProposedUpdate",
    "StepId",
    "contract_problems",
]

MAX_ASSISTANT_TEXT_CHARS = 6000
MAX_PROPOSAL_CHARS = 5000
# A rationale or a next question: one sentence is asked for.
MAX_NOTE_CHARS = 1000

StepId = Literal[
    "claim", "grounds", "warrant", "groundsBacking", "warrantBacking", "qualifier", "rebuttal"
]  # fmt: skip


class ProposedUpdate(BaseModel):
    """Text the coach proposes for one step of the draft; the student accepts or rejects it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: StepId = Field(description="The step this text is for: always the current step.")
    value: str = Field(
        max_length=MAX_PROPOSAL_CHARS, description="The proposed text for the step. Never empty."
    )
    rationale: str | None = Field(
        default=None,
        max_length=MAX_NOTE_CHARS,
        description="One sentence: why this wording, in the student's language.",
    )


class CoachAIResult(BaseModel):
    """One coach reply."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    assistantText: str = Field(
        max_length=MAX_ASSISTANT_TEXT_CHARS,
        description="What the coach says to the student: 2-3 sentences, in the argument's language.",
    )
    step: StepId = Field(description="The current step (the one the student is working on).")
    confidence: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="0-1: how sure you are the student's text (or your proposal) fits the step.",
    )
    proposedUpdate: ProposedUpdate | None = Field(
        default=None, description="Only when a proposal is warranted (see the rules)."
    )
    nextQuestion: str | None = Field(
        default=None,
        max_length=MAX_NOTE_CHARS,
        description="One question that moves the student forward.",
    )
    shouldAdvance: bool | None = Field(
        default=None, description="True when the step is done and the student can move on."
    )
    nextStep: StepId | None = Field(
        default=None, description="The step after the current one; required when shouldAdvance."
    )
    isComplete: bool | None = Field(
        default=None, description="True only when the rebuttal is done: the argument is complete."
    )

    def to_json(self) -> dict[str, Any]:
        """The JSON the page and the turn record see: unset optional fields are left out."""
        return self.model_dump(mode="json", exclude_none=True)


def contract_problems(result: CoachAIResult) -> list[str]:
    """What the final result breaks of the contract, beyond what pydantic already checks."""
    problems: list[str] = []
    if not result.assistantText.strip():
        problems.append("assistantText is empty")
    update = result.proposedUpdate
    if update is not None:
        if not update.value.strip():
            problems.append("proposedUpdate.value is empty")
        if update.field != result.step:
            problems.append("proposedUpdate.field is not the step")
    if result.shouldAdvance and result.nextStep is None:
        problems.append("shouldAdvance without nextStep")
    if result.nextStep is not None and not result.shouldAdvance:
        problems.append("nextStep without shouldAdvance")
    if result.isComplete and result.step != "rebuttal":
        problems.append("isComplete before the rebuttal step")
    return problems
