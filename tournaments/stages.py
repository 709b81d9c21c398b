"""The stages of a tournament on the shared debate engine (issue 10).

Each stage covers every match of one bracket round at once, so the matches
of a round run concurrently (one stage's calls are sent together):

- ``initial`` (br): both sides of each new match recommend;
- ``challenge`` (br.r): each side challenges the other's current recommendation;
- ``rechallenge`` (br.r, only when needed): a challenge naming fewer than two
  critical weaknesses is sent back once, naming the no-yes-man rule;
- ``defend`` (br.r): each side answers the challenge it received, and may update;
- ``converge`` (br.r): structural, then semantic, then the arbiter (a cheap
  model call only when the cheaper methods did not settle);
- ``judge`` (br): the arbiter scores each match (initial 0.4, challenge 0.3,
  defence 0.3), the higher composite wins, and the Elo ratings are updated in
  the same transaction as the result (``RatingChange`` is unique per rating
  and match, so a match can never count twice).

Failure policy (a model that does not answer, after the SDK's retries, or
whose reply cannot be read): that model FORFEITS its match — the match ends
``failed`` with the reason in plain words, the other model advances, and no
rating changes (a forfeit says nothing about how well either argued). When
BOTH models of a match fail in one stage the bracket cannot go on: if the
AI service was the cause the tournament ends ``failed`` with Retry (the
engine's ``ServiceUnavailable``: a retry resumes at that stage and asks again
only the unanswered calls); otherwise it stops, saying after how many of its
matches and why. A failed convergence check falls back to the cheaper
methods' score; a verdict that cannot be read is decided by the models' own
final confidence, and the reasoning says so.

Budget: each bracket round gets its front-loaded share of the budget
(tournaments/budget.py), split evenly between its matches. Before a
challenge round, a match whose share cannot pay the round (its challenges
and defences, estimated from the prompts) stops there and goes to the
verdict with what it has (``budget_stopped``), and the result says so. The
engine's own check before every stage stops the whole tournament when what
is left of the total budget cannot pay the next stage.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils import timezone, translation

from debates import events
from debates.budget import estimate_stage_cost
from debates.calls import CallResult, CallSpec
from debates.models import Debate, LLMCall, StopReason
from debates.orchestrator import ServiceUnavailable
from debates.stages import StageOutcome
from debates.stopping import StopDecision
from llm import LLMError
from tournaments import events as tournament_events
from tournaments import research
from tournaments.budget import allocate_rounds, match_allocation
from tournaments.cache import cache_for
from tournaments.convergence import (
    ConvergenceResult,
    Method,
    composite_score,
    measure_convergence,
    structural_result,
)
from tournaments.elo import DecisionType, apply_match, outcome_for
from tournaments.models import Match, MatchStatus, Rating, RatingChange, Turn, TurnKind
from tournaments.notices import disputed_text, forfeit_text
from tournaments.prompts import (
    challenge_prompt,
    convergence_prompt,
    defence_prompt,
    initial_prompt,
    verdict_prompt,
)
from tournaments.schemas import (
    ChallengeResponse,
    ConfidenceFactors,
    DefenceResponse,
    ModelResponse,
    RecommendationDraft,
)
from tournaments.semantic_hook import semantic_function
from tournaments.state import MatchView, TournamentState, load_state, split_round
from tournaments.verdicts import ConvergenceJudgement, MatchVerdict

__all__ = ["STAGES", "route"]

MODEL_MAX_TOKENS = 2000
ARBITER_MAX_TOKENS = 1200
EXPECTED_TOKENS = {"initial": 700, "challenge": 800, "defence": 800, "arbiter": 300, "verdict": 500}


# -- helpers -----------------------------------------------------------------------------


def _finished_event(debate: Debate, match: Match, ratings: dict | None = None) -> None:
    events.record_event(
        debate=debate,
        type=tournament_events.MATCH_FINISHED,
        payload={
            "match": match.pk,
            "bracket_round": match.bracket_round,
            "status": match.status,
            "winner": match.winner,
            "loser": match.loser,
            "is_disputed": match.is_disputed,
            "reason": match.failure_reason or match.disputed_reason,
            "ratings": ratings or {},
        },
    )


def _spec(
    state: TournamentState,
    *,
    stage: str,
    code: int,
    model: str,
    prompt,
    output_model,
    expected: str,
    agent: str,
    tools: bool = False,
) -> CallSpec:
    arbiter = agent == "arbiter"
    return CallSpec(
        stage=stage,
        round=code,
        persona_id=None,
        model=model,
        prompt=prompt,
        output_model=output_model,
        max_tokens=ARBITER_MAX_TOKENS if arbiter else MODEL_MAX_TOKENS,
        expected_output_tokens=EXPECTED_TOKENS[expected],
        agent=agent[:40],
        cache=None if state.no_cache else cache_for(state.tournament_id),
        tools=research.toolbox(state) if tools else None,
    )


def _ledger(debate: Debate, results: list[CallResult]) -> dict[str, dict[str, Any]]:
    """The ledger rows of the stage's requests (replayed calls included), by request hash."""
    hashes = [r.spec.request_hash for r in results]
    rows = LLMCall.objects.filter(debate=debate, request_hash__in=hashes).values(
        "request_hash", "cost_usd", "input_tokens", "output_tokens", "latency_ms"
    )
    return {row["request_hash"]: row for row in rows}


