"""A finished tournament as text: the CLI's progress lines and its exports.

Pure functions of plain data (the stored ``TournamentResult`` dict, event
payloads, turn dicts), so the command, the tests and anything else render
the same words. Formats: ``markdown`` (for people and documents) and
``summary`` (a few lines for a terminal); ``json`` is tournaments/exports.py,
the same document as the page's download.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from coach.exports import escape_markdown, escape_markdown_line
from engine.stop_messages import english_or_stored

__all__ = [
    "EXPORT_FORMATS",
    "export_markdown",
    "export_summary",
    "progress_line",
    "stop_text",
    "transcript_lines",
]

EXPORT_FORMATS = ("summary", "markdown", "json")


def stop_text(result: Mapping[str, Any]) -> str:
    """Why the tournament stopped, in English, worded now from its stored code and
    parameters (a result stored with a sentence and no code: that sentence)."""
    return english_or_stored(
        result.get("stopCode") or "", result.get("stopParams"), result.get("stopDetail") or ""
    )


def progress_line(event_type: str, payload: Mapping[str, Any]) -> str | None:
    """One line for a live event, or None for events not worth a line."""
    match = payload.get("match")
    if event_type == "match_started":
        return (
            f"bracket round {payload.get('bracket_round')}: match {match} "
            f"{payload.get('model_a')} v {payload.get('model_b')} started"
        )
    if event_type == "match_turns":
        models = ", ".join(payload.get("models") or [])
        return f"match {match} round {payload.get('round')}: {payload.get('kind')} by {models}"
    if event_type == "match_convergence":
        state = "converged" if payload.get("converged") else "not yet converged"
        return (
            f"match {match} round {payload.get('round')}: convergence "
            f"{payload.get('score')} ({payload.get('method')}), {state}"
        )
    if event_type == "match_finished":
        status = payload.get("status")
        return f"match {match} {status}: {payload.get('winner')} advances"
    if event_type in ("debate_complete", "debate_error"):
        return event_type.replace("_", " ")
    return None


def _match_line(m: Mapping[str, Any]) -> str:
    scores = ", ".join(f"{s:g}" for s in m.get("convergence") or []) or "none"
    line = (
        f"round {m['bracketRound']}: {m['modelA']} v {m['modelB']}: {m['status']}, "
        f"winner {m['winner'] or '-'}, convergence per round {scores}"
    )
    if m.get("isDisputed"):
        line += f" (disputed: {m.get('disputedReason')})"
    if m.get("failureReason"):
        line += f" ({m['failureReason']})"
    return line


def export_summary(header: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    lines = [
        f"Question: {header['question']}",
        f"Decision type: {header['decisionType']}",
        f"Status: {header['status']}",
        f"Winner: {result.get('finalWinner') or 'none'}",
        f"Recommendation: {result.get('finalRecommendation') or '-'}",
        f"Matches: {len(result.get('matches') or [])}, rounds: {result.get('totalRounds')}, "
        f"average convergence: {result.get('averageConvergence')}",
        f"Cost: {result.get('totalCost')} USD, cache hit rate: "
        f"{(result.get('cache') or {}).get('hitRate')}",
    ]
    if result.get("semanticSkipped"):
        lines.append(result["semanticSkipped"])
    if not result.get("complete", True):
        lines.append(f"Stopped early: {stop_text(result)}")
    return "\n".join(lines)


def export_markdown(header: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """The report as Markdown whose only markup is its own: the question, the models' words
    and every other value are text (escaped by CommonMark's grammar, as the argument
    export is), never a heading, a link, an image or HTML."""

    def text(value: Any) -> str:
        return escape_markdown_line(str(value))

    out = [
        f"# Tournament: {text(header['question'])}",
        "",
        f"- Decision type: {text(header['decisionType'])}",
        f"- Models (seed order): {text(', '.join(header.get('models') or []))}",
        f"- Status: {text(header['status'])}",
        f"- Winner: **{text(result.get('finalWinner') or 'none')}**",
        f"- Total cost: {text(result.get('totalCost'))} USD",
        f"- Average convergence: {text(result.get('averageConvergence'))}",
        "",
        "## Recommendation",
        "",
        escape_markdown(result.get("finalRecommendation") or "") or "\\-",
        "",
        "## Matches",
        "",
    ]
    out += [f"- {text(_match_line(m))}" for m in result.get("matches") or []]
    refinements = result.get("keyRefinements") or []
    if refinements:
        out += ["", "## Key refinements", ""] + [f"- {text(r)}" for r in refinements]
    if result.get("semanticSkipped"):
        out += ["", escape_markdown(result["semanticSkipped"])]
    if not result.get("complete", True):
        out += ["", f"Stopped early: {text(stop_text(result))}"]
    return "\n".join(out) + "\n"


def transcript_lines(turns: Iterable[Mapping[str, Any]]) -> list[str]:
    """The challenge/defence transcript of one match, from turn dicts (model, kind, round, content)."""
    lines = []
    for turn in turns:
        content = turn.get("content") or {}
        head = f"  [{turn['round']}] {turn['model']} ({turn['kind']})"
        if turn["kind"] == "challenge":
            weak = "; ".join(w.get("weakness", "") for w in content.get("critical_weaknesses", []))
            lines.append(f"{head}: weaknesses: {weak}")
            if content.get("superior_alternative"):
                lines.append(f"      alternative: {content['superior_alternative']}")
        else:
            lines.append(f"{head}: {content.get('recommendation', '')}")
            if content.get("stance"):
                lines.append(f"      {content['stance']}")
    return lines
