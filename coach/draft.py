"""The draft as the API and the page's JavaScript see it.

One shape for `GET /api/arguments/<id>`, the answers of the proposal and
draft endpoints, and any page that wants to embed the initial state.
"""

from __future__ import annotations

from typing import Any, Literal

from coach.models import Argument
from coach.policy import Policy, policy_for
from coach.steps import STEPS, step_index
from llm import api_key_configured

__all__ = ["coach_kind", "draft_json", "offered_proposal", "step_status"]


def coach_kind() -> Literal["ai", "offline"]:
    """Which coach answers now: the AI one when an API key is set, else the offline one."""
    return "ai" if api_key_configured() else "offline"


def step_status(*, argument: Argument, step_id: str) -> Literal["done", "current", "todo"]:
    """done before the current step (or everything once complete), current, todo after."""
    if argument.completed_at is not None:
        return "done"
    here, there = step_index(argument.current_step), step_index(step_id)
    if there < here:
        return "done"
    return "current" if there == here else "todo"


def offered_proposal(*, argument: Argument, policy: Policy) -> dict[str, Any] | None:
    """The pending proposal, if the student may still accept it as it is; else None.

    A proposal can outlive the rule it was made under: an instructor may switch
    the assignment to hints only (or the coach off), or add a criterion the
    text misses, while it waits. Then it is neither shown nor accepted
    (`coach.services.accept_proposal` asks this too), and the coach is not
    told about it.
    """
    proposal = argument.pending_proposal
    if not proposal or not policy.proposals or not policy.coach:
        return None
    if policy.unmet(argument.current_step, str(proposal.get("value") or "")):
        return None
    return proposal


def draft_json(*, argument: Argument, policy: Policy | None = None) -> dict[str, Any]:
    """The whole draft: metadata, each step with value/status/provenance, the proposal the
    student may accept (`offered_proposal`; `policy` defaults to the argument's own)."""
    policy = policy if policy is not None else policy_for(argument)
    return {
        "id": argument.pk,
        "title": argument.title,
        "language": argument.language,
        "current_step": argument.current_step,
        "steps": [
            {
                "id": step.id,
                "label": step.label(argument.language),
                "field": step.field,
                "value": getattr(argument, step.field),
                "status": step_status(argument=argument, step_id=step.id),
                "provenance": argument.provenance.get(step.field),
            }
            for step in STEPS
        ],
        "pending_proposal": offered_proposal(argument=argument, policy=policy),
        "completed_at": argument.completed_at.isoformat() if argument.completed_at else None,
        "coach": coach_kind(),
    }