def _costs(debate: Debate, results: list[CallResult]) -> dict[str, Decimal]:
    """What each request cost, from the ledger, by request hash."""
    return {h: row["cost_usd"] for h, row in _ledger(debate, results).items()}


def _content(kind: str, model: str, result: CallResult, row: dict[str, Any] | None) -> dict:
    """A turn's stored reply; an initial recommendation gets the call's metadata."""
    if kind != TurnKind.INITIAL:
        return result.parsed.model_dump(mode="json")
    row = row or {}
    response = ModelResponse(
        **result.parsed.model_dump(),
        model_id=model,
        input_tokens=row.get("input_tokens", 0),
        output_tokens=row.get("output_tokens", 0),
        response_seconds=round(row.get("latency_ms", 0) / 1000, 3),
    )
    return response.model_dump(mode="json")


def _add_cost(match: Match, model: str, cost: Decimal) -> None:
    costs = dict(match.costs)
    costs[model] = str(Decimal(costs.get(model, "0")) + cost)
    match.costs = costs
    match.cost_usd += cost


def _forfeit(match: Match, *, model: str, error: LLMError | None, stage: str) -> None:
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


def _finished_matches(state: TournamentState) -> int:
    return sum(1 for m in state.matches if not m.running)


def _both_failed(
    state: TournamentState, *, stage: str, code: int, match: Match, failed: dict[str, CallResult]
) -> StopDecision:
    """Both sides of a match failed: service trouble -> Retry; anything else ends the run."""
    errors = [r.error for r in failed.values()]
    if any(e is not None and e.is_service_failure for e in errors):
        raise ServiceUnavailable(
            stage=stage, round=code, codes=sorted({e.code for e in errors if e is not None})
        )
    return StopDecision(
        StopReason.CRITICAL_DEFECT,
        f"Tournament failure after {_finished_matches(state)} of {state.total_matches} "
        f"matches: neither {match.model_a} nor {match.model_b} gave a readable "
        f"{stage} in bracket round {match.bracket_round}.",
    )


@dataclass(frozen=True)
class _Side:
    match: MatchView
    model: str


def _by_match(
    results: list[CallResult], match_ids: dict | None = None
) -> dict[int, dict[str, CallResult]]:
    grouped: dict[int, dict[str, CallResult]] = {}
    for result in results:
        key, model = result.spec.tag
        match_id = match_ids[key] if match_ids is not None else key
        grouped.setdefault(match_id, {})[model] = result
    return grouped


