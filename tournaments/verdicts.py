"""The arbiter's structured replies: a convergence judgement and a match verdict.

Capped like every reply schema (tests/llm/test_reply_caps.py): strings and
lists are bounded far above an honest reply.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from tournaments.schemas import MAX_ITEMS, MAX_SENTENCE_CHARS, MAX_TEXT_CHARS

__all__ = ["ConvergenceJudgement", "MatchVerdict", "SideScores"]

Score = Annotated[float, Field(ge=0, le=100)]
Sentence = Annotated[str, Field(max_length=MAX_SENTENCE_CHARS)]


class ConvergenceJudgement(BaseModel):
    """How far two current recommendations agree, in four respects, 0-100 each."""

    core_recommendation_alignment: Score
    reasoning_alignment: Score
    trade_off_alignment: Score
    implementation_alignment: Score
    key_disagreements: list[Sentence] = Field(default_factory=list, max_length=MAX_ITEMS)

    @property
    def score(self) -> float:
        """The mean of the four alignments."""
        parts = (
            self.core_recommendation_alignment,
            self.reasoning_alignment,
            self.trade_off_alignment,
            self.implementation_alignment,
        )
        return round(sum(parts) / 4, 2)


class SideScores(BaseModel):
    initial: Score = Field(description="Quality of the initial recommendation, 0-100.")
    challenge: Score = Field(description="Quality of the challenges it made, 0-100.")
    defence: Score = Field(description="How well its defence adapted, 0-100.")


class MatchVerdict(BaseModel):
    """The arbiter's scores for both sides of a match, and why."""

    model_a: SideScores
    model_b: SideScores
    reasoning: str = Field(max_length=MAX_TEXT_CHARS)
    winner_strengths: list[Sentence] = Field(default_factory=list, max_length=MAX_ITEMS)
    loser_weaknesses: list[Sentence] = Field(default_factory=list, max_length=MAX_ITEMS)
