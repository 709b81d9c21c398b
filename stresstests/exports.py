"""A stress test as JSON: what its page shows, for a program or an archive.

Format ``argue-stress-test``, version 1 (schemas/argue-stress-test.v1.schema.json):
the run (status, stop, round limit, budget and cost, demo and offline flags), the
argument's seven elements as they were tested, where the claim stands (computed
by stresstests.outcome, as on the page), each objection with its label and the
student's answers to it, the personas' replies, and who raised none. Money is a
decimal string. The per-call ledger stays out: the debate's own export is
instructors' detail.
"""

from __future__ import annotations

from typing import Any

from argumentation.toulmin_graph import attack_node, student_node
from debates.state import AttackView
from engine.wording import money_text, time_text
from stresstests.models import Defence, StressTest
from stresstests.outcome import compute, reply_node
from stresstests.stages import NO_OBJECTION_EVENT
from stresstests.state import load_state

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "stress_test_json"]

EXPORT_FORMAT = "argue-stress-test"
EXPORT_VERSION = 1


def _attack(attack: AttackView, label: str) -> dict[str, Any]:
    return {
        "key": attack.from_key,
        "by": attack.speaker,
        "type": attack.type,
        "counterProposition": attack.counter_proposition,
        "rationale": attack.rationale,
        "evidence": list(attack.evidence),
        "confidence": attack.confidence,
        "label": label,
    }


def stress_test_json(*, stress: StressTest) -> dict[str, Any]:
    debate = stress.debate
    state = load_state(debate)
    outcome = compute(state)
    labels = outcome.labels
    deciding = set(outcome.status.deciding)
    answered = outcome.graph.answered_by_rebuttal
    defences = Defence.objects.filter(stress_test=stress).select_related("attack__from_argument")
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "stressTest": {
            "id": stress.pk,
            "debate": debate.pk,
            "argument": stress.argument_id,
            "title": stress.argument.title,
            "isDemo": debate.is_demo,
            "offline": stress.offline,
            "status": debate.status,
            "stopReason": debate.stop_reason,
            "stopDetail": debate.stop_in_english,
            "stopCode": debate.stop_code,
            "stopParams": debate.stop_params,
            "roundLimit": stress.round_limit,
            "budgetUsd": money_text(debate.budget_usd),
            "costUsd": money_text(debate.cost_usd),
            "createdAt": time_text(stress.created_at),
            "finishedAt": time_text(debate.finished_at),
        },
        "elements": dict(state.elements),
        "claim": {
            "status": outcome.status.status.value,
            "label": labels.get(student_node("claim"), ""),
            "deciding": sorted(deciding),
        },
        "objections": [
            {
                **_attack(attack, labels.get(attack_node(attack.from_key), "")),
                "element": element,
                "deciding": attack.from_key in deciding,
                "answeredByRebuttal": attack.from_key in answered,
            }
            for attack, element in outcome.objections
        ],
        "defences": [
            {
                "seq": d.seq,
                "answers": d.attack.from_argument.key if d.attack.from_argument else None,
                "text": d.text,
                "status": d.status,
                "reason": d.reason,
                "explanation": d.explanation,
                "createdAt": time_text(d.created_at),
            }
            for d in defences
        ],
        "replies": [
            {**_attack(attack, labels.get(reply_node(attack.from_key), "")), "answers": seq}
            for attack, seq in outcome.replies
        ],
        "noObjection": list(
            debate.events.filter(type=NO_OBJECTION_EVENT)
            .order_by("seq")
            .values_list("payload__persona", flat=True)
        ),
    }