def _save_turns(
    debate: Debate,
    state: TournamentState,
    *,
    stage: str,
    code: int,
    kind: str,
    results: list[CallResult],
    match_ids: dict | None = None,
) -> StopDecision | None:
    """Turns for every side that answered; forfeits for sides that did not."""
    _, r = split_round(code)
    ledger = _ledger(debate, results)
    for match_id, sides in _by_match(results, match_ids).items():
        match = Match.objects.select_for_update().get(pk=match_id)
        failed = {model: res for model, res in sides.items() if not res.ok}
        if len(failed) == 2:
            return _both_failed(state, stage=stage, code=code, match=match, failed=failed)
        for model, res in sides.items():
            row = ledger.get(res.spec.request_hash)
            cost = row["cost_usd"] if row else Decimal(0)
            _add_cost(match, model, cost)
            if res.ok:
                Turn.objects.create(
                    match=match,
                    round=r,
                    kind=kind,
                    model=model,
                    content=_content(kind, model, res, row),
                    tool_calls=list(res.tool_calls),
                    cost_usd=cost,
                )
        for model, res in failed.items():
            _forfeit(match, model=model, error=res.error, stage=stage)
        match.save()
        saved = [model for model, res in sides.items() if res.ok]
        events.record_event(
            debate=debate,
            type=tournament_events.MATCH_TURNS,
            payload={"match": match.pk, "round": r, "kind": kind, "models": saved},
        )
        if failed:
            _finished_event(debate, match)
    return None


def _keyed(spec: CallSpec, match_key: Any, model: str) -> CallSpec:
    """The spec tagged with its match (an id, or ("slot", n) before the match exists)."""
    return dataclasses.replace(spec, tag=(match_key, model))


# -- stages ------------------------------------------------------------------------------


class InitialStage:
    """Create the bracket round's matches; both sides recommend."""

    def specs(self, *, state: TournamentState, round: int, cheap_model: str) -> list[CallSpec]:
        br, _ = split_round(round)
        specs = []
        for slot, pair in enumerate(state.pairings(br) or []):
            if pair.is_bye:
                continue
            for model in (pair.a, pair.b):
                prompt = initial_prompt(
                    model=model,
                    question=state.question,
                    decision_type=state.decision_type,
                    context=state.context,
                )
                spec = _spec(
                    state,
                    stage="initial",
                    code=round,
                    model=model,
                    prompt=prompt,
                    output_model=RecommendationDraft,
                    expected="initial",
                    agent=model,
                )
                specs.append(_keyed(spec, ("slot", slot), model))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        br, _ = split_round(round)
        slots = {}
        for slot, pair in enumerate(state.pairings(br) or []):
            if not pair.is_bye:
                match = Match.objects.create(
                    tournament_id=state.tournament_id,
                    bracket_round=br,
                    slot=slot,
                    model_a=pair.a,
                    model_b=pair.b,
                )
                slots[("slot", slot)] = match.pk
                events.record_event(
                    debate=debate,
                    type=tournament_events.MATCH_STARTED,
                    payload={
                        "match": match.pk,
                        "bracket_round": br,
                        "slot": slot,
                        "model_a": pair.a,
                        "model_b": pair.b,
                    },
                )
        stop = _save_turns(
            debate,
            state,
            stage="initial",
            code=round,
            kind=TurnKind.INITIAL,
            results=results,
            match_ids=slots,
        )
        return StageOutcome(after=load_state(debate), stop=stop)


def _match_share(state: TournamentState, br: int) -> Decimal:
    shares = allocate_rounds(Decimal(state.budget_usd), state.bracket_rounds)
    return match_allocation(shares[br - 1], max(1, len(state.matches_of(br))))


class ChallengeStage:
    def _plan(self, state: TournamentState, code: int):
        br, r = split_round(code)
        playing, stopped = [], []
        for m in state.matches_of(br):
            if not m.plays_round(r):
                continue
            specs = [self._challenge(state, m, model, code) for model in (m.model_a, m.model_b)]
            # A round is a challenge and a defence from each side: about twice this stage.
            estimate = 2 * estimate_stage_cost(specs, prices=settings.LLM_PRICES)
            if r > 1 and Decimal(m.cost_usd) + estimate > _match_share(state, br):
                stopped.append(m)
            else:
                playing.extend(specs)
        return playing, stopped

    def _challenge(self, state, m: MatchView, model: str, code: int, sent_back: str = ""):
        opponent = m.opponent(model)
        prompt = challenge_prompt(
            model=model,
            opponent=opponent,
            round=split_round(code)[1],
            question=state.question,
            decision_type=state.decision_type,
            context=state.context,
            recommendation=m.current(opponent),
            sent_back=sent_back,
        )
        spec = _spec(
            state,
            stage="rechallenge" if sent_back else "challenge",
            code=code,
            model=model,
            prompt=prompt,
            output_model=ChallengeResponse,
            expected="challenge",
            agent=model,
            tools=True,
        )
        return _keyed(spec, m.id, model)

    def specs(self, *, state, round, cheap_model):
        return self._plan(state, round)[0]

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, stopped = self._plan(state, round)
        for m in stopped:
            Match.objects.filter(pk=m.id).update(budget_stopped=True)
        stop = _save_turns(
            debate, state, stage="challenge", code=round, kind=TurnKind.CHALLENGE, results=results
        )
        return StageOutcome(after=load_state(debate), stop=stop)


