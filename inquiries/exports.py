"""An inquiry as JSON: what its page shows, for a program or an archive.

Format ``argue-inquiry``, version 1 (schemas/argue-inquiry.v1.schema.json): the
question, case file and language; the agents' models and the specialist observers
chosen; the run (status, stop, round limit and rounds done, budget and cost, the
demo flag, each closed round's log); the result built by code (``output``: thesis,
dissent, claims, calculations, utility, violations, actions); the claim registry;
every agent output with its Muḥāsabah record and the gates' verdict; and the
hash-chained audit records. Money is a decimal string.
"""

from __future__ import annotations

from typing import Any

from engine.models import Debate
from engine.wording import money_text, time_text

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "inquiry_json"]

EXPORT_FORMAT = "argue-inquiry"
EXPORT_VERSION = 1


def _outputs(inquiry_id: int) -> list[dict[str, Any]]:
    """Every agent output, accepted or not, with the rules the gates found it broke."""
    from inquiries.models import AgentOutput, GateViolation

    broken: dict[int, list[dict[str, str]]] = {}
    for output_id, rule, detail in (
        GateViolation.objects.filter(inquiry_id=inquiry_id)
        .order_by("id")
        .values_list("output_id", "rule", "detail")
    ):
        broken.setdefault(output_id, []).append({"rule": rule, "detail": detail})
    fields = ("round", "node", "agent", "attempt", "content", "position", "confidence")
    return [
        {**{f: row[f] for f in fields}, "record": row["record"], "accepted": row["accepted"],
         "dropped": row["dropped"], "violations": broken.get(row["id"], [])}
        for row in AgentOutput.objects.filter(inquiry_id=inquiry_id)
        .order_by("id")
        .values("id", *fields, "record", "accepted", "dropped")
    ]  # fmt: skip


def inquiry_json(*, debate: Debate) -> dict[str, Any]:
    from inquiries.models import AuditRecord, RegisteredClaim

    inquiry = debate.inquiry
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "id": debate.pk,
        "question": debate.topic,
        "language": inquiry.language,
        "isDemo": debate.is_demo,
        "status": debate.status,
        "stopReason": debate.stop_reason,
        "stopDetail": debate.stop_detail,
        "stopCode": debate.stop_code,
        "stopParams": debate.stop_params,
        "maxRounds": debate.max_rounds,
        "roundsCompleted": debate.rounds_completed,
        "budgetUsd": money_text(debate.budget_usd),
        "costUsd": money_text(debate.cost_usd),
        "createdAt": time_text(debate.created_at),
        "startedAt": time_text(debate.started_at),
        "finishedAt": time_text(debate.finished_at),
        "caseFile": {"id": inquiry.case_file_id, "title": inquiry.case_file.title},
        "models": {
            "advocate": inquiry.advocate_model,
            "challenger": inquiry.challenger_model,
            "observer": inquiry.observer_model,
            "arbiter": inquiry.arbiter_model,
        },
        "specialists": list(inquiry.specialists),
        "rounds": list(inquiry.round_log),
        "output": debate.output,
        "claims": list(
            RegisteredClaim.objects.filter(inquiry_id=debate.pk)
            .order_by("id")
            .values("key", "text", "grade", "registered_by", "round", "chains", "defects")
        ),
        "outputs": _outputs(debate.pk),
        "audit": list(
            AuditRecord.objects.filter(inquiry_id=debate.pk)
            .order_by("seq")
            .values("seq", "node", "round", "input_hash", "output_hash", "prev_hash", "record_hash")
        ),
    }
