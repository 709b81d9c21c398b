"""A scripted model for stress tests on the fake Anthropic server: deterministic.

- persona attack requests (``PersonaAttacks``): each persona named in
  ``attacks`` makes its scripted attack on A1 (a list: each of them, maybe
  none);
- the referee's batch (``AttackValidations``): every attack valid;
- the concession check (``ConcessionVerdicts``): an objection matches a
  conceded exception when its line contains ``conceded_marker``;
- a persona's answer back (``PersonaReply``): the sentence in ``replies``
  for that persona, else it concedes;
- the defence referee (``DefenceVerdict``): an answer equal to the student's
  attacked element is a restatement; one containing ``irrelevant_marker`` is
  irrelevant; anything else is accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.anthropic_wire import Reply
from tests.fakes.debate_model import parse_request

__all__ = ["FakeStressModel"]

_TO_JUDGE = re.compile(r"^\[(T\d+)\] by ", re.MULTILINE)
_OBJECTION = re.compile(r"^\[(A\d+)\] (.*)$", re.MULTILINE)
_ELEMENT = re.compile(r"^The student's \w+: (.*)$", re.MULTILINE)
_ANSWER = re.compile(r"^The student's answer: (.*)$", re.MULTILINE)


Attempt = tuple[str, str, int, str]


@dataclass
class FakeStressModel:
    # persona name -> (type, component, index, counter-proposition), or a list of them
    attacks: dict[str, Attempt | list[Attempt]]
    conceded_marker: str = "drought"
    irrelevant_marker: str = "banana"
    # persona name -> what it answers back to the student's defence; absent: it concedes
    replies: dict[str, str] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    def __call__(self, body: dict[str, Any]) -> Reply:
        request = parse_request(body)
        self.requests.append(request.title)
        if request.title == "PersonaAttacks":
            scripted = self.attacks.get(request.speaker) or []
            drafts = []
            for type_, component, index, counter in (
                scripted if isinstance(scripted, list) else [scripted]
            ):
                drafts.append(
                    {
                        "target_id": "A1",
                        "type": type_,
                        "target_component": component,
                        "target_index": index,
                        "counter_proposition": counter,
                        "rationale": f"Because {counter.lower()}",
                        "assumptions": [],
                        "evidence": [],
                        "confidence": 0.8,
                    }
                )
            return Reply.json({"attacks": drafts})
        if request.title == "PersonaReply":
            counter = self.replies.get(request.speaker, "")
            return Reply.json(
                {
                    "concede": not counter,
                    "counter_proposition": counter,
                    "rationale": f"Because {counter.lower()}" if counter else "",
                }
            )
        if request.title == "AttackValidations":
            return Reply.json(
                {
                    "verdicts": [
                        {
                            "attack_id": key,
                            "no_fallacy": True,
                            "relevant": True,
                            "type_correct": True,
                            "target_exists": True,
                            "valid": True,
                            "strength": 0.7,
                            "corrections": "",
                        }
                        for key in _TO_JUDGE.findall(request.text)
                    ]
                }
            )
        if request.title == "ConcessionVerdicts":
            return Reply.json(
                {
                    "verdicts": [
                        {
                            "attack_id": key,
                            "matches_conceded_exception": self.conceded_marker in line.lower(),
                        }
                        for key, line in _OBJECTION.findall(request.text)
                    ]
                }
            )
        if request.title == "DefenceVerdict":
            element = _ELEMENT.search(request.text)
            answer = _ANSWER.search(request.text)
            element_text = element.group(1).strip() if element else ""
            answer_text = answer.group(1).strip() if answer else ""
            restatement = answer_text.lower() == element_text.lower()
            relevant = self.irrelevant_marker not in answer_text.lower()
            reason = (
                "Your answer repeats your own point instead of answering the objection."
                if restatement
                else "It answers the objection directly."
            )
            return Reply.json(
                {
                    "relevant": relevant,
                    "restatement": restatement,
                    "denies_the_objection": True,
                    "reason": reason,
                }
            )
        return Reply.error(500, message="unscripted request")
