"""The stress test's stages: the graph debate's attacks and validation reused, plus its own.

``student`` (round 0, no call): the student's seven elements become the
student's argument node (stresstests/mapping.py).
``attacks`` (round 1, one call per persona, concurrently): debates' Attacks
stage with a prompt for attacking the student's elements; its commit — the
type rule, counter-argument nodes, dropped attacks — is the graph debate's.
``validation`` (round 1, one cheap batch call): debates' Validation stage,
unchanged (same prompt, same request hashes), then dedupe and the semantics.
``concessions`` (round 1, one cheap call, only when the student conceded
exceptions and some attack counts): which attacks raise a conceded exception.
``defence`` (round n for the student's n-th answer, one cheap call): is the
answer relevant, not a restatement, a denial of the objection? Accepted, it
becomes a node attacking the attacker; refused, it keeps its reason.

Every commit records a ``stress_status`` event: where the claim stands now.
"""

from __future__ import annotations

from debates import events
from debates.budget import expected_output_tokens
from debates.models import ArgumentOrigin, Attack, AttackStatus, DebateArgument
from debates.payloads import argument_payload
from debates.stages import PERSONA_MAX_TOKENS, Attacks, Validation
from engine import events as engine_events
from engine.calls import CallSpec
from engine.models import Debate
from engine.stages import StageOutcome
from engine.stop_reasons import StopReason
from stresstests import prompts
from stresstests.mapping import as_argument
from stresstests.models import Concession, Defence, DefenceRefusal, DefenceStatus, StressTest
from stresstests.outcome import (
    ATTACK_ROUND,
    answerable,
    compute,
    counted_objections,
    depth,
    student_argument,
)
from stresstests.personas import student_persona
from stresstests.schemas import ConcessionVerdicts, DefenceVerdict, PersonaReply
from stresstests.state import StressState, load_state

__all__ = ["EVENT_TYPES", "STAGES", "leave_unchecked"]

STATUS_EVENT = "stress_status"
REPLY_EVENT = "persona_replied"
CONCESSIONS_EVENT = "concessions_checked"
DEFENCE_EVENT = "defence_judged"
NO_OBJECTION_EVENT = "no_objection"
EVENT_TYPES = (STATUS_EVENT, CONCESSIONS_EVENT, DEFENCE_EVENT, REPLY_EVENT, NO_OBJECTION_EVENT)

# The issue's 1 to 3 attacks per persona (debates' graph debate allows 4).
MAX_ATTACKS_PER_PERSONA = 3

CHEAP_MAX_TOKENS = 600


def _record_status(debate: Debate, state: StressState, step: str) -> None:
    payload = compute(state).as_payload()
    payload["step"] = step
    engine_events.record_event(debate=debate, type=STATUS_EVENT, payload=payload)


class Student:
    name = "student"

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        return []

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        shape = as_argument(state.element_map)
        node = DebateArgument.objects.create(
            debate=debate,
            key="A1",
            speaker=student_persona(),
            round=0,
            claim=shape.claim,
            premises=list(shape.premises),
            assumptions=list(shape.assumptions),
            origin=ArgumentOrigin.INITIAL,
        )
        engine_events.record_event(
            debate=debate,
            type=events.ARGUMENTS_SUBMITTED,
            payload={
                "round": 0,
                "claims": [],
                "arguments": [argument_payload(node)],
                "failures": [],
            },
        )
        after = load_state(debate)
        _record_status(debate, after, self.name)
        return StageOutcome(after=after)


class StressAttacks(Attacks):
    """debates' Attacks: the same commit, a prompt aimed at the student's elements.

    The issue asks for 1 to 3 attacks per persona: a fourth and any further
    one is dropped and recorded (debates' OVER_LIMIT); a persona that proposes
    none raises no objection, and a ``no_objection`` event says so.
    """

    max_attacks = MAX_ATTACKS_PER_PERSONA

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        student = student_argument(state)
        if student is None:
            return []
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=persona.id,
                model=persona.model,
                prompt=prompts.attacks_prompt(
                    persona=persona, student=student, elements=state.element_map
                ),
                output_model=self._output_model(),
                max_tokens=PERSONA_MAX_TOKENS,
                expected_output_tokens=expected_output_tokens(stage=self.name),
            )
            for persona in state.debate.personas
        ]

    @staticmethod
    def _output_model():
        from debates.schemas import PersonaAttacks

        return PersonaAttacks

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        outcome = super().commit(debate=debate, state=state.debate, round=round, results=results)
        for result in results:
            if result.ok and result.spec.persona_id is not None and not result.parsed.attacks:
                persona = state.debate.persona(result.spec.persona_id)
                engine_events.record_event(
                    debate=debate,
                    type=NO_OBJECTION_EVENT,
                    payload={"round": round, "persona": persona.name, "persona_id": persona.id},
                )
        return StageOutcome(after=load_state(debate), stop=outcome.stop)


