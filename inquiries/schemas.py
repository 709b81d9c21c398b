"""What the inquiry's agents answer (structured output through llm/), every field bounded.

The class names are the schema titles on the wire: the fake inquiry model in
tests tells the kinds of request apart by them.

An agent cannot know the ids the server will give the claims it registers, so
it labels them ``N1``, ``N2``… (calculations ``M1``…) and cites ``[N1]`` in its
text; the server registers them (``C-…``, ``K-…``) and rewrites the citations
before the gates look at the output (inquiries/registry.py).

The self-accounting record is optional *in the schema* so that an output
without one reaches the Muḥāsabah gate (NO_RECORD) and is sent back naming
the rule, rather than failing validation anonymously.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

__all__ = [
    "AgentReply",
    "ArbiterReply",
    "CalcDraft",
    "ChainDraft",
    "ClaimDraft",
    "RecordDraft",
]

MAX_CONTENT_CHARS = 4000
MAX_TEXT_CHARS = 1000
MAX_ID_CHARS = 24
MAX_ITEMS = 12

Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Id = Annotated[str, Field(max_length=MAX_ID_CHARS)]
Position = Literal["supports", "opposes", "undecided"]


class ChainDraft(BaseModel):
    span: Id = Field(description="The span id the claim rests on, e.g. S3.2.")
    source: Id = Field(description="The source that reports it, e.g. SRC-3.")
    origins: list[Id] = Field(
        default_factory=list,
        max_length=4,
        description="The earlier sources it reports from, nearest first, e.g. ['SRC-1'].",
    )


class ClaimDraft(BaseModel):
    label: Id = Field(description="Your label for the new claim: N1, N2, ...")
    text: Text
    chains: list[ChainDraft] = Field(min_length=1, max_length=6)


class CalcInput(BaseModel):
    span: Id
    value: Annotated[str, Field(max_length=40)] = Field(
        description="The number exactly as the span writes it."
    )


class CalcDraft(BaseModel):
    label: Id = Field(description="Your label for the calculation: M1, M2, ...")
    op: Literal["percentage", "difference", "sum"]
    inputs: list[CalcInput] = Field(min_length=1, max_length=8)


class RecordDraft(BaseModel):
    supported_claim_ids: list[Id] = Field(default_factory=list, max_length=MAX_ITEMS)
    falsifiability_tests: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    uncertainties: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    confidence: float = Field(ge=0.0, le=1.0, description="How sure you are of your position.")
    failure_modes: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)


class AgentReply(BaseModel):
    content: Annotated[str, Field(max_length=MAX_CONTENT_CHARS)] = Field(
        description="Your answer. Every sentence with a number, date, amount or name cites "
        "a claim id in square brackets, e.g. [C-3]."
    )
    position: Position = Field(description="Your position on the thesis.")
    claim_refs: list[Id] = Field(default_factory=list, max_length=MAX_ITEMS)
    new_claims: list[ClaimDraft] = Field(default_factory=list, max_length=6)
    calcs: list[CalcDraft] = Field(default_factory=list, max_length=4)
    evidence_requests: list[Text] = Field(
        default_factory=list,
        max_length=2,
        description="At most two search queries for passages the case file may hold.",
    )
    record: RecordDraft | None = None


class ArbiterReply(BaseModel):
    thesis_upheld: bool = Field(description="Does the thesis hold on the registered evidence?")
    rationale: Annotated[str, Field(max_length=MAX_CONTENT_CHARS)]
    dissent_preserved: bool = Field(
        description="Is there dissent backed by registered evidence that must be kept?"
    )
    dissent_rationale: Text = ""
