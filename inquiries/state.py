"""An inquiry's saved rows read once into immutable values (the engine's state).

Prompts are pure functions of this state (so a resumed run rebuilds the same
requests and the ledger replays the calls already paid for), the route reads
it, and ``state_hash`` is what StageRun and the audit chain record.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Prefetch

from casefiles.models import Source, Span, parse_span_key
from engine.models import Debate
from inquiries.graph import node as graph_node
from inquiries.models import AgentOutput, GateViolation, Inquiry, RegisteredClaim, RetrievedEvidence

__all__ = [
    "ClaimView",
    "InquiryState",
    "OutputView",
    "SourceView",
    "load_state",
    "state_hash",
]


@dataclass(frozen=True, slots=True)
class SourceView:
    key: str
    title: str
    author: str
    published: str
    origin: str | None


@dataclass(frozen=True, slots=True)
class ClaimView:
    key: str
    text: str
    grade: str
    registered_by: str
    round: int
    chains: tuple[tuple[str, str, tuple[str, ...]], ...]
    fatal: bool


@dataclass(frozen=True, slots=True)
class CalcView:
    key: str
    op: str
    result: str
    inputs: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class OutputView:
    round: int
    node: str
    agent: str
    attempt: int
    content: str
    position: str
    confidence: float | None
    accepted: bool
    dropped: bool
    evidence_requests: tuple[str, ...]
    claim_refs: tuple[str, ...]
    violations: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SpanView:
    key: str
    source: str
    text: str


@dataclass(frozen=True, slots=True)
class InquiryState:
    question: str
    language: str
    models: tuple[tuple[str, str], ...]  # (agent, model)
    max_rounds: int
    sources: tuple[SourceView, ...]
    claims: tuple[ClaimView, ...]
    calcs: tuple[CalcView, ...]
    outputs: tuple[OutputView, ...]
    evidence: tuple[SpanView, ...]  # every span retrieved so far, in order
    retrieved_rounds: tuple[int, ...]  # rounds whose evidence_call_retrieval saved rows
    round_log: tuple[tuple[int, str, str], ...]  # (round, stop reason or "", detail)
    # Optional observers chosen (Inquiry.specialists). Hashed only when non-empty, so an
    # inquiry without them keeps the state hashes (and audit chain) it had before.
    specialists: tuple[str, ...] = ()

    def agents_of(self, node: str) -> tuple[str, ...]:
        return graph_node(node).agents_for(self.specialists)

    def model_for(self, agent: str) -> str:
        return dict(self.models)[agent]

    def registered_ids(self) -> set[str]:
        return {c.key for c in self.claims} | {k.key for k in self.calcs}

    def accepted(self, *, round: int | None = None, node: str | None = None) -> list[OutputView]:
        return [
            o
            for o in self.outputs
            if o.accepted
            and (round is None or o.round == round)
            and (node is None or o.node.removesuffix(":resend") == node)
        ]

    def pending_resend(self, node: str, round: int) -> list[OutputView]:
        """Outputs of the node's first attempt in the round that the gates rejected."""
        return [
            o
            for o in self.outputs
            if o.node == node and o.round == round and o.attempt == 1 and not o.accepted
        ]

    def latest_thesis(self) -> OutputView | None:
        theses = [o for o in self.accepted() if o.agent == "advocate"]
        return theses[-1] if theses else None

    def stopped(self, round: int) -> bool | None:
        for logged_round, reason, _detail in self.round_log:
            if logged_round == round:
                return bool(reason)
        return None


