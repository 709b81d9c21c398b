"""A scripted "tournament model" for the fake Anthropic server: deterministic, configurable.

It reads a request as a model would: the task (the ``Task:`` line of
tournaments/prompts.py), who is speaking (``You are:``), the round, the
models of a verdict, and the output schema; it answers valid JSON for it.
Same request, same answer. No Django: it also runs inside the server process.

Behaviour:
- initial: each model recommends its own option (``OPTIONS``, by model id);
- challenge: three critical weaknesses (one only, for ``soft`` models, until
  the request says it was sent back under the no-yes-man rule);
- defence: from round ``converge_at`` on, a model adopts ``CONSENSUS`` (so
  both sides say the same words and the structural check settles), unless it
  is ``stubborn``: then it maintains its recommendation;
- convergence (arbiter): 40 on every alignment, two key disagreements;
- verdict: each side scored by its ``strength`` (default 60);
- a model in ``failing`` gets a 529 on every request;
- with ``research`` on, a challenge or defence first calls the ``research``
  tool ``research_calls`` times (when tools are offered), then answers
  quoting what it found first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.anthropic_wire import Reply

__all__ = ["CONSENSUS", "FakeTournamentModel", "respond"]

CONSENSUS = "Use PostgreSQL with read replicas and a connection pooler in front."
OPTIONS = ("MongoDB", "CockroachDB", "MySQL", "SQLite", "Cassandra", "DynamoDB")

_TASK = re.compile(r"^Task: (\w+)$", re.MULTILINE)
_YOU = re.compile(r"^You are: (.+)$", re.MULTILINE)
_ROUND = re.compile(r"^Round: (\d+)$", re.MULTILINE)
_MODEL_A = re.compile(r"^Model A: (.+)$", re.MULTILINE)
_MODEL_B = re.compile(r"^Model B: (.+)$", re.MULTILINE)


def _first_user_text(body: dict[str, Any]) -> str:
    content = (body.get("messages") or [{}])[0].get("content", "")
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if b.get("type") == "text")
    return content


def _tool_results(body: dict[str, Any]) -> list[str]:
    found = []
    for message in body.get("messages") or []:
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                content = block.get("content")
                if isinstance(content, list):
                    content = "".join(c.get("text", "") for c in content)
                found.append(str(content))
    return found


def _option(model: str) -> str:
    return OPTIONS[sum(map(ord, model)) % len(OPTIONS)]


def _factors(x: float) -> dict[str, float]:
    return {"evidence_quality": x, "solution_fit": x, "expertise": x}


@dataclass
class FakeTournamentModel:
    converge_at: int = 1
    stubborn: set[str] = field(default_factory=set)
    soft: set[str] = field(default_factory=set)
    failing: set[str] = field(default_factory=set)
    strength: dict[str, float] = field(default_factory=dict)
    research: bool = False
    research_calls: int = 1  # tool calls before answering (beyond the limit: an error block)

    def __call__(self, body: dict[str, Any]) -> Reply:
        model = body.get("model", "")
        if model in self.failing:
            return Reply.error(529)
        text = _first_user_text(body)
        task = (_TASK.search(text) or [None, ""])[1]
        if task in ("challenge", "defence") and self.research and body.get("tools"):
            results = _tool_results(body)
            if len(results) < self.research_calls:
                return Reply.tool_use(
                    "research",
                    {"query": "read replicas connection pooling", "claim": "scaling"},
                    tool_id=f"toolu_{len(results) + 1}",
                )
            return Reply.json(self._answer(task, text, model, evidence=results[0][:200]))
        return Reply.json(self._answer(task, text, model))

    def _answer(self, task: str, text: str, model: str, evidence: str = "") -> dict[str, Any]:
        speaker = (_YOU.search(text) or [None, model])[1]
        round_ = int((_ROUND.search(text) or [None, "0"])[1])
        if task == "initial":
            return {
                "recommendation": f"Use {_option(speaker)} as the primary store.",
                "confidence": 0.7,
                "confidence_factors": _factors(0.7),
                "uncertainty_points": ["Write volume at peak"],
                "key_facts": ["10,000 students"],
                "sources": [],
                "trade_offs": {_option(speaker): "operational cost"},
            }
        if task == "challenge":
            weaknesses = [
                {"weakness": f"Weakness {i} of the plan", "evidence": evidence or f"Evidence {i}"}
                for i in range(1, 4)
            ]
            if speaker in self.soft and "Sent back:" not in text:
                weaknesses = weaknesses[:1]
            return {
                "strengths": ["It is simple"],
                "critical_weaknesses": weaknesses,
                "questionable_claims": [],
                "superior_alternative": CONSENSUS,
            }
        if task == "defence":
            if round_ >= self.converge_at and speaker not in self.stubborn:
                recommendation, stance = CONSENSUS, "updating"
                changed = [f"Adopted read replicas in round {round_}"]
            else:
                current = text.split("Your current recommendation:\n<<<\n", 1)[1].split("\n>>>", 1)[
                    0
                ]
                recommendation, stance, changed = current, "maintaining", []
            return {
                "responses": [{"challenge": "Weakness 1 of the plan", "response": "Answered."}],
                "stance": stance,
                "recommendation": recommendation,
                "what_changed": changed,
                "updated_confidence_factors": _factors(0.8),
            }
        if task == "convergence":
            return {
                "core_recommendation_alignment": 40,
                "reasoning_alignment": 40,
                "trade_off_alignment": 40,
                "implementation_alignment": 40,
                "key_disagreements": ["Which database", "How to scale"],
            }
        if task == "verdict":
            a = (_MODEL_A.search(text) or [None, ""])[1]
            b = (_MODEL_B.search(text) or [None, ""])[1]
            sa, sb = self.strength.get(a, 60), self.strength.get(b, 60)
            return {
                "model_a": {"initial": sa, "challenge": sa, "defence": sa},
                "model_b": {"initial": sb, "challenge": sb, "defence": sb},
                "reasoning": f"{a if sa >= sb else b} argued better.",
                "winner_strengths": ["Clear evidence"],
                "loser_weaknesses": ["Vague trade-offs"],
            }
        raise ValueError(f"unknown task {task!r} in {json.dumps(text)[:200]}")


respond = FakeTournamentModel()
