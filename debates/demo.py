"""The demo debate: a recorded debate, shipped as a fixture, loaded once.

A newcomer without an API key cannot run a debate, but can open the history,
the result and the replay of this one. It is marked ``is_demo`` (every page
shows a "demo" badge and says where it comes from) and is visible to every
signed-in user.

The fixture (debates/fixtures/demo_debate.json) is the debate's own JSON
export (debates/exports.py), recorded by tests/debates/make_demo_fixture.py:
scripted words, real pipeline. :func:`import_debate` turns an export back into
rows; ids are new, argument keys ("A3") and event ``seq`` are kept.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import transaction

from debates.exports import EXPORT_FORMAT
from debates.models import Attack, AttackValidation, DebateArgument
from engine.models import Debate, DebateEvent, LLMCall, Persona
from engine.stop_messages import legacy_code

__all__ = ["DEMO_FIXTURE", "import_debate", "load_demo_debate"]

DEMO_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "demo_debate.json"


def load_demo_debate(*, data: dict[str, Any]) -> tuple[Debate, bool]:
    """The demo debate, imported from ``data`` unless it is there already (idempotent)."""
    existing = Debate.objects.filter(is_demo=True, topic=data["debate"]["topic"]).first()
    if existing is not None:
        return existing, False
    return import_debate(data=data, is_demo=True), True


@transaction.atomic
def import_debate(*, data: dict[str, Any], is_demo: bool) -> Debate:
    """Rows for one exported debate. Personas are matched by name, created inactive if missing."""
    if data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not a debate export (format {data.get('format')!r})")
    personas = {entry["name"]: _persona(entry) for entry in data["personas"]}
    fields = data["debate"]
    # An export from before stops had codes carries only the English sentence.
    stop_code, stop_params = legacy_code(fields["stop_detail"]) or ("", {})
    debate = Debate.objects.create(
        topic=fields["topic"],
        is_demo=is_demo,
        status=fields["status"],
        stop_reason=fields["stop_reason"],
        stop_detail=fields["stop_detail"],
        stop_code=fields.get("stop_code", stop_code),
        stop_params=fields.get("stop_params", stop_params),
        max_rounds=fields["max_rounds"],
        rounds_completed=fields["rounds_completed"],
        budget_usd=Decimal(fields["budget_usd"]),
        cost_usd=Decimal(fields["cost_usd"]),
        claims=fields["claims"],
        error=fields["error"],
        output=data["output"],
        started_at=_when(fields["started_at"]),
        finished_at=_when(fields["finished_at"]),
    )
    debate.personas.set(personas.values())
    arguments = {
        entry["id"]: DebateArgument.objects.create(
            debate=debate,
            key=entry["id"],
            speaker=personas[entry["speaker"]],
            round=entry["round"],
            claim=entry["claim"],
            premises=entry["premises"],
            assumptions=entry["assumptions"],
            evidence=entry["evidence"],
            origin=entry["origin"],
        )
        for entry in data["arguments"]
    }
    attacks = {
        entry["id"]: _attack(debate=debate, entry=entry, personas=personas, arguments=arguments)
        for entry in data["attacks"]
    }
    for entry in data["arguments"]:
        if entry["origin_attack"] is not None:
            argument = arguments[entry["id"]]
            argument.origin_attack = attacks[entry["origin_attack"]]
            argument.save(update_fields=["origin_attack"])
    DebateEvent.objects.bulk_create(
        DebateEvent(debate=debate, seq=e["seq"], type=e["type"], payload=_coded(e["payload"]))
        for e in data["events"]
    )
    LLMCall.objects.bulk_create(
        _call(debate=debate, entry=entry, personas=personas) for entry in data["calls"]
    )
    Debate.objects.filter(pk=debate.pk).update(
        event_seq=max((e["seq"] for e in data["events"]), default=0),
        created_at=_when(fields["created_at"]) or debate.created_at,
    )
    debate.refresh_from_db()
    return debate


def _coded(payload: Any) -> Any:
    """An event of an export from before stops had codes: its English ``detail`` read
    back into its code and parameters, which the live page words in the reader's language."""
    if not isinstance(payload, dict) or payload.get("code") or not payload.get("detail"):
        return payload
    code, params = legacy_code(payload["detail"]) or ("", {})
    return {**payload, "code": code, "params": params} if code else payload


def _persona(entry: dict[str, Any]) -> Persona:
    # A persona the site no longer has is recreated inactive: it speaks in the
    # demo but is not offered for new debates.
    persona, _ = Persona.objects.get_or_create(
        name=entry["name"], defaults={"worldview": entry["worldview"], "active": False}
    )
    return persona


def _attack(
    *,
    debate: Debate,
    entry: dict[str, Any],
    personas: dict[str, Persona],
    arguments: dict[str, DebateArgument],
) -> Attack:
    attack = Attack.objects.create(
        debate=debate,
        round=entry["round"],
        speaker=personas[entry["speaker"]],
        from_argument=arguments.get(entry["from"]) if entry["from"] else None,
        to_argument=arguments.get(entry["to"]) if entry["to"] else None,
        target_key=entry["target"],
        type=entry["type"],
        target_component=entry["component"],
        target_index=entry["index"],
        counter_proposition=entry["counter_proposition"],
        rationale=entry["rationale"],
        evidence=entry["evidence"],
        confidence=entry["confidence"],
        status=entry["status"],
        drop_reason=entry["drop_reason"],
    )
    if entry["strength"] is not None:
        AttackValidation.objects.create(
            attack=attack,
            valid=entry["valid"],
            strength=entry["strength"],
            corrections=entry["corrections"],
            checks=entry["checks"],
        )
    return attack


def _call(*, debate: Debate, entry: dict[str, Any], personas: dict[str, Persona]) -> LLMCall:
    return LLMCall(
        debate=debate,
        stage=entry["stage"],
        persona=personas.get(entry["persona"]) if entry["persona"] else None,
        round=entry["round"],
        model=entry["model"],
        request_hash=entry["request_hash"],
        input_tokens=entry["input_tokens"],
        output_tokens=entry["output_tokens"],
        cache_creation_input_tokens=entry["cache_creation_input_tokens"],
        cache_read_input_tokens=entry["cache_read_input_tokens"],
        cost_usd=Decimal(entry["cost_usd"]),
        latency_ms=entry["latency_ms"],
        status=entry["status"],
        error_code=entry["error_code"],
    )


def _when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
