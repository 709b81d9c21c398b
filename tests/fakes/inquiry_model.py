"""A scripted "inquiry model" for the fake Anthropic server: deterministic agents.

It reads a request as a model would — the agent (``ROLE:`` in the system
prompt), the node and round (``NODE: … ROUND: …``), the evidence and the
registered claims (inquiries/prompts.py line formats), and whether a previous
answer was rejected — and answers valid JSON for the schema asked
(``AgentReply`` or ``ArbiterReply``). No Django: it can run in the server process.

Scenarios (constructor flags):
- default: the advocate registers a claim on the first evidence span and
  cites it; the Sanad Breaker asks for more evidence in round 1; everybody
  keeps their position; round 2 brings nothing new -> EVIDENCE_EXHAUSTED.
- ``free_fact``: agents that state an uncited fact on their first attempt;
  ``stubborn``: those that do it again when sent back (then dropped).
- ``broken_thesis``: the advocate's claim rests on a span that does not
  exist (grade D) and the thesis cites it -> CRITICAL_DEFECT.
- ``agree``: every agent supports the thesis with 0.75 -> CONSENSUS.
- ``dissent``: the Risk Officer always opposes, the advocate registers a new
  claim each round -> STABLE_DISSENT after three rounds.
- ``vague``: agents that never cite a claim (their challenges reference no
  evidence; the arbiter node counts it against their utility).
- ``calc``: the advocate's opening also asks for a difference of the first
  two numbers written in an evidence span (computed by the registry, not here).

The Methodologist (a specialist observer, asked only when the inquiry chose it)
answers like the Contradiction Finder — undecided, citing the latest claim —
in its own words; ``free_fact``/``stubborn``/``vague`` apply to it by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.anthropic_wire import Reply

__all__ = ["FakeInquiryModel", "respond"]

_ROLE = re.compile(r"^ROLE: (\w+)", re.MULTILINE)
_NODE = re.compile(r"^NODE: (\w+) ROUND: (\d+)", re.MULTILINE)
_EVIDENCE = re.compile(r"^- (S\d+\.\d+) \[(SRC-\d+)\]: ", re.MULTILINE)
_EVIDENCE_TEXT = re.compile(r"^- (S\d+\.\d+) \[SRC-\d+\]: (.*)$", re.MULTILINE)
_NUMBER = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?%?")
_CLAIM = re.compile(r"^- (C-\d+) \(grade ([A-D])\): ", re.MULTILINE)
_ORIGIN = re.compile(r"^- (SRC-\d+): .*; reports from (SRC-\d+)\)$", re.MULTILINE)


def _text(body: dict[str, Any]) -> tuple[str, str, str]:
    schema = ((body.get("output_config") or {}).get("format") or {}).get("schema") or {}
    system = body.get("system") or ""
    if not isinstance(system, str):
        system = "".join(block.get("text", "") for block in system)
    content = (body.get("messages") or [{}])[-1].get("content", "")
    if not isinstance(content, str):
        content = "".join(block.get("text", "") for block in content)
    return schema.get("title", ""), system, content


@dataclass
class FakeInquiryModel:
    free_fact: set[str] = field(default_factory=set)
    stubborn: set[str] = field(default_factory=set)
    broken_thesis: bool = False
    agree: bool = False
    dissent: bool = False
    calc: bool = False
    vague: set[str] = field(default_factory=set)
    calls: list[tuple[str, str, int]] = field(default_factory=list)

    def __call__(self, body: dict[str, Any]) -> Reply:
        title, system, text = _text(body)
        role = _ROLE.search(system)
        node = _NODE.search(text)
        agent = role.group(1) if role else ""
        node_name, round_ = (node.group(1), int(node.group(2))) if node else ("", 0)
        self.calls.append((agent, node_name, round_))
        if title == "ArbiterReply":
            return Reply.json(self._arbiter(text))
        if title == "AgentReply":
            return Reply.json(self._agent(agent, node_name, round_, text))
        return Reply.error(400, message=f"fake inquiry model: unknown schema {title!r}")

    def _record(self, ids: list[str], confidence: float) -> dict:
        return {
            "supported_claim_ids": ids,
            "falsifiability_tests": ["A later count showing traffic back at its old level"],
            "uncertainties": ["What happened outside the zone"],
            "confidence": confidence,
            "failure_modes": ["The evaluation may measure the wrong roads"],
        }

    def _agent(self, agent: str, node: str, round_: int, text: str) -> dict:
        evidence = _EVIDENCE.findall(text)
        claims = [c for c, _g in _CLAIM.findall(text)]
        origins = dict(_ORIGIN.findall(text))
        resent = "YOUR PREVIOUS ANSWER WAS REJECTED" in text
        position, confidence = "supports", 0.7
        if agent in ("sanad_breaker", "contradiction_finder", "methodologist") and not self.agree:
            position, confidence = "undecided", 0.6
        if agent == "risk_officer" and not self.agree:
            position, confidence = ("opposes", 0.7) if self.dissent else ("undecided", 0.6)
        if self.agree:
            confidence = 0.75
        reply: dict[str, Any] = {
            "position": position,
            "claim_refs": [],
            "new_claims": [],
            "calcs": [],
            "evidence_requests": [],
        }
        if agent in self.free_fact and (not resent or agent in self.stubborn):
            reply.update(
                content="Traffic fell by 22% in the zone.", record=self._record([], confidence)
            )
            return reply
        wants_claim = agent == "advocate" and (node == "advocate_opening" or self.dissent)
        if wants_claim and evidence:
            index = (round_ - 1) % len(evidence)
            span, source = evidence[index]
            chain = {
                "span": span,
                "source": source,
                "origins": [origins[source]] if source in origins else [],
            }
            if self.broken_thesis:
                chain = {"span": "S999.9", "source": "SRC-999", "origins": []}
            reply["new_claims"] = [
                {
                    "label": "N1",
                    "text": f"The passage {span} supports the thesis.",
                    "chains": [chain],
                }
            ]
            cite = "N1"
            reply["content"] = (
                f"Congestion pricing should be adopted, as the evidence shows [{cite}]."
            )
            if self.calc and node == "advocate_opening":
                self._add_calc(reply, text)
            reply["record"] = self._record([cite], confidence)
            return reply
        cite = claims[-1] if claims and agent not in self.vague else ""
        if cite and agent == "methodologist":
            reply["content"] = f"The passage behind [{cite}] shows a correlation, not a cause."
            reply["claim_refs"] = [cite]
        elif cite:
            reply["content"] = f"Looking at the evidence [{cite}], my position holds."
            reply["claim_refs"] = [cite]
        else:
            reply["content"] = "the evidence so far is thin."
        if agent == "sanad_breaker" and round_ == 1 and not self.agree:
            reply["evidence_requests"] = ["ring road nitrogen dioxide"]
        reply["record"] = self._record([cite] if cite else [], confidence if cite else 0.5)
        return reply

    def _add_calc(self, reply: dict, text: str) -> None:
        for span, words in _EVIDENCE_TEXT.findall(text):
            numbers = _NUMBER.findall(words)
            if len(numbers) >= 2:
                inputs = [{"span": span, "value": n} for n in numbers[:2]]
                reply["calcs"] = [{"label": "M1", "op": "difference", "inputs": inputs}]
                reply["content"] += " The two figures differ by [M1]."
                reply["claim_refs"] = ["M1"]
                return

    def _arbiter(self, text: str) -> dict:
        return {
            "thesis_upheld": True,
            "rationale": "the thesis rests on registered evidence.",
            "dissent_preserved": self.dissent,
            "dissent_rationale": "the risk officer cites registered evidence."
            if self.dissent
            else "",
        }


_DEFAULT = FakeInquiryModel()


def respond(body: dict[str, Any]) -> Reply:
    """Module-level responder for ``--responder tests.fakes.inquiry_model:respond``."""
    return _DEFAULT(body)


_DISSENT = FakeInquiryModel(dissent=True)


def respond_dissent(body: dict[str, Any]) -> Reply:
    """The ``dissent`` scenario as a module-level responder (three full rounds)."""
    return _DISSENT(body)
