"""A debate's rows read once into plain, immutable values.

Prompts, the graph and the stop check work on these values rather than on
querysets: they are pure functions of the state, so the same state always
gives byte-identical prompts — which is what lets a resumed run find its
already-paid calls in the ledger by request hash — and the state can be
hashed for a stage's audit record (``StageRun.input_hash``/``output_hash``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from debates.models import ArgumentOrigin, Attack, DebateArgument
from engine.models import Debate

__all__ = [
    "ArgumentView",
    "AttackView",
    "DebateState",
    "PersonaView",
    "argument_view",
    "attack_view",
    "load_state",
    "state_hash",
    "with_new_rows",
    "with_outcomes",
]


@dataclass(frozen=True, slots=True)
class PersonaView:
    id: int
    name: str
    worldview: str
    model: str


@dataclass(frozen=True, slots=True)
class ArgumentView:
    id: int
    key: str
    speaker_id: int
    speaker: str
    round: int
    claim: str
    premises: tuple[str, ...]
    assumptions: tuple[str, ...]
    evidence: tuple[str, ...]
    origin: str
    origin_attack_id: int | None

    @property
    def is_initial(self) -> bool:
        return self.origin == ArgumentOrigin.INITIAL


@dataclass(frozen=True, slots=True)
class AttackView:
    id: int
    round: int
    position: int
    speaker_id: int
    speaker: str
    from_key: str | None
    to_key: str | None
    target_key: str
    type: str
    component: str
    index: int
    counter_proposition: str
    rationale: str
    evidence: tuple[str, ...]
    confidence: float
    status: str
    drop_reason: str


@dataclass(frozen=True, slots=True)
class DebateState:
    debate_id: int
    topic: str
    claims: tuple[str, ...]
    max_rounds: int
    personas: tuple[PersonaView, ...]
    arguments: tuple[ArgumentView, ...]
    attacks: tuple[AttackView, ...]

    def persona(self, persona_id: int) -> PersonaView:
        return next(p for p in self.personas if p.id == persona_id)

    def argument(self, key: str) -> ArgumentView | None:
        return next((a for a in self.arguments if a.key == key), None)


def argument_view(row: DebateArgument, *, speaker: str) -> ArgumentView:
    """The view ``load_state`` would read back for a row this transaction just wrote."""
    return ArgumentView(
        id=row.pk,
        key=row.key,
        speaker_id=row.speaker_id,
        speaker=speaker,
        round=row.round,
        claim=row.claim,
        premises=tuple(row.premises),
        assumptions=tuple(row.assumptions),
        evidence=tuple(row.evidence),
        origin=str(row.origin),
        origin_attack_id=row.origin_attack_id,
    )


def attack_view(
    row: Attack, *, speaker: str, from_key: str | None, to_key: str | None
) -> AttackView:
    """The view ``load_state`` would read back for an attack this transaction just wrote."""
    return AttackView(
        id=row.pk,
        round=row.round,
        position=row.position,
        speaker_id=row.speaker_id,
        speaker=speaker,
        from_key=from_key,
        to_key=to_key,
        target_key=row.target_key,
        type=row.type,
        component=row.target_component,
        index=row.target_index,
        counter_proposition=row.counter_proposition,
        rationale=row.rationale,
        evidence=tuple(row.evidence),
        confidence=row.confidence,
        status=str(row.status),
        drop_reason=str(row.drop_reason),
    )


def with_new_rows(
    state: DebateState,
    *,
    arguments: Iterable[ArgumentView] = (),
    attacks: Iterable[AttackView] = (),
) -> DebateState:
    """``state`` after a stage inserted these rows, without reading them back.

    Rows are read in id order, and a stage's rows are inserted after every
    row already in the state, so appending keeps ``load_state``'s order. The
    run holds the debate's lease (engine/claiming.py): nobody else writes its
    rows, so the state before plus what the stage wrote is the state after.
    """
    return replace(
        state,
        arguments=state.arguments + tuple(arguments),
        attacks=state.attacks + tuple(attacks),
    )


def with_outcomes(state: DebateState, outcomes: Mapping[int, tuple[str, str]]) -> DebateState:
    """``state`` after a stage set these attacks' (status, drop reason), by attack id."""
    return replace(
        state,
        attacks=tuple(
            replace(a, status=outcomes[a.id][0], drop_reason=outcomes[a.id][1])
            if a.id in outcomes
            else a
            for a in state.attacks
        ),
    )