class StressValidation(Validation):
    """debates' Validation, unchanged; only a critical defect stops a stress test here."""

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        return super().specs(state=state.debate, round=round, cheap_model=cheap_model)

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        outcome = super().commit(debate=debate, state=state.debate, round=round, results=results)
        after = load_state(debate)
        _record_status(debate, after, self.name)
        stop = outcome.stop
        # Only the opening validation can stop the run; an answer back left
        # without a verdict is dropped (not_validated) and the test goes on.
        if stop is not None and (round > ATTACK_ROUND or stop.reason != StopReason.CRITICAL_DEFECT):
            stop = None
        return StageOutcome(after=after, stop=stop)


class Concessions:
    name = "concessions"

    @staticmethod
    def _asked(state: StressState):
        if not state.element_map.get("rebuttal"):
            return []
        return [(a.from_key, a) for a, _ in counted_objections(state)]

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        asked = self._asked(state)
        if not asked:
            return []
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=None,
                model=cheap_model,
                prompt=prompts.concessions_prompt(elements=state.element_map, attacks=asked),
                output_model=ConcessionVerdicts,
                max_tokens=CHEAP_MAX_TOKENS,
                expected_output_tokens=60 * len(asked),
                agent="concessions",
            )
        ]

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        asked = dict(self._asked(state))
        verdicts: dict[str, bool] = {}
        if results and results[0].ok:
            for verdict in results[0].parsed.verdicts:
                key = verdict.attack_id.strip()
                if key in asked and key not in verdicts:
                    verdicts[key] = verdict.matches_conceded_exception
        Concession.objects.bulk_create(
            [
                Concession(attack_id=asked[key].id, conceded=conceded)
                for key, conceded in verdicts.items()
            ]
        )
        engine_events.record_event(
            debate=debate,
            type=CONCESSIONS_EVENT,
            payload={
                "round": round,
                "conceded": sorted(k for k, v in verdicts.items() if v),
                "checked": sorted(verdicts),
                "check_failed": bool(results) and not results[0].ok,
            },
        )
        after = load_state(debate)
        _record_status(debate, after, self.name)
        return StageOutcome(after=after)


def _next_key_number(debate: Debate) -> int:
    keys = DebateArgument.objects.filter(debate=debate).values_list("key", flat=True)
    return max((int(key[1:]) for key in keys if key[1:].isdigit()), default=0) + 1


class DefenceStage:
    name = "defence"

    @staticmethod
    def _target(state: StressState, round: int):
        """(defence, the attack it answers, what it defends, that text) or None."""
        defence = state.defence(round)
        if defence is None or defence.status != DefenceStatus.PENDING:
            return None
        attack = answerable(state).get(defence.attack_key)
        if attack is None:
            return None
        element = next(
            (e for a, e in counted_objections(state) if a.from_key == attack.from_key), None
        )
        if element is not None:
            return defence, attack, element, state.element_map.get(element, "")
        earlier = next((d for d in state.defences if d.node_key == attack.to_key), None)
        return defence, attack, "defence", earlier.text if earlier else ""

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        target = self._target(state, round)
        if target is None:
            return []
        defence, attack, element, element_text = target
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=None,
                model=cheap_model,
                prompt=prompts.defence_prompt(
                    element=element,
                    element_text=element_text,
                    attack=attack,
                    answer=defence.text,
                ),
                output_model=DefenceVerdict,
                max_tokens=CHEAP_MAX_TOKENS,
                expected_output_tokens=120,
                agent="defence referee",
            )
        ]

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        target = self._target(state, round)
        stress = StressTest.objects.get(debate=debate)
        row = Defence.objects.select_related("attack").get(stress_test=stress, seq=round)
        if target is not None:
            verdict = results[0].parsed if results and results[0].ok else None
            self._judge(debate, row, verdict, round)
        after = load_state(debate)
        _record_defence(debate, row)
        _record_status(debate, after, self.name)
        return StageOutcome(after=after)

    @staticmethod
    def _judge(debate: Debate, row: Defence, verdict: DefenceVerdict | None, round: int) -> None:
        if verdict is None:
            row.status, row.reason = DefenceStatus.REFUSED, DefenceRefusal.NOT_JUDGED
        elif not verdict.relevant:
            row.status, row.reason = DefenceStatus.REFUSED, DefenceRefusal.IRRELEVANT
        elif verdict.restatement:
            row.status, row.reason = DefenceStatus.REFUSED, DefenceRefusal.RESTATEMENT
        elif not verdict.denies_the_objection:
            row.status, row.reason = DefenceStatus.REFUSED, DefenceRefusal.WRONG_TYPE
        else:
            row.status = DefenceStatus.ACCEPTED
        row.explanation = verdict.reason.strip() if verdict is not None else ""
        if row.status == DefenceStatus.ACCEPTED:
            row.node = _defence_node(debate, row, round)
        row.save(update_fields=["status", "reason", "explanation", "node"])


