"""The inquiry as a format of the shared engine (engine/formats.py)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine.formats import Format
from inquiries.audit import write_record
from inquiries.finalize import final_output
from inquiries.graph import RouteFacts, route
from inquiries.stages import STAGES
from inquiries.state import InquiryState, load_state, state_hash
from inquiries.stopping import StopReason

__all__ = ["EVENT_TYPES", "INQUIRY", "STOP_REASONS"]

EVENT_TYPES = (
    "inquiry_output",
    "agent_dropped",
    "evidence_retrieved",
    "arbiter_decision",
    "stop_check",
    "muhasabah_validated",
)

# What an inquiry may conclude; its CRITICAL_DEFECT and MAX_ROUNDS are the engine's reasons.
STOP_REASONS = (
    (StopReason.CONSENSUS.value, _("consensus")),
    (StopReason.STABLE_DISSENT.value, _("stable dissent")),
    (StopReason.EVIDENCE_EXHAUSTED.value, _("evidence exhausted")),
)


def next_stage(debate, state: InquiryState, done: frozenset) -> tuple[str, int] | None:
    facts = RouteFacts(
        rejected=lambda node, round: bool(state.pending_resend(node, round)),
        evidence_requested=lambda round: any(
            o.evidence_requests for o in state.accepted(round=round)
        ),
        stopped=state.stopped,
    )
    return route(done, facts)


def start_payload(debate) -> dict:
    inquiry = debate.inquiry
    return {
        "topic": debate.topic,
        "case_file": {"id": inquiry.case_file_id, "title": inquiry.case_file.title},
        "max_rounds": debate.max_rounds,
        "budget_usd": str(debate.budget_usd),
    }


def page_url(debate) -> str:
    return reverse("inquiries:detail", args=[debate.pk])


INQUIRY = Format(
    event_types=EVENT_TYPES,
    stop_reasons=STOP_REASONS,
    name="inquiry",
    label=_("Inquiry"),
    stages=STAGES,
    next_stage=next_stage,
    load_state=load_state,
    state_hash=state_hash,
    final_output=final_output,
    start_payload=start_payload,
    after_stage=write_record,
    page_url=page_url,
    plural_label=_("Inquiries"),
    about=_("Agents argue a question from the readings of a case file, citing each passage."),
    new_label=_("New inquiry"),
    new_url=lambda: reverse("inquiries:new"),
)
