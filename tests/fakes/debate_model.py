"""A scripted "debate model" for the fake Anthropic server: plausible, deterministic.

It reads each request the way a model would — which kind of reply is asked
for (the output schema's title), who is speaking (the system prompt), what is
on the table (the argument and attack lines of debates/prompts.py) — and
answers with valid JSON for that schema. Same request, same answer, so tests
can assert exact graphs. No Django: it also runs inside the server process.

    server.responder = FakeDebateModel()                      # in-process
    python -m tests.fakes.anthropic_server --latency-ms 200 \\
        --responder tests.fakes.debate_model:respond          # as a process

Behaviour: 3 claims; 2 opening arguments per persona, resting on assumptions
drawn from a shared pool (so camps split over common assumptions); each round
every persona attacks up to ``attacks_per_round`` IN/UNDEC arguments of
others it has not attacked yet, alternating rebut and undermine; the referee
accepts every attack except every ``invalid_every``-th. Misbehaviour for
tests is opt-in: attacks on an unknown id, on the speaker's own argument, on a
missing premise, a rebut aimed at a premise, a lower-confidence duplicate, verdicts for unknown attacks,
missing verdicts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.fakes.anthropic_wire import Reply

__all__ = ["FakeDebateModel", "parse_request", "respond"]

ASSUMPTIONS = (
    "Markets allocate resources better than planners",
    "Long-term effects matter more than short-term costs",
    "People respond rationally to incentives",
    "Institutions can be trusted to enforce rules",
    "Measured outcomes capture what matters",
)

_ARGUMENT = re.compile(r"^\[(A\d+)\] \(by (.+?)(?:, (IN|OUT|UNDEC))?\)$")
_COMPONENT = re.compile(r"^  (premise|assumption)\[(\d+)\]: ")
_VALID_ATTACK = re.compile(r"^(A\d+) -> (A\d+) \((\w+) (\w+)\[(\d+)\], by (.+)\)$")
_ATTACK_TO_JUDGE = re.compile(r"^\[(T\d+)\] by (.+?): (\w+) (A\d+) (\w+)\[(\d+)\]$")
_SPEAKER = re.compile(r"^You are (.+?), a debater", re.MULTILINE)
_ROUND = re.compile(r"^Round (\d+)", re.MULTILINE)
_TOPIC = re.compile(r"^Debate topic: (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class ParsedRequest:
    title: str
    speaker: str
    topic: str
    round: int
    text: str


def _user_text(body: dict[str, Any]) -> str:
    content = (body.get("messages") or [{}])[-1].get("content", "")
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


def parse_request(body: dict[str, Any]) -> ParsedRequest:
    schema = ((body.get("output_config") or {}).get("format") or {}).get("schema") or {}
    system = body.get("system") or ""
    if not isinstance(system, str):
        system = "".join(block.get("text", "") for block in system)
    text = _user_text(body)
    speaker = _SPEAKER.search(system)
    round_ = _ROUND.search(text)
    topic = _TOPIC.search(text)
    return ParsedRequest(
        title=schema.get("title", ""),
        speaker=speaker.group(1) if speaker else "",
        topic=topic.group(1).strip() if topic else "",
        round=int(round_.group(1)) if round_ else 0,
        text=text,
    )


def _arguments(text: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for line in text.splitlines():
        match = _ARGUMENT.match(line)
        if match:
            found.append(
                {
                    "id": match.group(1),
                    "speaker": match.group(2),
                    "label": match.group(3),
                    "premise": 0,
                    "assumption": 0,
                }
            )
            continue
        component = _COMPONENT.match(line)
        if component and found:
            found[-1][component.group(1)] += 1
    return found


def _stable_number(text: str) -> int:
    return sum(ord(ch) for ch in text)


@dataclass(frozen=True)
class FakeDebateModel:
    arguments_per_persona: int = 2
    attacks_per_round: int = 2
    invalid_every: int = 0  # 0: every attack is valid; n: attacks T{n}, T{2n}, ... are invalid
    attack_unknown: bool = False
    attack_own: bool = False
    attack_missing_premise: bool = False
    # A "rebut" aimed at a premise: the referee (below) calls it valid anyway.
    rebut_premise: bool = False
    duplicate_attack: bool = False
    unknown_verdict: bool = False
    omit_verdicts: bool = False
    # Ignore labels and earlier attacks: every round repeats round 1's attacks.
    repeat_attacks: bool = False

    def __call__(self, body: dict[str, Any]) -> Reply:
        request = parse_request(body)
        answer = {
            "TopicDecomposition": self.decompose,
            "PersonaArguments": self.open,
            "PersonaAttacks": self.attack,
            "AttackValidations": self.judge,
        }.get(request.title)
        if answer is None:
            return Reply.error(400, message=f"fake debate model: unknown schema {request.title!r}")
        return Reply.json(answer(request))

    def decompose(self, request: ParsedRequest) -> dict[str, Any]:
        topic = request.topic or "the topic"
        return {
            "claims": [
                f"{topic}: the benefits outweigh the costs.",
                f"{topic}: the risks can be managed.",
                f"{topic}: it is fair to those affected.",
            ]
        }

    def open(self, request: ParsedRequest) -> dict[str, Any]:
        name = request.speaker
        base = _stable_number(name)
        return {
            "arguments": [
                {
                    "claim": f"{name}'s position {i + 1}: the proposal should "
                    f"{'go ahead' if (base + i) % 2 else 'be stopped'}.",
                    "premises": [
                        f"{name} observes effect {i + 1}a.",
                        f"{name} observes effect {i + 1}b.",
                    ],
                    "assumptions": [
                        ASSUMPTIONS[(base + i) % len(ASSUMPTIONS)],
                        ASSUMPTIONS[(base + i + 2) % len(ASSUMPTIONS)],
                    ],
                    "evidence": [f"Study {base % 97}-{i + 1}"],
                }
                for i in range(self.arguments_per_persona)
            ]
        }

    def attack(self, request: ParsedRequest) -> dict[str, Any]:
        me = request.speaker
        arguments = _arguments(request.text)
        already = {
            m.group(2)
            for line in request.text.splitlines()
            if (m := _VALID_ATTACK.match(line)) and m.group(6) == me
        }
        if self.repeat_attacks:
            targets = [a for a in arguments if a["speaker"] != me]
            targets.sort(key=lambda a: int(a["id"][1:]))
        else:
            targets = [
                a
                for a in arguments
                if a["speaker"] != me and a["label"] in ("IN", "UNDEC") and a["id"] not in already
            ]
            targets.sort(key=lambda a: (a["label"] != "IN", int(a["id"][1:])))
        attacks = []
        for j, target in enumerate(targets[: self.attacks_per_round]):
            parity = 1 if self.repeat_attacks else request.round
            rebut = (parity + j) % 2 == 1 or target["premise"] == 0
            attacks.append(
                self._attack(
                    target=target["id"],
                    kind="rebut" if rebut else "undermine",
                    component="claim" if rebut else "premise",
                    me=me,
                    round_=request.round,
                    confidence=round(0.9 - 0.1 * j, 2),
                )
            )
        if self.duplicate_attack and attacks:
            first = attacks[0]
            attacks.append({**first, "confidence": 0.3, "rationale": "Said again, less sure."})
        if self.attack_unknown:
            attacks.append(
                self._attack(
                    target="A999", kind="rebut", component="claim", me=me, round_=request.round
                )
            )
        own = [a for a in arguments if a["speaker"] == me]
        if self.attack_own and own:
            attacks.append(
                self._attack(
                    target=own[0]["id"],
                    kind="rebut",
                    component="claim",
                    me=me,
                    round_=request.round,
                )
            )
        if self.attack_missing_premise and targets:
            attacks.append(
                self._attack(
                    target=targets[0]["id"],
                    kind="undermine",
                    component="premise",
                    index=99,
                    me=me,
                    round_=request.round,
                )
            )
        if self.rebut_premise and targets:
            attacks.append(
                self._attack(
                    target=targets[-1]["id"],
                    kind="rebut",
                    component="premise",
                    me=me,
                    round_=request.round,
                )
            )
        return {"attacks": attacks}

    @staticmethod
    def _attack(
        *,
        target: str,
        kind: str,
        component: str,
        me: str,
        round_: int,
        index: int = 0,
        confidence: float = 0.7,
    ) -> dict[str, Any]:
        return {
            "target_id": target,
            "type": kind,
            "target_component": component,
            "target_index": index,
            "counter_proposition": f"{me} denies the {component} of {target} (round {round_}).",
            "rationale": f"{me} finds {target}'s {component} unsupported.",
            "assumptions": [ASSUMPTIONS[(_stable_number(me + target)) % len(ASSUMPTIONS)]],
            "evidence": [f"Report {_stable_number(target) % 89}"],
            "confidence": confidence,
        }

    def judge(self, request: ParsedRequest) -> dict[str, Any]:
        verdicts = []
        for line in request.text.splitlines():
            match = _ATTACK_TO_JUDGE.match(line)
            if not match:
                continue
            attack_id = match.group(1)
            number = int(attack_id[1:])
            if self.omit_verdicts and number % 2 == 0:
                continue
            valid = not (self.invalid_every and number % self.invalid_every == 0)
            verdicts.append(
                {
                    "attack_id": attack_id,
                    "no_fallacy": valid,
                    "relevant": True,
                    "type_correct": True,
                    "target_exists": True,
                    "valid": valid,
                    "strength": 0.8 if valid else 0.2,
                    "corrections": "" if valid else "Attacks a straw man.",
                }
            )
        if self.unknown_verdict:
            verdicts.append(
                {
                    "attack_id": "T999",
                    "no_fallacy": True,
                    "relevant": True,
                    "type_correct": True,
                    "target_exists": True,
                    "valid": True,
                    "strength": 1.0,
                    "corrections": "",
                }
            )
        return {"verdicts": verdicts}


respond = FakeDebateModel()
