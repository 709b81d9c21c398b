"""The four pipeline stages as named units: what each asks, and what it writes.

Each stage has two halves:

- ``specs(state, round)`` — the model calls the stage needs, built only from
  the saved state (so a resumed run rebuilds byte-identical requests and the
  ledger recognises the ones already paid);
- ``commit(debate, state, round, results)`` — runs inside the stage's single
  transaction: writes the stage's rows and events and returns a stop decision
  when the round leaves the debate nothing to go on with.

``decompose`` (round 0, cheap model): 2-4 claims framing the topic.
``arguments`` (round 0, one call per persona): the opening arguments.
``attacks`` (round r, one call per persona): attacks on others' arguments,
each creating a counter-argument node; attacks on unknown ids, on the
speaker's own arguments, on a component that does not exist or of a type
that does not fit the component (ASPIC+: rebut the claim, undermine a premise,
undercut an assumption) are dropped and recorded.
``validation`` (round r, one cheap batch call): verdicts, deduplication, the
semantics and the stop check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from argumentation.attack_types import MismatchCode, attack_mismatch
from debates import events
from debates.budget import expected_output_tokens
from debates.graph import counted_arguments, counted_attacks, grounded_labels, snapshot
from debates.models import (
    ArgumentOrigin,
    Attack,
    AttackStatus,
    AttackValidation,
    DebateArgument,
    DropReason,
    StageName,
    TargetComponent,
)
from debates.payloads import argument_payload, attack_view_payload, validation_payload
from debates.prompts import arguments_prompt, attacks_prompt, decompose_prompt, validation_prompt
from debates.schemas import (
    MAX_ARGUMENTS,
    MAX_ATTACKS,
    MAX_CLAIMS,
    AttackValidations,
    PersonaArguments,
    PersonaAttacks,
    TopicDecomposition,
)
from debates.stage_writes import link_counters, save_outcomes
from debates.state import (
    ArgumentView,
    AttackView,
    DebateState,
    argument_view,
    attack_view,
    with_new_rows,
    with_outcomes,
)
from debates.stopping import round_decision
from engine import events as engine_events
from engine.calls import CallResult, CallSpec
from engine.models import Debate, Persona
from engine.stages import Stage, StageOutcome
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision

__all__ = [
    "PERSONA_MAX_TOKENS",
    "STAGES",
    "Attacks",
    "Validation",
    "pending_attacks",
    "plan",
    "verdict_is_valid",
]

DECOMPOSE_MAX_TOKENS = 600
PERSONA_MAX_TOKENS = 2500
VALIDATION_MAX_TOKENS_BASE = 400
VALIDATION_MAX_TOKENS_PER_ATTACK = 250


def plan(*, max_rounds: int) -> list[tuple[str, int]]:
    """Every stage of a full debate in order: depth 2 + 2R."""
    stages = [(StageName.DECOMPOSE.value, 0), (StageName.ARGUMENTS.value, 0)]
    for r in range(1, max_rounds + 1):
        stages += [(StageName.ATTACKS.value, r), (StageName.VALIDATION.value, r)]
    return stages


def _clean(items: Sequence[str]) -> list[str]:
    return [item.strip() for item in items if item and item.strip()]


def _failures(results: Sequence[CallResult], state: DebateState) -> list[dict]:
    return [
        {
            "persona": state.persona(r.spec.persona_id).name if r.spec.persona_id else None,
            "error": r.error.code if r.error else "unknown",
        }
        for r in results
        if not r.ok
    ]


def _record_persona_failures(
    debate: Debate, results: Sequence[CallResult], state: DebateState, round: int
) -> None:
    """One event per persona whose reply could not be used: it sits the round out, visibly."""
    for result in results:
        if result.ok or result.spec.persona_id is None:
            continue
        error = result.error
        engine_events.record_event(
            debate=debate,
            type=events.PERSONA_FAILED,
            payload={
                "round": round,
                "persona": state.persona(result.spec.persona_id).name,
                "persona_id": result.spec.persona_id,
                "reason": "no_answer"
                if error is not None and error.is_service_failure
                else "unusable_reply",
            },
        )


def _next_key_number(state: DebateState) -> int:
    """Keys are A1, A2, ... in creation order; the next number after the highest.

    Read from the state rather than the table: under the run's lease the state
    a stage starts from holds every argument of the debate.
    """
    return max((int(a.key[1:]) for a in state.arguments), default=0) + 1


def _personas(state: DebateState) -> dict[int, Persona]:
    """The debate's personas by id, for the rows a stage creates, from the state: no query.

    Each is a reference to its row (id and name, what the new rows and their payloads
    read), never saved; the rows point at it by id.
    """
    return {p.id: Persona(id=p.id, name=p.name, worldview=p.worldview) for p in state.personas}


def _graph_update(debate: Debate, state: DebateState, round: int) -> dict:
    snap = snapshot(state)
    # ``debate`` is the row the stage's transaction locked, read after the
    # stage's calls were recorded: its running cost is current, no query.
    cost = debate.cost_usd
    return {
        "round": round,
        "labels": snap.labels,
        "counts": snap.counts,
        "camps": snap.camp_count,
        "grounded": list(snap.grounded),
        "attacks": [list(edge) for edge in sorted(snap.framework.attacks)],
        "cost_so_far": str(cost),
    }


class Decompose:
    name = StageName.DECOMPOSE.value

    def specs(self, *, state: DebateState, round: int, cheap_model: str) -> list[CallSpec]:
        return [
            CallSpec(
                stage=self.name,
                round=0,
                persona_id=None,
                model=cheap_model,
                prompt=decompose_prompt(topic=state.topic),
                output_model=TopicDecomposition,
                max_tokens=DECOMPOSE_MAX_TOKENS,
                expected_output_tokens=expected_output_tokens(stage=self.name),
            )
        ]

    def commit(
        self, *, debate: Debate, state: DebateState, round: int, results: Sequence[CallResult]
    ) -> StageOutcome:
        # The claims only frame the debate: without them, the topic itself is the claim.
        result = results[0]
        claims = _clean(result.parsed.claims)[:MAX_CLAIMS] if result.ok else []
        debate.claims = claims or [state.topic]
        Debate.objects.filter(pk=debate.pk).update(claims=debate.claims)
        return StageOutcome(after=replace(state, claims=tuple(debate.claims)))


class OpeningArguments:
    name = StageName.ARGUMENTS.value

    def specs(self, *, state: DebateState, round: int, cheap_model: str) -> list[CallSpec]:
        return [
            CallSpec(
                stage=self.name,
                round=0,
                persona_id=persona.id,
                model=persona.model,
                prompt=arguments_prompt(persona=persona, topic=state.topic, claims=state.claims),
                output_model=PersonaArguments,
                max_tokens=PERSONA_MAX_TOKENS,
                expected_output_tokens=expected_output_tokens(stage=self.name),
            )
            for persona in state.personas
        ]

    def commit(
        self, *, debate: Debate, state: DebateState, round: int, results: Sequence[CallResult]
    ) -> StageOutcome:
        number = _next_key_number(state)
        personas = _personas(state)
        created = []
        for result in results:
            if not result.ok:
                continue
            for draft in result.parsed.arguments[:MAX_ARGUMENTS]:
                if not draft.claim.strip():
                    continue
                created.append(
                    DebateArgument(
                        debate=debate,
                        key=f"A{number}",
                        speaker=personas[result.spec.persona_id],
                        round=0,
                        claim=draft.claim.strip(),
                        premises=_clean(draft.premises),
                        assumptions=_clean(draft.assumptions),
                        evidence=_clean(draft.evidence),
                        origin=ArgumentOrigin.INITIAL,
                    )
                )
                number += 1
        DebateArgument.objects.bulk_create(created)
        engine_events.record_event(
            debate=debate,
            type=events.ARGUMENTS_SUBMITTED,
            payload={
                "round": 0,
                "claims": list(state.claims),
                "arguments": [argument_payload(a) for a in created],
                "failures": _failures(results, state),
            },
        )
        _record_persona_failures(debate, results, state, 0)
        after = with_new_rows(
            state, arguments=[argument_view(a, speaker=a.speaker.name) for a in created]
        )
        engine_events.record_event(
            debate=debate, type=events.GRAPH_UPDATE, payload=_graph_update(debate, after, 0)
        )
        stop = round_decision(
            round=0,
            max_rounds=state.max_rounds,
            defect=None
            if created
            else StopDecision.coded(StopReason.CRITICAL_DEFECT, "no_opening_argument"),
            camps=1,
            undecided=0,
            label_history=[],
            new_valid_attacks=0,
        )
        return StageOutcome(after=after, stop=stop)


def _misfit(target: ArgumentView, *, type_: str, component: str, index: int) -> str:
    """The drop reason of an attack that does not fit its target's parts, or "".

    The rule is enforced here, in code, rather than left to the validator's
    ``type_correct`` flag: a "rebut" aimed at a premise would otherwise count
    with a rebut's two edges (debates.graph).
    """
    available = {
        TargetComponent.CLAIM: 1,
        TargetComponent.PREMISE: len(target.premises),
        TargetComponent.ASSUMPTION: len(target.assumptions),
    }.get(component, 0)
    mismatch = attack_mismatch(
        attack_type=type_, component=component, index=index, available=available
    )
    if mismatch is None:
        return ""
    if mismatch.code in (MismatchCode.WRONG_TYPE, MismatchCode.UNKNOWN_TYPE):
        return DropReason.WRONG_TYPE
    return DropReason.BAD_COMPONENT


class Attacks:
    name = StageName.ATTACKS.value
    # None: the first MAX_ATTACKS of a persona's reply are read, the rest
    # ignored (the graph debate). A number: that many are kept and every
    # further one is recorded as dropped (OVER_LIMIT), as a format may ask.
    max_attacks: int | None = None

    def specs(self, *, state: DebateState, round: int, cheap_model: str) -> list[CallSpec]:
        labels = grounded_labels(state, up_to_round=round - 1)
        arguments = counted_arguments(state, up_to_round=round - 1)
        attacks = counted_attacks(state, up_to_round=round - 1)
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=persona.id,
                model=persona.model,
                prompt=attacks_prompt(
                    persona=persona,
                    topic=state.topic,
                    claims=state.claims,
                    round=round,
                    max_rounds=state.max_rounds,
                    arguments=arguments,
                    labels=labels,
                    attacks=attacks,
                ),
                output_model=PersonaAttacks,
                max_tokens=PERSONA_MAX_TOKENS,
                expected_output_tokens=expected_output_tokens(stage=self.name),
            )
            for persona in state.personas
        ]

    def commit(
        self, *, debate: Debate, state: DebateState, round: int, results: Sequence[CallResult]
    ) -> StageOutcome:
        # The state holds each argument's row id: the attacks point at their
        # targets by id, no argument row is read.
        targets = {a.key: a for a in counted_arguments(state, up_to_round=round - 1)}
        number = _next_key_number(state)
        personas = _personas(state)
        proposed: list[Attack] = []
        counter_arguments: list[DebateArgument] = []
        attacks: list[Attack] = []
        assumptions: list[list[str]] = []
        to_keys: list[str | None] = []
        for result in results:
            if not result.ok:
                continue
            speaker = result.spec.persona_id
            persona = personas[speaker]
            drafts = result.parsed.attacks
            if self.max_attacks is None:
                drafts = drafts[:MAX_ATTACKS]
            for position, draft in enumerate(drafts):
                key = draft.target_id.strip()
                target = targets.get(key)
                reason = ""
                if self.max_attacks is not None and position >= self.max_attacks:
                    reason = DropReason.OVER_LIMIT
                elif target is None:
                    reason = DropReason.UNKNOWN_TARGET
                elif target.speaker_id == speaker:
                    reason = DropReason.OWN_ARGUMENT
                else:
                    reason = _misfit(
                        target,
                        type_=draft.type,
                        component=draft.target_component,
                        index=draft.target_index,
                    )
                attacks.append(
                    Attack(
                        debate=debate,
                        round=round,
                        speaker=persona,
                        to_argument_id=target.id if target is not None else None,
                        target_key=key[:40],
                        type=draft.type,
                        target_component=draft.target_component,
                        target_index=draft.target_index,
                        counter_proposition=draft.counter_proposition.strip(),
                        rationale=draft.rationale.strip(),
                        evidence=_clean(draft.evidence),
                        confidence=min(1.0, max(0.0, draft.confidence)),
                        status=AttackStatus.DROPPED if reason else AttackStatus.PENDING,
                        drop_reason=reason,
                        position=position,
                    )
                )
                assumptions.append(_clean(draft.assumptions))
                to_keys.append(target.key if target is not None else None)
        # Three queries whatever the number of attacks: the attacks, their
        # counter-arguments, then the links back from attacks to counters.
        Attack.objects.bulk_create(attacks)
        for attack, attack_assumptions in zip(attacks, assumptions, strict=True):
            if attack.status == AttackStatus.DROPPED:
                continue
            counter_arguments.append(
                DebateArgument(
                    debate=debate,
                    key=f"A{number}",
                    speaker=attack.speaker,
                    round=round,
                    claim=attack.counter_proposition or f"Against {attack.target_key}",
                    premises=[attack.rationale] if attack.rationale else [],
                    assumptions=attack_assumptions,
                    evidence=attack.evidence,
                    origin=ArgumentOrigin.ATTACK,
                    origin_attack=attack,
                )
            )
            number += 1
            proposed.append(attack)
        DebateArgument.objects.bulk_create(counter_arguments)
        for attack, counter in zip(proposed, counter_arguments, strict=True):
            attack.from_argument = counter
        # One UPDATE whose size does not grow with the attacks: each attack's
        # counter is the argument created from it. bulk_update's CASE WHEN per
        # row cost more to build than anything else the stage writes.
        link_counters([a.pk for a in proposed])
        views = [
            attack_view(
                a,
                speaker=a.speaker.name,
                from_key=a.from_argument.key if a.from_argument_id else None,
                to_key=to_key,
            )
            for a, to_key in zip(attacks, to_keys, strict=True)
        ]
        failures = _failures(results, state)
        engine_events.record_event(
            debate=debate,
            type=events.ATTACKS_GENERATED,
            payload={
                "round": round,
                "attacks": [
                    attack_view_payload(v) for v in views if v.status != AttackStatus.DROPPED
                ],
                "dropped": [
                    attack_view_payload(v) for v in views if v.status == AttackStatus.DROPPED
                ],
                "arguments": [argument_payload(a) for a in counter_arguments],
                "failures": failures,
            },
        )
        _record_persona_failures(debate, results, state, round)
        stop = None
        if results and len(failures) == len(results):
            stop = StopDecision.coded(StopReason.CRITICAL_DEFECT, "attacks_failed", round=round)
        after = with_new_rows(
            state,
            arguments=[argument_view(a, speaker=a.speaker.name) for a in counter_arguments],
            attacks=views,
        )
        return StageOutcome(after=after, stop=stop)


def verdict_is_valid(verdict) -> bool:
    """Valid only if the referee says so *and* every one of its checks passed."""
    return bool(
        verdict.valid
        and verdict.no_fallacy
        and verdict.relevant
        and verdict.type_correct
        and verdict.target_exists
    )


def pending_attacks(state: DebateState, round: int) -> list[tuple[str, AttackView]]:
    """The attacks of ``round`` waiting for a verdict, keyed T1, T2... as the validation asks."""
    attacks = [a for a in state.attacks if a.round == round and a.status == AttackStatus.PENDING]
    return [(f"T{i}", attack) for i, attack in enumerate(attacks, start=1)]


def _dedupe_key(attack: Attack | AttackView) -> tuple:
    if isinstance(attack, Attack):
        return (attack.to_argument.key, attack.target_component, attack.target_index, attack.type)
    return (attack.to_key, attack.component, attack.index, attack.type)


class Validation:
    name = StageName.VALIDATION.value

    def specs(self, *, state: DebateState, round: int, cheap_model: str) -> list[CallSpec]:
        pending = pending_attacks(state, round)
        if not pending:
            return []  # nothing to judge: no call, no cost
        targeted = {attack.to_key for _, attack in pending}
        arguments = [a for a in state.arguments if a.key in targeted]
        n = len(pending)
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=None,
                model=cheap_model,
                prompt=validation_prompt(topic=state.topic, arguments=arguments, attacks=pending),
                output_model=AttackValidations,
                max_tokens=VALIDATION_MAX_TOKENS_BASE + VALIDATION_MAX_TOKENS_PER_ATTACK * n,
                expected_output_tokens=expected_output_tokens(stage=self.name, attacks=n),
            )
        ]

    def commit(
        self, *, debate: Debate, state: DebateState, round: int, results: Sequence[CallResult]
    ) -> StageOutcome:
        # The round's attacks as the state holds them: everything the verdicts, the
        # outcomes and the event need, so the rows (and their speaker and two
        # arguments) are not read back.
        pending = pending_attacks(state, round)
        verdicts: dict[str, object] = {}
        ignored: list[str] = []
        failed = bool(results) and not results[0].ok
        if results and results[0].ok:
            known = {attack_id for attack_id, _ in pending}
            for verdict in results[0].parsed.verdicts:
                attack_id = verdict.attack_id.strip()
                if attack_id in known and attack_id not in verdicts:
                    verdicts[attack_id] = verdict
                else:
                    ignored.append(attack_id)
        judged: list[tuple[AttackView, AttackValidation | None]] = []
        for attack_id, view in pending:
            verdict = verdicts.get(attack_id)
            # An attack left pending by code older than the type rule (a
            # resumed debate) meets the rule here: no verdict makes it count.
            target = state.argument(view.to_key) if view.to_key else None
            misfit = (
                _misfit(target, type_=view.type, component=view.component, index=view.index)
                if target is not None
                else ""
            )
            if verdict is None or misfit:
                reason = str(misfit or DropReason.NOT_VALIDATED)
                judged.append(
                    (replace(view, status=str(AttackStatus.DROPPED), drop_reason=reason), None)
                )
                continue
            valid = verdict_is_valid(verdict)
            validation = AttackValidation(
                attack_id=view.id,
                valid=valid,
                strength=min(1.0, max(0.0, verdict.strength)),
                corrections=verdict.corrections.strip(),
                checks={
                    "no_fallacy": verdict.no_fallacy,
                    "relevant": verdict.relevant,
                    "type_correct": verdict.type_correct,
                    "target_exists": verdict.target_exists,
                    "valid": verdict.valid,
                },
            )
            status = AttackStatus.VALID if valid else AttackStatus.INVALID
            judged.append((replace(view, status=str(status)), validation))
        duplicates = self._duplicates(
            state, [a for a, _ in judged if a.status == AttackStatus.VALID]
        )
        judged = [
            (replace(a, status=str(AttackStatus.DUPLICATE)) if a.id in duplicates else a, v)
            for a, v in judged
        ]
        new_valid = sum(a.status == AttackStatus.VALID for a, _ in judged)
        AttackValidation.objects.bulk_create([v for _, v in judged if v is not None])
        save_outcomes([a for a, _ in judged])
        engine_events.record_event(
            debate=debate,
            type=events.VALIDATION_COMPLETE,
            payload={
                "round": round,
                "attacks": [validation_payload(a, v) for a, v in judged],
                "ignored_verdicts": ignored,
                "validation_failed": failed,
            },
        )
        Debate.objects.filter(pk=debate.pk).update(rounds_completed=round)
        debate.rounds_completed = round
        after = with_outcomes(state, {a.id: (a.status, a.drop_reason) for a, _ in judged})
        update = _graph_update(debate, after, round)
        engine_events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload=update)
        history = [grounded_labels(after, up_to_round=k) for k in range(round)]
        history.append(update["labels"])
        stop = round_decision(
            round=round,
            max_rounds=state.max_rounds,
            defect=StopDecision.coded(StopReason.CRITICAL_DEFECT, "validation_failed", round=round)
            if failed and pending
            else None,
            camps=update["camps"],
            undecided=update["counts"]["UNDEC"],
            label_history=history,
            new_valid_attacks=new_valid,
        )
        return StageOutcome(after=after, stop=stop)

    @staticmethod
    def _duplicates(state: DebateState, valid: list[AttackView]) -> set[int]:
        """The ids of the valid attacks that repeat another.

        Same target argument + component + index + type is one attack. Within
        the round the highest confidence wins (ties: the earliest). An attack
        repeating one counted in an earlier round is a duplicate: the earlier
        one is already in the published graph.
        """
        # Before this commit the round's own attacks are still pending, so
        # every counted attack of the state comes from an earlier round.
        earlier = {_dedupe_key(a) for a in counted_attacks(state)}
        kept: set[tuple] = set()
        duplicates: set[int] = set()
        for attack in sorted(valid, key=lambda a: (-a.confidence, a.id)):
            key = _dedupe_key(attack)
            if key in earlier or key in kept:
                duplicates.add(attack.id)
            else:
                kept.add(key)
        return duplicates


STAGES: dict[str, Stage] = {
    StageName.DECOMPOSE.value: Decompose(),
    StageName.ARGUMENTS.value: OpeningArguments(),
    StageName.ATTACKS.value: Attacks(),
    StageName.VALIDATION.value: Validation(),
}
