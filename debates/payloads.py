"""JSON shapes of arguments and attacks, shared by event payloads and exports.

Ids are the argument keys ("A3") that personas, the framework and the pages
all use; attacks are identified by their database id.
"""

from __future__ import annotations

from typing import Any

from debates.models import Attack, AttackValidation, DebateArgument
from debates.state import AttackView, attack_view

__all__ = ["argument_payload", "attack_payload", "attack_view_payload", "validation_payload"]


def argument_payload(argument: DebateArgument) -> dict[str, Any]:
    return {
        "id": argument.key,
        "speaker": argument.speaker.name,
        "speaker_id": argument.speaker_id,
        "round": argument.round,
        "claim": argument.claim,
        "premises": list(argument.premises),
        "assumptions": list(argument.assumptions),
        "evidence": list(argument.evidence),
        "origin": argument.origin,
        "origin_attack": argument.origin_attack_id,
    }


def attack_payload(attack: Attack) -> dict[str, Any]:
    """An attack row's payload: the same as its view's (``attack_view_payload``)."""
    return attack_view_payload(
        attack_view(
            attack,
            speaker=attack.speaker.name,
            from_key=attack.from_argument.key if attack.from_argument_id else None,
            to_key=attack.to_argument.key if attack.to_argument_id else None,
        )
    )


def attack_view_payload(attack: AttackView) -> dict[str, Any]:
    """An attack as a debate's state holds it: a row's payload without reading it back."""
    return {
        "id": attack.id,
        "round": attack.round,
        "speaker": attack.speaker,
        "speaker_id": attack.speaker_id,
        "from": attack.from_key,
        "to": attack.to_key,
        "target": attack.target_key,
        "type": attack.type,
        "component": attack.component,
        "index": attack.index,
        "counter_proposition": attack.counter_proposition,
        "rationale": attack.rationale,
        "evidence": list(attack.evidence),
        "confidence": attack.confidence,
        "status": attack.status,
        "drop_reason": attack.drop_reason,
    }


def validation_payload(
    attack: Attack | AttackView, validation: AttackValidation | None
) -> dict[str, Any]:
    """An attack after validation: its payload plus valid, strength, corrections, checks."""
    shown = (
        attack_view_payload(attack) if isinstance(attack, AttackView) else attack_payload(attack)
    )
    return {
        **shown,
        "valid": attack.status == "valid",
        "strength": validation.strength if validation else None,
        "corrections": validation.corrections if validation else "",
        "checks": dict(validation.checks) if validation else {},
    }
