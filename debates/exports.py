"""A debate as data: the whole record as JSON, and its framework in ICCMA'23 format.

The JSON export is self-contained (personas, arguments, attacks with their
validations, the framework, the output, the event log and the cost ledger), so
it can be read without this application; ``debates.demo`` loads the same shape
back, which is how the demo debate ships.

The ICCMA'23 export is the framework the semantics were computed on
(debates/graph.py: counted arguments, valid attacks, rebuttals both ways),
written by argumentation's own writer with one ``# A3`` name comment per
argument, so ``parse_iccma23(text, names=True)`` gives back the same graph.
"""

from __future__ import annotations

from typing import Any

from argumentation.formats import write_iccma23
from debates.graph import build_framework
from debates.payloads import argument_payload, validation_payload
from debates.state import load_state
from engine.models import Debate
from engine.wording import money_text, time_text

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "debate_iccma23",
    "debate_json",
]

EXPORT_FORMAT = "argue-debate"
EXPORT_VERSION = 1


def debate_iccma23(*, debate: Debate) -> str:
    """The debate's framework in the ICCMA'23 ``p af N`` format with name comments."""
    return write_iccma23(build_framework(load_state(debate)))


def debate_json(*, debate: Debate, ledger: bool = True) -> dict[str, Any]:
    """Everything about one debate as JSON-ready data (money as decimal strings).

    ``ledger=False`` leaves out the per-call ledger (tokens, request hashes,
    error codes): instructor detail. The debate's total cost stays in.
    """
    framework = build_framework(load_state(debate))
    arguments = debate.arguments.select_related("speaker").order_by("id")
    attacks = debate.attacks.select_related(
        "speaker", "from_argument", "to_argument", "validation"
    ).order_by("id")
    data = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "debate": {
            "id": debate.pk,
            "topic": debate.topic,
            "is_demo": debate.is_demo,
            "status": debate.status,
            "stop_reason": debate.stop_reason,
            "stop_detail": debate.stop_in_english,
            # The stop as a code with its parameters (engine/stop_messages.py words it).
            "stop_code": debate.stop_code,
            "stop_params": debate.stop_params,
            "max_rounds": debate.max_rounds,
            "rounds_completed": debate.rounds_completed,
            "budget_usd": money_text(debate.budget_usd),
            "cost_usd": money_text(debate.cost_usd),
            "claims": list(debate.claims),
            "error": debate.error,
            "created_at": time_text(debate.created_at),
            "started_at": time_text(debate.started_at),
            "finished_at": time_text(debate.finished_at),
        },
        "personas": [
            {"id": p.pk, "name": p.name, "worldview": p.worldview, "model": p.effective_model}
            for p in debate.personas.order_by("id")
        ],
        "arguments": [argument_payload(argument) for argument in arguments],
        "attacks": [
            validation_payload(attack, getattr(attack, "validation", None)) for attack in attacks
        ],
        "framework": {
            "arguments": [str(a) for a in framework.arguments],
            "attacks": sorted([str(a), str(b)] for a, b in framework.attacks),
        },
        "output": debate.output,
        "events": [
            {"seq": seq, "type": type_, "payload": payload, "created_at": time_text(created)}
            for seq, type_, payload, created in debate.events.order_by("seq").values_list(
                "seq", "type", "payload", "created_at"
            )
        ],
    }
    if ledger:
        data["calls"] = [
            {
                "stage": call.stage,
                "persona": call.persona.name if call.persona_id else None,
                "round": call.round,
                "model": call.model,
                "request_hash": call.request_hash,
                "input_tokens": call.input_tokens,
                "output_tokens": call.output_tokens,
                "cache_creation_input_tokens": call.cache_creation_input_tokens,
                "cache_read_input_tokens": call.cache_read_input_tokens,
                "cost_usd": money_text(call.cost_usd),
                "latency_ms": call.latency_ms,
                "status": call.status,
                "error_code": call.error_code,
            }
            for call in debate.llm_calls.select_related("persona").order_by("id")
        ]
    return data
