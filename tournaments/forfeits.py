"""Forfeits: a side that cannot answer loses its match, and both sides failing ends the run.

A model that does not answer (after the SDK's retries), or whose reply cannot
be read, FORFEITS its match: the match ends ``failed`` with the reason in
plain words, the other model advances, and no rating changes (a forfeit says
nothing about how well either argued). When BOTH models of a match fail in one
stage the bracket cannot go on: if the AI service was the cause the tournament
ends ``failed`` with Retry (the engine's ``ServiceUnavailable``: a retry resumes
at that stage and asks again only the unanswered calls); otherwise it stops,
saying after how many of its matches and why.
"""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from engine.calls import CallResult, ServiceUnavailable
from engine.stop_messages import register_stop_messages
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision
from llm import LLMError
from tournaments.models import Match, MatchStatus
from tournaments.notices import forfeit_text
from tournaments.state import TournamentState

__all__ = ["both_failed", "finished_matches", "forfeit"]


def forfeit(match: Match, *, model: str, error: LLMError | None, stage: str) -> None:
    other = match.model_b if model == match.model_a else match.model_a
    match.status = MatchStatus.FAILED
    match.winner, match.loser = other, model
    service = bool(error is not None and error.is_service_failure)
    with translation.override("en"):  # stored for the export and the CLI; pages re-word it
        match.failure_reason = forfeit_text(
            model=model, other=other, stage_words=stage, service=service
        )
    match.failure_detail = {"model": model, "other": other, "stage": stage, "service": service}
    match.finished_at = timezone.now()


def finished_matches(state: TournamentState) -> int:
    return sum(1 for m in state.matches if not m.running)


# A tournament stopped by its matches' failures, as a code (engine/stop_messages.py).
register_stop_messages(
    {
        "tournament_failure": gettext_noop(
            "Tournament failure after %(finished)s of %(total)s matches: neither %(model_a)s "
            "nor %(model_b)s gave a readable %(stage)s in bracket round %(round)s."
        ),
    }
)


def both_failed(
    state: TournamentState, *, stage: str, code: int, match: Match, failed: dict[str, CallResult]
) -> StopDecision:
    """Both sides of a match failed: service trouble -> Retry; anything else ends the run."""
    errors = [r.error for r in failed.values()]
    if any(e is not None and e.is_service_failure for e in errors):
        raise ServiceUnavailable(
            stage=stage, round=code, codes=sorted({e.code for e in errors if e is not None})
        )
    return StopDecision.coded(
        StopReason.CRITICAL_DEFECT,
        "tournament_failure",
        finished=finished_matches(state),
        total=state.total_matches,
        model_a=match.model_a,
        model_b=match.model_b,
        stage=stage,
        round=match.bracket_round,
    )