def load_state(debate: Debate, *, before: InquiryState | None = None) -> InquiryState:
    """The inquiry's rows as a state; ``before``, the state a stage of this run started from.

    With ``before`` (a stage's commit, under the run's lease) the case file's
    sources and the evidence spans already in it are taken from it, not read
    again: a case file cannot change while an inquiry on it runs
    (casefiles' freeze), so only the inquiry's own rows are read back.
    """
    inquiry = Inquiry.objects.get(pk=debate.pk)
    if before is not None:
        sources = before.sources
    else:
        sources = tuple(
            SourceView(
                key=s.key,
                title=s.title,
                author=s.author,
                published=s.published,
                origin=f"SRC-{s.upstream_origin_id}" if s.upstream_origin_id else None,
            )
            for s in Source.objects.filter(case_file_id=inquiry.case_file_id).order_by("id")
        )
    claims = tuple(
        ClaimView(
            key=c.key,
            text=c.text,
            grade=c.grade,
            registered_by=c.registered_by,
            round=c.round,
            chains=tuple(
                (ch.get("span", ""), ch.get("source", ""), tuple(ch.get("origins", ())))
                for ch in c.chains
            ),
            fatal=any(d.get("fatal") for d in c.defects),
        )
        for c in RegisteredClaim.objects.filter(inquiry=inquiry).order_by("id")
    )
    calcs = tuple(
        CalcView(
            key=k.key,
            op=k.op,
            result=k.result,
            inputs=tuple((i["span"], i["value"]) for i in k.inputs),
        )
        for k in inquiry.calcs.order_by("id")
    )
    outputs = tuple(
        OutputView(
            round=o.round,
            node=o.node,
            agent=o.agent,
            attempt=o.attempt,
            content=o.content,
            position=o.position,
            confidence=o.confidence,
            accepted=o.accepted,
            dropped=o.dropped,
            evidence_requests=tuple(o.evidence_requests),
            claim_refs=tuple(o.claim_refs),
            violations=tuple((v.rule, v.detail) for v in o.violations.all()),
        )
        for o in AgentOutput.objects.filter(inquiry=inquiry)
        .order_by("id")
        .prefetch_related(Prefetch("violations", GateViolation.objects.order_by("id")))
    )
    retrieved = list(RetrievedEvidence.objects.filter(inquiry=inquiry).order_by("id"))
    keys: list[str] = []
    for row in retrieved:
        keys += [k for k in row.new_span_keys if k not in keys]
    spans = {s.key: s for s in before.evidence} if before is not None else {}
    if missing := [k for k in keys if k not in spans]:
        spans.update(_spans_by_key(inquiry.case_file_id, missing))
    evidence = tuple(spans[k] for k in keys if k in spans)
    specialists = tuple(inquiry.specialists)
    return InquiryState(
        question=debate.topic,
        language=inquiry.language,
        models=(
            ("advocate", inquiry.advocate_model),
            ("sanad_breaker", inquiry.challenger_model),
            ("contradiction_finder", inquiry.observer_model),
            ("risk_officer", inquiry.observer_model),
            ("arbiter", inquiry.arbiter_model),
            # Specialists are observers: they answer with the observers' model.
            *((agent, inquiry.observer_model) for agent in specialists),
        ),
        max_rounds=debate.max_rounds,
        sources=sources,
        claims=claims,
        calcs=calcs,
        outputs=outputs,
        evidence=evidence,
        retrieved_rounds=tuple(sorted({r.round for r in retrieved})),
        round_log=tuple(
            (int(e["round"]), e.get("stop") or "", e.get("detail") or "") for e in inquiry.round_log
        ),
        specialists=specialists,
    )


def _spans_by_key(case_file_id: int, keys: list[str]) -> dict[str, SpanView]:
    wanted = {pair: key for key in keys if (pair := parse_span_key(key))}
    rows = Span.objects.filter(
        case_file_id=case_file_id, source_id__in={s for s, _ in wanted}
    ).only("source_id", "ordinal", "text")
    return {
        wanted[(r.source_id, r.ordinal)]: SpanView(
            key=wanted[(r.source_id, r.ordinal)], source=f"SRC-{r.source_id}", text=r.text
        )
        for r in rows
        if (r.source_id, r.ordinal) in wanted
    }


def _plain(value: object) -> dict:
    """A view as a dict of its fields (json.dumps calls this for each nested dataclass)."""
    return {name: getattr(value, name) for name in value.__slots__}


# Each state is hashed twice (the StageRun's output hash, then the next
# stage's input hash) and its audit record reads both: remember the last few.
@lru_cache(maxsize=16)
def state_hash(state: InquiryState) -> str:
    """sha256 of the state's canonical JSON, as ``dataclasses.asdict`` would give it.

    The views are turned into dicts by ``json.dumps`` as it meets them rather
    than by ``asdict``, whose deep copy of every string cost more than the
    hashing; the JSON (hence every stored hash) is the same.
    """
    fields = _plain(state)
    if not fields["specialists"]:
        del fields["specialists"]
    canonical = json.dumps(
        fields, default=_plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