def _record_defence(debate: Debate, row: Defence) -> None:
    engine_events.record_event(
        debate=debate,
        type=DEFENCE_EVENT,
        payload={
            "round": row.seq,
            "attack": row.attack.from_argument.key if row.attack.from_argument else "",
            # The student's words, so the replay shows what was judged.
            "text": row.text,
            "status": row.status,
            "reason": row.reason,
            "explanation": row.explanation,
            "node": row.node.key if row.node else None,
        },
    )


def leave_unchecked(debate: Debate, *, reason: str) -> None:
    """The run ended with answers not judged yet: say so, instead of "being checked" forever."""
    pending = Defence.objects.filter(
        stress_test__debate=debate, status=DefenceStatus.PENDING
    ).select_related("attack__from_argument", "node")
    for row in pending.order_by("seq"):
        row.status, row.reason = DefenceStatus.UNCHECKED, reason
        row.save(update_fields=["status", "reason"])
        _record_defence(debate, row)


def _defence_node(debate: Debate, row: Defence, round: int) -> DebateArgument:
    """The answer as a node that rebuts the attacker's counter-argument."""
    student = student_persona()
    counter = row.attack.from_argument
    attack = Attack.objects.create(
        debate=debate,
        round=ATTACK_ROUND + round,
        speaker=student,
        to_argument=counter,
        target_key=counter.key,
        type="rebut",
        target_component="claim",
        target_index=0,
        counter_proposition=row.text,
        confidence=1.0,
        status=AttackStatus.VALID,
    )
    node = DebateArgument.objects.create(
        debate=debate,
        key=f"A{_next_key_number(debate)}",
        speaker=student,
        round=ATTACK_ROUND + round,
        claim=row.text,
        origin=ArgumentOrigin.ATTACK,
        origin_attack=attack,
    )
    attack.from_argument = node
    attack.save(update_fields=["from_argument"])
    return node


def reply_allowed(state: StressState, seq: int) -> bool:
    """The persona answers an accepted answer back once, until the thread reaches the limit."""
    defence = state.defence(seq)
    return (
        defence is not None
        and defence.status == DefenceStatus.ACCEPTED
        and depth(state, seq) < state.round_limit
    )


class Reply:
    """The persona whose objection was answered may answer back once (a persona call)."""

    name = "reply"

    @staticmethod
    def _target(state: StressState, round: int):
        if not reply_allowed(state, round):
            return None
        defence = state.defence(round)
        attack = next((a for a in state.debate.attacks if a.from_key == defence.attack_key), None)
        if attack is None or not any(p.id == attack.speaker_id for p in state.debate.personas):
            return None
        return defence, attack

    def specs(self, *, state: StressState, round: int, cheap_model: str) -> list[CallSpec]:
        target = self._target(state, round)
        if target is None:
            return []
        defence, attack = target
        persona = state.debate.persona(attack.speaker_id)
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=persona.id,
                model=persona.model,
                prompt=prompts.reply_prompt(persona=persona, attack=attack, answer=defence.text),
                output_model=PersonaReply,
                max_tokens=PERSONA_MAX_TOKENS,
                expected_output_tokens=200,
            )
        ]

    def commit(self, *, debate, state: StressState, round: int, results) -> StageOutcome:
        target = self._target(state, round)
        reply = results[0].parsed if results and results[0].ok else None
        key, counter = None, ""
        if target is not None and reply is not None and not reply.concede:
            defence, attack = target
            counter = reply.counter_proposition.strip()
            if counter:
                key = _reply_node(debate, defence, attack, counter, reply.rationale.strip(), round)
        engine_events.record_event(
            debate=debate,
            type=REPLY_EVENT,
            payload={
                "round": round,
                "persona": target[1].speaker if target else None,
                "conceded": bool(reply is not None and reply.concede),
                "failed": target is not None and reply is None,
                "argument": key,
                "text": counter if key else "",
            },
        )
        return StageOutcome(after=load_state(debate))


def _reply_node(debate: Debate, defence, attack, counter: str, rationale: str, round: int) -> str:
    """The answer back: a pending attack on the defence node, validated next."""
    defence_node = DebateArgument.objects.get(debate=debate, key=defence.node_key)
    row = Attack.objects.create(
        debate=debate,
        round=ATTACK_ROUND + round,
        speaker_id=attack.speaker_id,
        to_argument=defence_node,
        target_key=defence_node.key,
        type="rebut",
        target_component="claim",
        target_index=0,
        counter_proposition=counter,
        rationale=rationale,
        confidence=0.8,
        status=AttackStatus.PENDING,
    )
    node = DebateArgument.objects.create(
        debate=debate,
        key=f"A{_next_key_number(debate)}",
        speaker_id=attack.speaker_id,
        round=ATTACK_ROUND + round,
        claim=counter,
        premises=[rationale] if rationale else [],
        origin=ArgumentOrigin.ATTACK,
        origin_attack=row,
    )
    row.from_argument = node
    row.save(update_fields=["from_argument"])
    return node.key


STAGES = {
    "student": Student(),
    "attacks": StressAttacks(),
    "validation": StressValidation(),
    "concessions": Concessions(),
    "defence": DefenceStage(),
    "reply": Reply(),
}
