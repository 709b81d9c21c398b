"""The inquiry's audit chain: one record per node execution, each chained to the last.

A record holds the node, its round, the hash of the state it read
(``input_hash``) and of the state it left (``output_hash``), and a payload:
the messages appended (the agents' contents), the agent outputs with their
self-accounting records, the claims, calculations and defects registered,
the evidence retrieved, and the decision taken (the arbiter's, or the stop
check's with its rationale). ``record_hash`` is the sha256 of all of that
plus ``prev_hash``, the previous record's hash (64 zeros for the first).

``verify_chain`` recomputes every hash in order and reports the first record
that does not match: one whose content was edited (its hash no longer
matches), one whose link was rewritten (``prev_hash``), or a gap in the
states (an input hash that is not the previous output hash); then it matches
the records one to one against the engine's ``StageRun`` rows (same name,
round and hashes, in order), so a record deleted from the end, or one added,
is caught as well. The management
command ``verify_inquiry_audit`` runs it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.db.models import Prefetch

from engine.models import StageRun
from inquiries.graph import RESEND
from inquiries.models import AgentOutput, AuditRecord, GateViolation

__all__ = ["GENESIS", "AuditProblem", "record_hash", "verify_chain", "write_record"]

GENESIS = "0" * 64


def record_hash(
    *,
    seq: int,
    node: str,
    round: int,
    input_hash: str,
    output_hash: str,
    payload: dict,
    prev_hash: str,
) -> str:
    canonical = json.dumps(
        {
            "seq": seq,
            "node": node,
            "round": round,
            "input_hash": input_hash,
            "output_hash": output_hash,
            "payload": payload,
            "prev_hash": prev_hash,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _written_outputs(inquiry_id: int, stage_run) -> list[tuple[AgentOutput, list]]:
    """The node's outputs and their violations, read back (a stage that did not hand them over)."""
    node = stage_run.name.removesuffix(RESEND)
    attempt = 2 if stage_run.name.endswith(RESEND) else 1
    outputs = (
        AgentOutput.objects.filter(
            inquiry_id=inquiry_id, round=stage_run.round, node=node, attempt=attempt
        )
        .order_by("id")
        .prefetch_related(Prefetch("violations", GateViolation.objects.order_by("id")))
    )
    return [(o, [(v.rule, v.detail) for v in o.violations.all()]) for o in outputs]


def _payload(inquiry_id: int, stage_run, before, after, written=None) -> dict:
    """The record's payload; ``written``: the (output, violations) the stage just wrote,
    in order (``StageOutcome.written``), else they are read back."""
    if written is None:
        written = _written_outputs(inquiry_id, stage_run)
    outputs = [o for o, _ in written]
    new_claims = after.claims[len(before.claims) :]
    new_calcs = after.calcs[len(before.calcs) :]
    payload = {
        "messages": [{"agent": o.agent, "content": o.content} for o in outputs],
        "outputs": [
            {
                "agent": o.agent,
                "output_id": o.output_id,
                "accepted": o.accepted,
                "dropped": o.dropped,
                "record": o.record,
                # As stored: GateViolation.detail keeps its first 2,000 characters.
                "violations": [[rule, detail[:2000]] for rule, detail in violations],
            }
            for o, violations in written
        ],
        "claims": [
            {
                "id": c.key,
                "text": c.text,
                "grade": c.grade,
                "chains": [list(ch[:2]) + [list(ch[2])] for ch in c.chains],
            }
            for c in new_claims
        ],
        "defects": [c.key for c in new_claims if c.fatal],
        "calcs": [{"id": k.key, "op": k.op, "result": k.result} for k in new_calcs],
        "evidence": [e.key for e in after.evidence[len(before.evidence) :]],
    }
    if stage_run.name == "stop_condition_check" and after.round_log:
        round_, reason, detail = after.round_log[-1]
        payload["decision"] = {"stop": reason, "rationale": detail}
    return payload


