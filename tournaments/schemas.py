"""The shapes of a model's structured replies in a tournament.

Three kinds of reply: a recommendation (``RecommendationDraft``, which the
orchestrator wraps into ``ModelResponse`` with the call's metadata), a
challenge and a defence. Every string and list has a hard cap in the style
of ``debates/schemas.py``: far above what an honest reply writes, so only a
misbehaving reply meets one, and it fails validation instead of being stored.

The "no yes-man" rule (a challenge must name at least two critical
weaknesses) is *not* a validation error: the issue asks for such a challenge
to be sent back once, naming the rule, so the orchestrator needs the parsed
reply and asks ``yes_man_problem`` whether to send it back.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

__all__ = [
    "MIN_WEAKNESSES",
    "ChallengeReply",
    "ChallengeResponse",
    "ConfidenceFactors",
    "DefenceResponse",
    "ModelResponse",
    "QuestionableClaim",
    "RecommendationDraft",
    "Weakness",
    "yes_man_problem",
]

MIN_WEAKNESSES = 2

MAX_SENTENCE_CHARS = 1000  # a point, a claim, a source's title
MAX_TEXT_CHARS = 4000  # a recommendation, a response to a challenge
MAX_ID_CHARS = 100  # a model id
MAX_ITEMS = 12  # points, facts, sources, weaknesses, claims, trade-offs


Sentence = Annotated[str, Field(max_length=MAX_SENTENCE_CHARS)]
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Fraction = Annotated[float, Field(ge=0, le=1)]


class ConfidenceFactors(BaseModel):
    evidence_quality: Fraction = Field(description="How strong the evidence is, 0 to 1.")
    solution_fit: Fraction = Field(description="How well the solution fits the question, 0 to 1.")
    expertise: Fraction = Field(description="How well the question suits your expertise, 0 to 1.")

    def overall(self) -> float:
        """0.4 x evidence + 0.4 x fit + 0.2 x expertise, as the issue fixes it."""
        return 0.4 * self.evidence_quality + 0.4 * self.solution_fit + 0.2 * self.expertise


class RecommendationDraft(BaseModel):
    """What the model writes for an initial recommendation."""

    recommendation: Text = Field(description="Your recommendation and its core reasoning.")
    confidence: Fraction = Field(description="Your confidence in it, 0 to 1.")
    confidence_factors: ConfidenceFactors
    uncertainty_points: list[Sentence] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="What you are unsure about."
    )
    key_facts: list[Sentence] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="The facts it rests on."
    )
    sources: list[Sentence] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="The research results you used, if any.",
    )
    trade_offs: dict[Sentence, Sentence] = Field(
        default_factory=dict,
        max_length=MAX_ITEMS,
        description="For each option considered, its main trade-off.",
    )


class ModelResponse(RecommendationDraft):
    """A recommendation with the call's metadata, filled by the orchestrator, not the model."""

    model_id: str = Field(max_length=MAX_ID_CHARS)
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    response_seconds: float = Field(ge=0)


class Weakness(BaseModel):
    weakness: Sentence = Field(description="A critical weakness of the recommendation.")
    evidence: Text = Field(description="The evidence that shows it.")


class QuestionableClaim(BaseModel):
    claim: Sentence = Field(description="A claim of the recommendation you doubt.")
    counter_evidence: Text = Field(description="The evidence against it.")


class ChallengeResponse(BaseModel):
    strengths: list[Sentence] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="What the recommendation gets right.",
    )
    critical_weaknesses: list[Weakness] = Field(
        max_length=MAX_ITEMS, description="At least two critical weaknesses, each with evidence."
    )
    questionable_claims: list[QuestionableClaim] = Field(default_factory=list, max_length=MAX_ITEMS)
    superior_alternative: Text | None = Field(
        default=None, description="A better option, if you know one."
    )


class ChallengeReply(BaseModel):
    challenge: Sentence = Field(description="The challenge answered, quoted or summarised.")
    response: Text = Field(description="Your answer to it.")


class DefenceResponse(BaseModel):
    responses: list[ChallengeReply] = Field(
        max_length=MAX_ITEMS, description="One answer per challenge."
    )
    stance: Literal["maintaining", "updating"] = Field(
        description="Whether you keep your recommendation or update it."
    )
    recommendation: Text = Field(description="Your recommendation after this defence.")
    what_changed: list[Sentence] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="What you changed, if anything."
    )
    updated_confidence_factors: ConfidenceFactors


def yes_man_problem(challenge: ChallengeResponse) -> str | None:
    """The rule's message when a challenge names too few weaknesses, else None.

    The message is written to the challenging model, which is asked again
    with it once.
    """
    found = len(challenge.critical_weaknesses)
    if found >= MIN_WEAKNESSES:
        return None
    return (
        f"No yes-man: a challenge must name at least {MIN_WEAKNESSES} critical weaknesses, "
        f"each with its evidence, and yours named {found}. Challenge the recommendation "
        "brutally and honestly."
    )
