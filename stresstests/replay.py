"""A stress test's stored events as steps a student can read, in order (no writes).

The replay page (templates/stresstests/replay.html) renders each step with
Django's escaping; static/js/inquiry_replay.js only reveals them one by one.
Events that say nothing new to a student (the engine's graph updates, the
student's own argument entering the framework) are left out.
"""

from __future__ import annotations

from typing import Any

from debates.models import AttackStatus, AttackType, DropReason
from engine.stopping import STOPPED_REASONS, is_budget_stop
from stresstests.mapping import element_of
from stresstests.models import Defence, DefenceRefusal, StressTest
from stresstests.presenters import ELEMENT_NAMES, STATUS_WORDS, site_sentence, speaker_name
from stresstests.stages import (
    CONCESSIONS_EVENT,
    DEFENCE_EVENT,
    NO_OBJECTION_EVENT,
    REPLY_EVENT,
    STATUS_EVENT,
)

__all__ = ["replay_steps"]

_SKIPPED = {"arguments_submitted", "graph_update", "graph_convergence"}


def _attack(payload: dict, elements: dict[str, str], student_key: str | None) -> dict[str, Any]:
    element = None
    if payload.get("to") == student_key:  # else an answer back, aimed at the student's answer
        element = element_of(
            elements, component=payload.get("component", ""), index=payload.get("index", -1)
        )
    return {
        "key": payload.get("from") or "",
        "by": speaker_name(payload.get("speaker", "")),
        "element_name": ELEMENT_NAMES().get(element or "", ""),
        "type_name": dict(AttackType.choices).get(payload.get("type"), payload.get("type")),
        "text": site_sentence(payload.get("counter_proposition"))
        or payload.get("counter_proposition", ""),
        "status_name": dict(AttackStatus.choices).get(payload.get("status"), ""),
        "valid": payload.get("status") == AttackStatus.VALID,
        "drop_reason": dict(DropReason.choices).get(payload.get("drop_reason"), ""),
    }


def _status(payload: dict, previous: str | None) -> dict[str, Any]:
    words, term = STATUS_WORDS().get(payload.get("status"), ("", ""))
    return {
        "words": words,
        "term": term,
        "changed": previous is not None and previous != payload.get("status"),
        "deciding": list(payload.get("deciding") or []),
    }


def _defence(payload: dict, stored: dict[int, Defence]) -> dict[str, Any]:
    # Events recorded before the answer's words were in the payload: the row has them.
    row = stored.get(payload.get("round"))
    reason = payload.get("reason", "")
    return {
        "attack": payload.get("attack", ""),
        "text": payload.get("text") or (row.text if row else ""),
        "status": payload.get("status", ""),
        "reason": dict(DefenceRefusal.choices).get(reason, reason),
        "explanation": site_sentence(payload.get("explanation")) or payload.get("explanation", ""),
    }


def _reply(payload: dict, replies: dict[str, str]) -> dict[str, Any]:
    key = payload.get("argument")
    return {
        "by": speaker_name(payload.get("persona") or ""),
        "conceded": bool(payload.get("conceded")),
        "failed": bool(payload.get("failed")),
        "key": key,
        "text": payload.get("text") or replies.get(key or "", ""),
    }


def _end(payload: dict) -> dict[str, Any]:
    reason = payload.get("stop_reason", "")
    return {
        "budget": is_budget_stop(reason=reason, code=payload.get("code", "")),
        "stopped": reason in STOPPED_REASONS,
    }


def replay_steps(stress: StressTest) -> list[dict[str, Any]]:
    """One dict per event worth showing: ``seq``, ``kind`` and what that kind shows."""
    debate = stress.debate
    elements = {k: str(v) for k, v in (stress.elements or {}).items()}
    stored = {d.seq: d for d in stress.defences.all()}
    replies = dict(
        debate.arguments.filter(round__gt=1).values_list("key", "claim")
    )  # answers back, for events recorded before their words were in the payload
    student_key = debate.arguments.filter(round=0).values_list("key", flat=True).first()
    steps: list[dict[str, Any]] = []
    previous: str | None = None
    for seq, kind, payload in debate.events.order_by("seq").values_list("seq", "type", "payload"):
        payload = payload if isinstance(payload, dict) else {}
        step: dict[str, Any] = {"seq": seq, "kind": kind}
        if kind in _SKIPPED:
            continue
        if kind == "debate_start":
            step["personas"] = ", ".join(
                speaker_name(p.get("name", "")) for p in payload.get("personas") or []
            )
        elif kind in ("attacks_generated", "validation_complete"):
            step["round"] = payload.get("round")
            step["attacks"] = [
                _attack(a, elements, student_key) for a in payload.get("attacks") or []
            ]
            step["dropped"] = [
                _attack(a, elements, student_key) for a in payload.get("dropped") or []
            ]
        elif kind in ("persona_failed", NO_OBJECTION_EVENT):
            step["persona"] = speaker_name(payload.get("persona", ""))
        elif kind == CONCESSIONS_EVENT:
            step["conceded"] = list(payload.get("conceded") or [])
            step["failed"] = bool(payload.get("check_failed"))
        elif kind == STATUS_EVENT:
            step.update(_status(payload, previous))
            previous = payload.get("status")
            if payload.get("step") == "student":
                continue  # before any objection: nothing to say yet
        elif kind == DEFENCE_EVENT:
            step.update(_defence(payload, stored))
        elif kind == REPLY_EVENT:
            if not payload.get("persona"):
                continue  # no persona could answer back: nothing happened
            step.update(_reply(payload, replies))
        elif kind == "debate_complete":
            step.update(_end(payload))
        steps.append(step)
    # A run that finished and went on when the student answered: only its last
    # end is news (an early stop or a budget stop is always said).
    ends = [i for i, step in enumerate(steps) if step["kind"] == "debate_complete"]
    return [step for i, step in enumerate(steps) if not (i in ends[:-1] and not step["stopped"])]