def _needs_sending_back(state: TournamentState, code: int) -> list[tuple[MatchView, Any]]:
    br, r = split_round(code)
    found = []
    for m in state.matches_of(br):
        if not m.running:
            continue
        for model in (m.model_a, m.model_b):
            turn = m.turn(r, TurnKind.CHALLENGE, model)
            if turn is not None and not turn.sent_back and turn.yes_man_problem:
                found.append((m, turn))
    return found


class RechallengeStage(ChallengeStage):
    """Send a too-soft challenge back once, naming the rule."""

    def specs(self, *, state, round, cheap_model):
        return [
            self._challenge(state, m, turn.model, round, sent_back=turn.yes_man_problem)
            for m, turn in _needs_sending_back(state, round)
        ]

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, r = split_round(round)
        costs = _costs(debate, results)
        for res in results:
            match_id, model = res.spec.tag
            match = Match.objects.select_for_update().get(pk=match_id)
            turn = Turn.objects.get(match=match, round=r, kind=TurnKind.CHALLENGE, model=model)
            cost = costs.get(res.spec.request_hash, Decimal(0))
            _add_cost(match, model, cost)
            match.save()
            turn.sent_back = True
            turn.cost_usd += cost
            if res.ok:  # else the first challenge stands: it was sent back once
                turn.content = res.parsed.model_dump(mode="json")
                turn.tool_calls = list(turn.tool_calls) + list(res.tool_calls)
            turn.save()
            events.record_event(
                debate=debate,
                type=tournament_events.MATCH_TURNS,
                payload={"match": match.pk, "round": r, "kind": turn.kind, "models": [model]},
            )
        return StageOutcome(after=load_state(debate))


class DefendStage:
    def specs(self, *, state, round, cheap_model):
        br, r = split_round(round)
        specs = []
        for m in state.matches_of(br):
            if not m.running:
                continue
            for model in (m.model_a, m.model_b):
                challenge = m.turn(r, TurnKind.CHALLENGE, m.opponent(model))
                if challenge is None:
                    continue
                prompt = defence_prompt(
                    model=model,
                    opponent=m.opponent(model),
                    round=r,
                    question=state.question,
                    decision_type=state.decision_type,
                    context=state.context,
                    recommendation=m.current(model),
                    challenge=challenge.content,
                )
                spec = _spec(
                    state,
                    stage="defend",
                    code=round,
                    model=model,
                    prompt=prompt,
                    output_model=DefenceResponse,
                    expected="defence",
                    agent=model,
                    tools=True,
                )
                specs.append(_keyed(spec, m.id, model))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        stop = _save_turns(
            debate, state, stage="defend", code=round, kind=TurnKind.DEFENCE, results=results
        )
        return StageOutcome(after=load_state(debate), stop=stop)


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
            spec = _spec(
                state,
                stage="converge",
                code=round,
                model=cheap_model,
                prompt=prompt,
                output_model=ConvergenceJudgement,
                expected="arbiter",
                agent="arbiter",
            )
            specs.append(_keyed(spec, m.id, "arbiter"))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, r = split_round(round)
        by_match = {res.spec.tag[0]: res for res in results}
        costs = _costs(debate, results)
        for m in self._defended(state, round):
            a, b = m.current(m.model_a), m.current(m.model_b)
            settled = _cascade_without_arbiter(a, b)
            note = ""
            cost = Decimal(0)
            if settled is not None:
                cascade = settled
            else:
                res = by_match[m.id]
                cost = costs.get(res.spec.request_hash, Decimal(0))
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
            _add_cost(match, "arbiter", cost)
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
        return StageOutcome(after=load_state(debate))