def load_state(debate: Debate) -> DebateState:
    """Everything the pipeline reads about ``debate``, in a stable order."""
    personas = tuple(
        PersonaView(id=p.id, name=p.name, worldview=p.worldview, model=p.effective_model)
        for p in debate.personas.order_by("id")
    )
    # Plain rows (.values) rather than model instances: the state is read
    # after every stage, on the critical path between two rounds of model
    # calls, and building 4 model objects per attack row (select_related)
    # cost more than the queries themselves.
    arguments = tuple(
        ArgumentView(
            id=a["id"],
            key=a["key"],
            speaker_id=a["speaker_id"],
            speaker=a["speaker__name"],
            round=a["round"],
            claim=a["claim"],
            premises=tuple(a["premises"]),
            assumptions=tuple(a["assumptions"]),
            evidence=tuple(a["evidence"]),
            origin=a["origin"],
            origin_attack_id=a["origin_attack_id"],
        )
        for a in DebateArgument.objects.filter(debate=debate)
        .order_by("id")
        .values(
            "id",
            "key",
            "speaker_id",
            "speaker__name",
            "round",
            "claim",
            "premises",
            "assumptions",
            "evidence",
            "origin",
            "origin_attack_id",
        )
    )
    attacks = tuple(
        AttackView(
            id=t["id"],
            round=t["round"],
            position=t["position"],
            speaker_id=t["speaker_id"],
            speaker=t["speaker__name"],
            from_key=t["from_argument__key"] if t["from_argument_id"] else None,
            to_key=t["to_argument__key"] if t["to_argument_id"] else None,
            target_key=t["target_key"],
            type=t["type"],
            component=t["target_component"],
            index=t["target_index"],
            counter_proposition=t["counter_proposition"],
            rationale=t["rationale"],
            evidence=tuple(t["evidence"]),
            confidence=t["confidence"],
            status=t["status"],
            drop_reason=t["drop_reason"],
        )
        for t in Attack.objects.filter(debate=debate)
        .order_by("id")
        .values(
            "id",
            "round",
            "position",
            "speaker_id",
            "speaker__name",
            "from_argument_id",
            "from_argument__key",
            "to_argument_id",
            "to_argument__key",
            "target_key",
            "type",
            "target_component",
            "target_index",
            "counter_proposition",
            "rationale",
            "evidence",
            "confidence",
            "status",
            "drop_reason",
        )
    )
    return DebateState(
        debate_id=debate.id,
        topic=debate.topic,
        claims=tuple(debate.claims or ()),
        max_rounds=debate.max_rounds,
        personas=personas,
        arguments=arguments,
        attacks=attacks,
    )


# Database ids that say nothing about the debate's content: left out of hashes.
_UNHASHED = {
    "DebateState": {"debate_id"},
    "AttackView": {"id"},
    "ArgumentView": {"id", "origin_attack_id"},
}


def _plain(value: object) -> dict:
    """A view as a dict of its fields (json.dumps calls this for each dataclass)."""
    skip = _UNHASHED.get(type(value).__name__, set())
    return {name: getattr(value, name) for name in value.__slots__ if name not in skip}


@lru_cache(maxsize=16)
def state_hash(state: DebateState) -> str:
    """sha256 of the state's canonical JSON, database ids of attacks left out."""
    canonical = json.dumps(
        state, default=_plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
