"""The shapes of the model's structured replies in a debate (sent as JSON schemas).

The class names are the schema titles on the wire, which is how the fake
debate model in tests tells the four kinds of request apart.

Counts the issue asks for (2-4 claims, 2-4 arguments, 0-4 attacks) are asked
for in the prompts and field descriptions, and enforced by the orchestrator by
keeping the first ones, not by rejecting the reply: a persona that offers a
fifth argument has still produced four good ones, and a rejected reply would
be paid for and wasted.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

__all__ = [
    "MAX_ARGUMENTS",
    "MAX_ATTACKS",
    "MAX_CLAIMS",
    "MAX_ID_CHARS",
    "MAX_VERDICTS",
    "ArgumentDraft",
    "AttackDraft",
    "AttackValidations",
    "AttackVerdict",
    "PersonaArguments",
    "PersonaAttacks",
    "Sentence",
    "Text",
    "TopicDecomposition",
]

MAX_CLAIMS = 4
MAX_ARGUMENTS = 4
MAX_ATTACKS = 4

# Hard caps on what a model may send at all (a 50 MB claim was once
# accepted and exported). Each is far above what the prompts ask for and
# above what max_tokens (600-2,500) lets an honest reply write, so only a
# misbehaving reply meets one, and it fails validation instead of being
# stored. Lists may overshoot the asked-for counts (the orchestrator keeps
# the first ones) but not without bound.
MAX_SENTENCE_CHARS = 1000  # a claim, a counter-proposition: one sentence is asked for
MAX_TEXT_CHARS = 2000  # a premise, an assumption, a piece of evidence, a rationale
MAX_ID_CHARS = 20  # "A3", "T12"
MAX_ITEMS = 12  # premises, assumptions, evidence; claims; arguments; attacks
MAX_VERDICTS = 200  # one per attack of a round: personas x MAX_ATTACKS, with room

Sentence = Annotated[str, Field(max_length=MAX_SENTENCE_CHARS)]
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]


class TopicDecomposition(BaseModel):
    claims: list[Sentence] = Field(
        min_length=1,
        max_length=MAX_ITEMS,
        description="2 to 4 distinct, debatable claims that together cover the topic.",
    )


class ArgumentDraft(BaseModel):
    claim: Sentence = Field(description="The conclusion, one sentence.")
    premises: list[Text] = Field(
        max_length=MAX_ITEMS, description="The reasons given for the claim."
    )
    assumptions: list[Text] = Field(
        max_length=MAX_ITEMS,
        description="What must be true for the premises to support the claim, stated plainly.",
    )
    evidence: list[Text] = Field(
        max_length=MAX_ITEMS, description="Facts, studies or examples cited; may be empty."
    )


class PersonaArguments(BaseModel):
    arguments: list[ArgumentDraft] = Field(
        min_length=1, max_length=MAX_ITEMS, description="2 to 4 arguments for your position."
    )


class AttackDraft(BaseModel):
    target_id: str = Field(
        max_length=MAX_ID_CHARS, description='The id of the attacked argument, e.g. "A3".'
    )
    type: Literal["rebut", "undermine", "undercut"] = Field(
        description="rebut: denies the claim; undermine: denies a premise; "
        "undercut: denies an assumption linking premises to claim."
    )
    target_component: Literal["claim", "premise", "assumption"]
    target_index: int = Field(
        ge=0, description="0 for the claim; else the premise/assumption index."
    )
    counter_proposition: Sentence = Field(description="What you assert instead, one sentence.")
    rationale: Text = Field(description="Why the target fails.")
    assumptions: list[Text] = Field(
        max_length=MAX_ITEMS, description="What your counter-argument takes for granted."
    )
    evidence: list[Text] = Field(
        max_length=MAX_ITEMS, description="Facts, studies or examples cited; may be empty."
    )
    confidence: float = Field(ge=0.0, le=1.0)


class PersonaAttacks(BaseModel):
    attacks: list[AttackDraft] = Field(
        max_length=MAX_ITEMS,
        description="0 to 4 attacks on other personas' arguments; empty if none is warranted.",
    )


class AttackVerdict(BaseModel):
    attack_id: str = Field(
        max_length=MAX_ID_CHARS, description='The id of the attack judged, e.g. "T2".'
    )
    no_fallacy: bool
    relevant: bool
    type_correct: bool = Field(description="The attack type fits the targeted component.")
    target_exists: bool = Field(description="The targeted component exists in the argument.")
    valid: bool
    strength: float = Field(ge=0.0, le=1.0)
    corrections: Text = Field(description="What is wrong or how to fix it; empty if nothing.")


class AttackValidations(BaseModel):
    verdicts: list[AttackVerdict] = Field(
        max_length=MAX_VERDICTS, description="One verdict per attack, in any order."
    )