class JudgeStage:
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
            spec = _spec(
                state,
                stage="judge",
                code=round,
                model=cheap_model,
                prompt=prompt,
                output_model=MatchVerdict,
                expected="verdict",
                agent="arbiter",
            )
            specs.append(_keyed(spec, m.id, "arbiter"))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        br, _ = split_round(round)
        costs = _costs(debate, results)
        by_match = {res.spec.tag[0]: res for res in results}
        failed = [res for res in results if not res.ok]
        if failed and any(res.error is not None and res.error.is_service_failure for res in failed):
            raise ServiceUnavailable(
                stage="judge", round=round, codes=sorted({res.error.code for res in failed})
            )
        for m in self._open(state, round):
            res = by_match[m.id]
            match = Match.objects.select_for_update().get(pk=m.id)
            _add_cost(match, "arbiter", costs.get(res.spec.request_hash, Decimal(0)))
            _decide(match, m, res.parsed if res.ok else None, state)
            ratings = _apply_elo(match, state.decision_type)
            _finished_event(debate, match, ratings)
        after = load_state(debate)
        stop = None
        if br == state.bracket_rounds:
            final = after.matches_of(br)[0]
            stop = StopDecision(
                StopReason.MAX_ROUNDS, f"The final is decided: {final.winner} wins the tournament."
            )
        return StageOutcome(after=after, stop=stop)


def _confidence(m: MatchView, model: str) -> float:
    for turn in reversed(m.turns):
        if turn.model == model and turn.kind == TurnKind.DEFENCE:
            return ConfidenceFactors(**turn.content["updated_confidence_factors"]).overall()
    initial = m.turn(0, TurnKind.INITIAL, model)
    return ConfidenceFactors(**initial.content["confidence_factors"]).overall()


def _decide(match: Match, m: MatchView, verdict: MatchVerdict | None, state) -> None:
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
        score_a, score_b = _confidence(m, m.model_a), _confidence(m, m.model_b)
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


def _apply_elo(match: Match, decision_type: str) -> dict[str, list[str]]:
    """Update both ratings with the match, in the caller's transaction, exactly once.

    Returns {model: [before, after]} for the event.
    """
    if RatingChange.objects.filter(match=match).exists():
        return {}
    ratings = {
        model: Rating.objects.select_for_update().get_or_create(
            model=model, decision_type=decision_type
        )[0]
        for model in (match.model_a, match.model_b)
    }
    kind = DecisionType(decision_type)
    current = {(model, kind): r.rating for model, r in ratings.items()}
    outcome = outcome_for(model_a=match.model_a, winner=match.winner, is_disputed=match.is_disputed)
    updated = apply_match(
        current, model_a=match.model_a, model_b=match.model_b, decision_type=kind, outcome=outcome
    )
    changes: dict[str, list[str]] = {}
    for model, rating in ratings.items():
        before = rating.rating
        rating.rating = updated[(model, kind)]
        rating.matches_played += 1
        if match.is_disputed:
            rating.draws += 1
        elif model == match.winner:
            rating.matches_won += 1
        rating.save()
        RatingChange.objects.create(rating=rating, match=match, before=before, after=rating.rating)
        changes[model] = [str(before), str(rating.rating)]
    return changes


def route(debate, state: TournamentState, done: frozenset) -> tuple[str, int] | None:
    """The next stage from the saved state (see the module docstring)."""
    from tournaments.state import stage_round

    for br in range(1, state.bracket_rounds + 1):
        if state.pairings(br) is None:
            return None
        base = stage_round(br, 0)
        if ("initial", base) not in done:
            return ("initial", base)
        for r in range(1, state.max_rounds + 1):
            code = stage_round(br, r)
            if ("challenge", code) not in done:
                if any(m.plays_round(r) for m in state.matches_of(br)):
                    return ("challenge", code)
                break
            if ("defend", code) not in done:
                if ("rechallenge", code) not in done and _needs_sending_back(state, code):
                    return ("rechallenge", code)
                return ("defend", code)
            if ("converge", code) not in done:
                return ("converge", code)
        if ("judge", base) not in done:
            return ("judge", base)
    return None


STAGES = {
    "initial": InitialStage(),
    "challenge": ChallengeStage(),
    "rechallenge": RechallengeStage(),
    "defend": DefendStage(),
    "converge": ConvergeStage(),
    "judge": JudgeStage(),
}
