"""The ``judge`` stage: the arbiter scores each match and the higher composite wins.

Scores weigh the initial recommendation 0.4, the challenge 0.3 and the defence
0.3; a verdict that cannot be read is decided by the models' own final
confidence, and the reasoning says so. The Elo ratings change in the same
transaction (tournaments/ratings.py). The last bracket round's verdict ends the
tournament (``final_decided``).
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from engine.calls import ServiceUnavailable
from engine.stages import StageOutcome
from engine.stop_messages import register_stop_messages
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision
from tournaments.convergence import (
    composite_score,
)
from tournaments.models import Match, MatchStatus, TurnKind
from tournaments.notices import disputed_text
from tournaments.prompts import (
    verdict_prompt,
)
from tournaments.ratings import apply_elo
from tournaments.schemas import (
    ConfidenceFactors,
)
from tournaments.state import MatchView, TournamentState, reload_round, split_round
from tournaments.turns import (
    add_cost,
    call_spec,
    costs_by_hash,
    finished_event,
    hash_of,
    keyed,
)
from tournaments.verdicts import MatchVerdict

__all__ = ["JudgeStage", "decide", "final_confidence"]


# The tournament's end, as a code (engine/stop_messages.py): worded where it is shown.
register_stop_messages(
    {"final_decided": gettext_noop("The final is decided: %(winner)s wins the tournament.")}
)


class JudgeStage:
    name = "judge"

    def _open(self, state: TournamentState, code: int) -> list[MatchView]:
        br, _ = split_round(code)
        return [m for m in state.matches_of(br) if m.running]

    def specs(self, *, state, round, cheap_model):
        specs = []
        for m in self._open(state, round):
            transcript = [(t.model, t.kind, t.content) for t in m.turns]
            prompt = verdict_prompt(
                question=state.question,
                model_a=m.model_a,
                model_b=m.model_b,
                transcript=transcript,
            )
            spec = call_spec(
                state,
                stage="judge",
                code=round,
                model=cheap_model,
                prompt=prompt,
                output_model=MatchVerdict,
                expected="verdict",
                agent="arbiter",
            )
            specs.append(keyed(spec, m.id, "arbiter"))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        br, _ = split_round(round)
        costs = costs_by_hash(debate, results)
        by_match = {res.spec.tag[0]: res for res in results}
        failed = [res for res in results if not res.ok]
        if failed and any(res.error is not None and res.error.is_service_failure for res in failed):
            raise ServiceUnavailable(
                stage="judge", round=round, codes=sorted({res.error.code for res in failed})
            )
        for m in self._open(state, round):
            res = by_match[m.id]
            match = Match.objects.select_for_update().get(pk=m.id)
            add_cost(match, "arbiter", costs.get(hash_of(res), Decimal(0)))
            decide(match, m, res.parsed if res.ok else None, state)
            ratings = apply_elo(match, state.decision_type)
            finished_event(debate, match, ratings)
        after = reload_round(state, bracket_round=split_round(round)[0])
        stop = None
        if br == state.bracket_rounds:
            final = after.matches_of(br)[0]
            stop = StopDecision.coded(StopReason.MAX_ROUNDS, "final_decided", winner=final.winner)
        return StageOutcome(after=after, stop=stop)


def final_confidence(m: MatchView, model: str) -> float:
    for turn in reversed(m.turns):
        if turn.model == model and turn.kind == TurnKind.DEFENCE:
            return ConfidenceFactors(**turn.content["updated_confidence_factors"]).overall()
    initial = m.turn(0, TurnKind.INITIAL, model)
    return ConfidenceFactors(**initial.content["confidence_factors"]).overall()


def decide(match: Match, m: MatchView, verdict: MatchVerdict | None, state) -> None:
    if verdict is not None:
        score_a = composite_score(**verdict.model_a.model_dump())
        score_b = composite_score(**verdict.model_b.model_dump())
        match.scores = {
            m.model_a: {**verdict.model_a.model_dump(), "composite": score_a},
            m.model_b: {**verdict.model_b.model_dump(), "composite": score_b},
        }
        match.arbiter_reasoning = verdict.reasoning
        match.winner_strengths = list(verdict.winner_strengths)
        match.loser_weaknesses = list(verdict.loser_weaknesses)
    else:
        score_a, score_b = final_confidence(m, m.model_a), final_confidence(m, m.model_b)
        match.arbiter_reasoning = (
            "The arbiter's verdict could not be read, so the match was decided by the models' "
            "own final confidence."
        )
    # Ties go to the higher seed (model A).
    a_wins = score_a >= score_b
    match.winner, match.loser = (m.model_a, m.model_b) if a_wins else (m.model_b, m.model_a)
    match.positions = {m.model_a: m.current(m.model_a), m.model_b: m.current(m.model_b)}
    converged = m.converged
    match.status = MatchStatus.CONVERGED if converged else MatchStatus.FORCED
    if not converged:
        match.is_disputed = True
        last = m.convergence[-1]["score"] if m.convergence else None
        with translation.override("en"):  # stored for the export and the CLI
            match.disputed_reason = disputed_text(
                budget_stopped=m.budget_stopped,
                rounds=m.rounds,
                last=last,
                threshold=state.threshold,
            )
    match.finished_at = timezone.now()
    match.save()
