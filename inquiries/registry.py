"""The claim registry at work: register an agent's new claims and calculations, then gate it.

For one agent reply (inquiries/schemas.AgentReply), in order:

1. Each new claim (labelled ``N1``…) gets the next ``C-`` id and is graded by
   ``argumentation.sanad`` against THIS case file's spans and sources (a chain
   to a span elsewhere is BROKEN_CHAIN, an unknown source UNKNOWN_SOURCE...).
2. Each calculation (``M1``…) is computed by code (``sanad.compute_calc``) from
   numbers that must appear, as written, in the spans named; otherwise it is
   not registered and the reply is sent back (rule ``CALC_INPUT_NOT_IN_SPAN``).
3. The labels are rewritten to the ids in the content, the claim refs and the
   record, and the gates run: No-Free-Facts and Muḥāsabah (inquiries/gates.py)
   against the registry plus what this reply registers.

Nothing is written here: the stage stores the result in its transaction, and
only an accepted output's claims and calcs enter the registry (a rejected
reply is asked again, and declares them again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from argumentation.sanad import EvidenceChain, Resolver, compute_calc, grade_chains
from inquiries.gates import MuhasabahRecord, muhasabah_violations, no_free_facts
from inquiries.schemas import AgentReply
from inquiries.state import InquiryState

__all__ = ["Processed", "Registration", "process_reply", "resolver_for", "written_in"]

_LABEL = re.compile(r"\b([NM]\d{1,3})\b")


@dataclass
class Registration:
    key: str
    text: str
    chains: list[dict]
    grade: str
    defects: list[dict]


@dataclass
class CalcRegistration:
    key: str
    op: str
    inputs: list[dict]
    result: str


@dataclass
class Processed:
    content: str
    position: str
    claim_refs: list[str]
    evidence_requests: list[str]
    record: MuhasabahRecord | None
    claims: list[Registration] = field(default_factory=list)
    calcs: list[CalcRegistration] = field(default_factory=list)
    violations: list[tuple[str, str]] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.violations


def resolver_for(state: InquiryState, spans: dict[str, str]) -> Resolver:
    """What the case file knows: span key → source key; source key → its origin key."""
    return Resolver(spans=spans, sources={s.key: s.origin for s in state.sources})


def process_reply(
    reply: AgentReply,
    *,
    state: InquiryState,
    spans: dict[str, str],
    span_texts: dict[str, str],
    agent: str,
    output_id: str,
    next_claim: int,
    next_calc: int,
) -> Processed:
    """Register, rewrite and gate one reply (see the module docstring)."""
    resolver = resolver_for(state, spans)
    labels: dict[str, str] = {}
    claims: list[Registration] = []
    violations: list[tuple[str, str]] = []
    for draft in reply.new_claims:
        key = f"C-{next_claim + len(claims)}"
        chains = [
            EvidenceChain(span_id=c.span, source_id=c.source, origin_ids=tuple(c.origins))
            for c in draft.chains
        ]
        graded = grade_chains(chains, resolver)
        labels[draft.label] = key
        claims.append(
            Registration(
                key=key,
                text=draft.text,
                chains=[c.model_dump() for c in draft.chains],
                grade=graded.grade.value,
                defects=[
                    {
                        "code": d.code.value,
                        "chain": d.chain_index,
                        "fatal": d.fatal,
                        "detail": d.detail,
                    }
                    for d in graded.defects
                ],
            )
        )
    calcs: list[CalcRegistration] = []
    for draft in reply.calcs:
        missing = [i for i in draft.inputs if not written_in(i.value, span_texts.get(i.span, ""))]
        if missing:
            violations.append(
                (
                    "CALC_INPUT_NOT_IN_SPAN",
                    f"Calculation {draft.label}: {missing[0].value!r} is not written in span "
                    f"{missing[0].span}. Give each input exactly as a span of the case file "
                    "writes it.",
                )
            )
            continue
        try:
            result = compute_calc(draft.op, [_plain_number(i.value) for i in draft.inputs])
        except (ValueError, ArithmeticError) as error:
            violations.append(("CALC_INVALID", f"Calculation {draft.label}: {error}"))
            continue
        key = f"K-{next_calc + len(calcs)}"
        labels[draft.label] = key
        calcs.append(
            CalcRegistration(
                key=key,
                op=draft.op,
                inputs=[i.model_dump() for i in draft.inputs],
                result=str(result),
            )
        )

    def rewrite(text: str) -> str:
        return _LABEL.sub(lambda m: labels.get(m.group(1), m.group(1)), text)

    def rewrite_id(value: str) -> str:
        return labels.get(value.strip("[] "), value)

    content = re.sub(r"\[([^\]]{1,80})\]", lambda m: "[" + rewrite(m.group(1)) + "]", reply.content)
    claim_refs = [rewrite_id(r) for r in reply.claim_refs]
    record = None
    if reply.record is not None:
        record = MuhasabahRecord(
            agent_id=agent,
            output_id=output_id,
            supported_claim_ids=[rewrite_id(i) for i in reply.record.supported_claim_ids],
            falsifiability_tests=reply.record.falsifiability_tests,
            uncertainties=reply.record.uncertainties,
            confidence=reply.record.confidence,
            failure_modes=reply.record.failure_modes,
            timestamp=datetime(2000, 1, 1, tzinfo=UTC),  # replaced when stored (see stages)
        )
    registered = state.registered_ids() | {c.key for c in claims} | {k.key for k in calcs}
    for free in no_free_facts(content, registered_ids=registered):
        violations.append((free.code.value, free.message))
    for broken in muhasabah_violations(
        record, content=content, registered_ids=registered, claim_refs=claim_refs
    ):
        violations.append((broken.code.value, broken.message))
    return Processed(
        content=content,
        position=reply.position,
        claim_refs=claim_refs,
        evidence_requests=[q for q in reply.evidence_requests if q.strip()],
        record=record,
        claims=claims,
        calcs=calcs,
        violations=violations,
    )


def written_in(value: str, text: str) -> bool:
    """Whether `value` holds a number and stands in `text` as a whole number: "20" is
    not written in "2007" nor in "1.20", "1,200" is in "1,200 cars"."""
    value = value.strip()
    if not value or not re.search(r"\d", value):
        return False
    pattern = r"(?<![\d.,])" + re.escape(value) + r"(?![\d]|[.,]\d)"
    return re.search(pattern, text) is not None


def _plain_number(value: str) -> str:
    """A number as a span writes it ("1,200", "22%", "$1.2") reduced to digits for Decimal."""
    match = re.search(r"-?\d[\d,]*(?:\.\d+)?", value)
    if match is None:
        raise ValueError(f"{value!r} holds no number.")
    return match.group().replace(",", "")