def write_record(*, debate, stage_run, before, outcome, results) -> AuditRecord:
    """The format's after_stage hook: append this node's record to the chain."""
    inquiry_id = debate.pk  # an inquiry shares its debate's key: no read of its row
    last = _last_link(inquiry_id)
    seq = (last[0] + 1) if last else 1
    prev = last[1] if last else GENESIS
    payload = _payload(inquiry_id, stage_run, before, outcome.after, outcome.written)
    if stage_run.name == "arbiter_close":
        if outcome.written is not None:
            arbiter = next((o for o, _ in outcome.written if o.agent == "arbiter"), None)
        else:
            arbiter = AgentOutput.objects.filter(
                inquiry_id=inquiry_id, round=stage_run.round, agent="arbiter"
            ).first()
        payload["decision"] = {
            "arbiter": arbiter.record if arbiter else None,
            "rationale": arbiter.content if arbiter else "",
        }
    fields = {
        "seq": seq,
        "node": stage_run.name,
        "round": stage_run.round,
        "input_hash": stage_run.input_hash,
        "output_hash": stage_run.output_hash,
        "payload": json.loads(json.dumps(payload, default=str)),
        "prev_hash": prev,
    }
    return AuditRecord.objects.create(
        inquiry_id=inquiry_id, record_hash=record_hash(**fields), **fields
    )


def _last_link(inquiry_id: int) -> tuple[int, str] | None:
    """The chain's last (seq, record_hash), or None before its first record."""
    return (
        AuditRecord.objects.filter(inquiry_id=inquiry_id)
        .order_by("-seq")
        .values_list("seq", "record_hash")
        .first()
    )


@dataclass(frozen=True)
class AuditProblem:
    seq: int
    node: str
    what: str


def verify_chain(inquiry_id: int) -> list[AuditProblem]:
    """Every break in the inquiry's audit chain, in order (empty: the chain holds)."""
    problems: list[AuditProblem] = []
    prev_hash, prev_output = GENESIS, None
    for record in AuditRecord.objects.filter(inquiry_id=inquiry_id).order_by("seq"):
        expected = record_hash(
            seq=record.seq,
            node=record.node,
            round=record.round,
            input_hash=record.input_hash,
            output_hash=record.output_hash,
            payload=record.payload,
            prev_hash=record.prev_hash,
        )
        if expected != record.record_hash:
            problems.append(
                AuditProblem(record.seq, record.node, "its content does not match its hash")
            )
        if record.prev_hash != prev_hash:
            problems.append(
                AuditProblem(record.seq, record.node, "it does not link to the record before")
            )
        if prev_output is not None and record.input_hash != prev_output:
            problems.append(
                AuditProblem(record.seq, record.node, "its input is not the previous node's output")
            )
        prev_hash, prev_output = record.record_hash, record.output_hash
    return sorted(problems + _unmatched_runs(inquiry_id), key=lambda p: p.seq)


def _unmatched_runs(inquiry_id: int) -> list[AuditProblem]:
    """The engine's own rows anchor the chain: every node run (`StageRun`, written in
    the same transaction as its record) has exactly one record with its name, round
    and hashes, in order, so a record removed from the end is caught too."""
    runs = StageRun.objects.filter(debate_id=inquiry_id).order_by("id")
    records = AuditRecord.objects.filter(inquiry_id=inquiry_id).order_by("seq")
    expected = [(r.name, r.round, r.input_hash, r.output_hash) for r in runs]
    found = [(r.node, r.round, r.input_hash, r.output_hash) for r in records]
    for position, (run, record) in enumerate(zip(expected, found, strict=False), start=1):
        if run != record:
            return [AuditProblem(position, run[0], "it does not match the node that ran")]
    if len(expected) > len(found):
        seq = len(found) + 1
        return [
            AuditProblem(seq, expected[len(found)][0], "the node ran but its record is missing")
        ]
    if len(found) > len(expected):
        seq = len(expected) + 1
        return [AuditProblem(seq, found[len(expected)][0], "no node run matches it")]
    return []
