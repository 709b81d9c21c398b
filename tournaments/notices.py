"""A match's notices (why it was disputed, why a model forfeited) in the page's language.

The engine stores these as English sentences (`Match.disputed_reason`,
`Match.failure_reason`) for the JSON export and the command line. The pages
word them again from the structured fields (rounds, the last convergence
score, the threshold, the budget stop; `Match.failure_detail` for a forfeit),
so a Spanish page says them in Spanish; a row without the fields (made
before they existed) shows its stored sentence.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Match

__all__ = [
    "METHOD_NAMES",
    "disputed_notice",
    "disputed_text",
    "failure_notice",
    "forfeit_text",
    "method_name",
]


def METHOD_NAMES() -> dict[str, str]:  # noqa: N802 (a table, translated when asked)
    return {
        "structural": _("text similarity"),
        "semantic": _("meaning (embeddings)"),
        "arbiter": _("the arbiter's judgement"),
    }


def method_name(method: str) -> str:
    return METHOD_NAMES().get(method, method)


def _stage_name(stage: str) -> str:
    return {
        "initial": _("initial recommendation"),
        "challenge": _("challenge"),
        "rechallenge": _("sent-back challenge"),
        "defend": _("defence"),
    }.get(stage, stage)


def disputed_text(*, budget_stopped: bool, rounds: int, last: object, threshold: float) -> str:
    """Why a match never converged, in the active language (the engine stores it in English)."""
    if budget_stopped:
        why = _("its budget share ran out")
    else:
        why = ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds}
    score = f"{last:g}" if isinstance(last, int | float) else _("not measured")
    return _(
        "The models did not converge (%(why)s; final convergence %(score)s, threshold "
        "%(threshold)s). The arbiter's pick advances; the ratings count a draw."
    ) % {"why": why, "score": score, "threshold": f"{threshold:g}"}


def forfeit_text(*, model: str, other: str, stage_words: str, service: bool) -> str:
    """Why a model forfeited, in the active language (the engine stores it in English)."""
    why = (
        _("the AI service did not answer it (overloaded or unreachable) after several tries")
        if service
        else _("its reply could not be read")
    )
    return _(
        "%(model)s could not take part in the %(stage)s (%(why)s), so it forfeits: "
        "%(other)s advances. Ratings are not changed by a forfeit."
    ) % {"model": model, "stage": stage_words, "why": why, "other": other}


def disputed_notice(match: Match) -> str:
    if not match.is_disputed:
        return match.disputed_reason
    scores = match.convergence_scores or []
    last = scores[-1].get("score") if scores and isinstance(scores[-1], dict) else None
    return disputed_text(
        budget_stopped=match.budget_stopped,
        rounds=match.rounds,
        last=last,
        threshold=match.tournament.convergence_threshold,
    )


def failure_notice(match: Match) -> str:
    detail = match.failure_detail or {}
    if not detail.get("model"):
        return match.failure_reason
    return forfeit_text(
        model=detail["model"],
        other=detail.get("other", ""),
        stage_words=_stage_name(str(detail.get("stage", ""))),
        service=bool(detail.get("service")),
    )
