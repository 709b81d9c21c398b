"""What the cheap model returns in a stress test (every string and list bounded)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from debates.schemas import MAX_ID_CHARS, MAX_VERDICTS, Sentence, Text

__all__ = ["ConcessionVerdict", "ConcessionVerdicts", "DefenceVerdict", "PersonaReply"]


class ConcessionVerdict(BaseModel):
    attack_id: str = Field(max_length=MAX_ID_CHARS, description='The attack judged, e.g. "A3".')
    matches_conceded_exception: bool = Field(
        description="The attack raises an exception the student already listed in the rebuttal."
    )


class ConcessionVerdicts(BaseModel):
    verdicts: list[ConcessionVerdict] = Field(max_length=MAX_VERDICTS)


class DefenceVerdict(BaseModel):
    relevant: bool = Field(description="The answer addresses this objection.")
    restatement: bool = Field(
        description="The answer only repeats the student's element the objection denies."
    )
    denies_the_objection: bool = Field(
        description="The answer denies the objection itself (its claim or its reason)."
    )
    reason: Sentence = Field(description="One short sentence for the student.")


class PersonaReply(BaseModel):
    concede: bool = Field(description="The student's answer settles your objection.")
    counter_proposition: Sentence = Field(
        description="If you do not concede: what you assert against the answer, one sentence."
    )
    rationale: Text = Field(description="Why the answer fails; empty if you concede.")
