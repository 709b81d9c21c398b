"""The ``converge`` stage: the convergence cascade, cheapest method first.

Structural, then semantic, then the arbiter (tournaments/convergence.py, pure):
a cheap model call only when the cheaper methods did not settle. A failed
arbiter call falls back to the cheaper methods' score, and the entry says so.
"""

from __future__ import annotations

import functools
from decimal import Decimal

from engine import events
from engine.stages import StageOutcome
from tournaments import events as tournament_events
from tournaments.convergence import (
    ConvergenceResult,
    Method,
    measure_convergence,
    structural_result,
)
from tournaments.models import Match, TurnKind
from tournaments.prompts import (
    convergence_prompt,
)
from tournaments.semantic_hook import semantic_function
from tournaments.state import MatchView, TournamentState, split_round, with_saved
from tournaments.turns import (
    add_cost,
    call_spec,
    costs_by_hash,
    hash_of,
    keyed,
)
from tournaments.verdicts import ConvergenceJudgement

__all__ = ["ConvergeStage"]


class _ArbiterNeeded(Exception):
    pass


def _need_arbiter(a: str, b: str) -> ConvergenceResult:
    raise _ArbiterNeeded


def _cascade_without_arbiter(a: str, b: str):
    """The cascade up to the arbiter (None when the arbiter must judge).

    Cached per pair and semantic method: specs and commit both ask, and an
    embedding is the slow part.
    """
    return _cascade(a, b, semantic_function())


@functools.lru_cache(maxsize=256)
def _cascade(a: str, b: str, semantic):
    try:
        return measure_convergence(a, b, semantic=semantic, arbiter=_need_arbiter)
    except _ArbiterNeeded:
        return None


class ConvergeStage:
    name = "converge"

    def _defended(self, state: TournamentState, code: int) -> list[MatchView]:
        br, r = split_round(code)
        return [
            m
            for m in state.matches_of(br)
            if m.running and m.rounds == r - 1 and m.turn(r, TurnKind.DEFENCE, m.model_a)
        ]

    def specs(self, *, state, round, cheap_model):
        specs = []
        for m in self._defended(state, round):
            a, b = m.current(m.model_a), m.current(m.model_b)
            if _cascade_without_arbiter(a, b) is not None:
                continue
            prompt = convergence_prompt(
                question=state.question, recommendation_a=a, recommendation_b=b
            )
            spec = call_spec(
                state,
                stage="converge",
                code=round,
                model=cheap_model,
                prompt=prompt,
                output_model=ConvergenceJudgement,
                expected="arbiter",
                agent="arbiter",
            )
            specs.append(keyed(spec, m.id, "arbiter"))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, r = split_round(round)
        by_match = {res.spec.tag[0]: res for res in results}
        costs = costs_by_hash(debate, results)
        saved: list[Match] = []
        for m in self._defended(state, round):
            a, b = m.current(m.model_a), m.current(m.model_b)
            settled = _cascade_without_arbiter(a, b)
            note = ""
            cost = Decimal(0)
            if settled is not None:
                cascade = settled
            else:
                res = by_match[m.id]
                cost = costs.get(hash_of(res), Decimal(0))
                judged = res.parsed if res.ok else None

                def arbiter(_a, _b, judged=judged):
                    if judged is None:
                        raise _ArbiterNeeded
                    return ConvergenceResult(
                        score=judged.score,
                        method=Method.ARBITER,
                        core_recommendation_alignment=judged.core_recommendation_alignment,
                        reasoning_alignment=judged.reasoning_alignment,
                        trade_off_alignment=judged.trade_off_alignment,
                        implementation_alignment=judged.implementation_alignment,
                        key_disagreements=tuple(judged.key_disagreements),
                    )

                try:
                    cascade = measure_convergence(
                        a, b, semantic=semantic_function(), arbiter=arbiter
                    )
                except _ArbiterNeeded:
                    cascade = None
                    note = "The arbiter could not judge convergence; the text similarity stands."
            match = Match.objects.select_for_update().get(pk=m.id)
            if cascade is None:
                result, methods, skipped = structural_result(a, b), ("structural",), ""
            else:
                result = cascade.result
                methods = tuple(str(x) for x in cascade.methods_run)
                skipped = cascade.semantic_skipped_reason or ""
            add_cost(match, "arbiter", cost)
            entry = {
                "round": r,
                "score": result.score,
                "method": str(result.method),
                "methods_run": list(methods),
                "core_recommendation_alignment": result.core_recommendation_alignment,
                "reasoning_alignment": result.reasoning_alignment,
                "trade_off_alignment": result.trade_off_alignment,
                "implementation_alignment": result.implementation_alignment,
                "key_disagreements": list(result.key_disagreements),
                "summary": result.get_disagreement_summary(),
                "semantic_skipped": skipped,
                "note": note,
                "converged": result.is_converged(state.threshold),
            }
            match.convergence_scores = [*match.convergence_scores, entry]
            match.final_convergence = result.score
            match.rounds = r
            match.save()
            saved.append(match)
            events.record_event(
                debate=debate,
                type=tournament_events.MATCH_CONVERGENCE,
                payload={
                    "match": match.pk,
                    "round": r,
                    "score": result.score,
                    "method": str(result.method),
                    "converged": entry["converged"],
                    "summary": entry["summary"],
                },
            )
        # Built from the matches as saved (their only writes), not read back.
        after = with_saved(state, bracket_round=split_round(round)[0], matches=saved, turns=())
        return StageOutcome(after=after)
