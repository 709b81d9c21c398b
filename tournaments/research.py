"""Research during a tournament: the ``research`` tool a model may call.

In a challenge or a defence a model may run up to ``MAX_QUERIES`` (2)
research queries through the Messages API's tool use (llm/tools.py). A query
searches the tournament's case file (``casefiles.retrieval.retrieve_spans``)
when it has one, otherwise the question's own context, cut into sentences
and ranked by how many of the query's words each contains. Each query is
recorded as a ``ToolCallResult`` dict on the turn:

``{tool_name, query, results, claim, confidence, time, tokens, cost}`` —
``results`` are the passages returned (text, and the span key and source
for a case file); ``claim`` is what the model said it wanted to check;
``confidence`` is the share of the query's words the best passage contains
(0-1, 0 when nothing was found); ``time`` the seconds the search took;
``tokens`` about how many tokens the results add to the model's next turn
(4 characters a token); ``cost`` is 0: the search is local, and those tokens
are billed in the exchange's single ledger entry.

The whole exchange (question, tool calls, answer) is ONE ledger entry, keyed
by the request hash plus the tools' fingerprint: a resumed run replays the
final answer and its full cost. What a replay cannot give back is the
research log of an exchange whose stage never committed; the answer, which
quotes what it used in ``sources``/evidence, stands.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from typing import Any

from django.db import connections

__all__ = ["MAX_QUERIES", "RESEARCH_TOOL", "Research", "search_text", "toolbox"]

MAX_QUERIES = 2
MAX_RESULTS = 3
MAX_QUERY_CHARS = 300
CHARS_PER_TOKEN = 4

RESEARCH_TOOL = {
    "name": "research",
    "description": (
        "Search the material of this tournament (its case file, or the question's context) "
        "for passages about a query. Use it to check a claim before you rely on it. At most "
        f"{MAX_QUERIES} searches per reply."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in a few words."},
            "claim": {"type": "string", "description": "The claim you want to check."},
        },
        "required": ["query"],
    },
}

_WORD = re.compile(r"\w+", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _terms(text: str) -> list[str]:
    return list(dict.fromkeys(w.lower() for w in _WORD.findall(text) if len(w) > 2))


def search_text(query: str, text: str, k: int = MAX_RESULTS) -> list[tuple[str, float]]:
    """The ``k`` sentences of ``text`` sharing most words with ``query``, with that share."""
    terms = _terms(query)
    if not terms:
        return []
    scored = []
    for i, sentence in enumerate(s.strip() for s in _SENTENCE.split(text) if s.strip()):
        words = set(_terms(sentence))
        share = sum(1 for t in terms if t in words) / len(terms)
        if share > 0:
            scored.append((-share, i, sentence))
    scored.sort()
    return [(sentence, -neg) for neg, _, sentence in scored[:k]]


@dataclass(frozen=True)
class Research:
    """The tool as llm/tools.py wants it: definitions, max_uses, run, fingerprint."""

    context: str
    case_file_id: int | None
    max_uses: int = MAX_QUERIES

    @property
    def definitions(self) -> list[dict[str, Any]]:
        return [RESEARCH_TOOL]

    @property
    def fingerprint(self) -> str:
        source = f"case:{self.case_file_id}" if self.case_file_id else "context"
        raw = f"{RESEARCH_TOOL}|{self.max_uses}|{source}"
        return hashlib.sha256(raw.encode()).hexdigest()[:16]

    def run(self, name: str, tool_input: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Run one query (in a worker thread): the text for the model and its record."""
        started = time.perf_counter()
        query = str(tool_input.get("query", ""))[:MAX_QUERY_CHARS]
        claim = str(tool_input.get("claim", ""))[:MAX_QUERY_CHARS]
        if name != RESEARCH_TOOL["name"]:
            results: list[dict[str, Any]] = []
            confidence = 0.0
        elif self.case_file_id:
            results, confidence = self._case_file(query)
        else:
            found = search_text(query, self.context)
            results = [{"text": text} for text, _ in found]
            confidence = found[0][1] if found else 0.0
        lines = [f"[{i + 1}] {r['text']}" for i, r in enumerate(results)]
        text = "\n".join(lines) or "Nothing found for this query."
        record = {
            "tool_name": name,
            "query": query,
            "results": results,
            "claim": claim,
            "confidence": round(confidence, 3),
            "time": round(time.perf_counter() - started, 4),
            "tokens": max(1, len(text) // CHARS_PER_TOKEN),
            "cost": "0",
        }
        return text, record

    def _case_file(self, query: str) -> tuple[list[dict[str, Any]], float]:
        from casefiles.retrieval import retrieve_spans

        try:
            hits = retrieve_spans(query, self.case_file_id, k=MAX_RESULTS)
        finally:
            connections.close_all()  # this runs in a worker thread: its own connection
        terms = _terms(query)
        results = [{"text": h.text, "key": h.key, "source": h.source_title} for h in hits]
        if not hits or not terms:
            return results, 0.0
        best = set(_terms(hits[0].text))
        return results, sum(1 for t in terms if t in best) / len(terms)


def toolbox(state) -> Research | None:
    """The research tool for a tournament's challenge and defence calls."""
    if not state.context and not state.case_file_id:
        return None  # nothing to search: no tool offered
    return Research(context=state.context, case_file_id=state.case_file_id)
