"""The ``challenge`` and ``rechallenge`` stages: each side challenges the other's recommendation.

Before a challenge round, a match whose share of the budget (tournaments/budget.py:
each bracket round's front-loaded share, split evenly between its matches)
cannot pay the round (its challenges and defences, estimated from the prompts)
stops there and goes to the verdict with what it has (``budget_stopped``). A
challenge naming fewer than two critical weaknesses is sent back once, naming
the no-yes-man rule (``rechallenge``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings

from engine import events
from engine.budget import estimate_stage_cost
from engine.stages import StageOutcome
from tournaments import events as tournament_events
from tournaments.budget import allocate_rounds, match_allocation
from tournaments.models import Match, Turn, TurnKind
from tournaments.prompts import (
    challenge_prompt,
)
from tournaments.schemas import (
    ChallengeResponse,
)
from tournaments.state import MatchView, TournamentState, reload_round, split_round
from tournaments.turns import (
    add_cost,
    call_spec,
    costs_by_hash,
    hash_of,
    keyed,
    save_turns,
)

__all__ = ["ChallengeStage", "RechallengeStage", "match_share", "needs_sending_back"]


def match_share(state: TournamentState, br: int) -> Decimal:
    shares = allocate_rounds(Decimal(state.budget_usd), state.bracket_rounds)
    return match_allocation(shares[br - 1], max(1, len(state.matches_of(br))))


class ChallengeStage:
    name = "challenge"

    def _plan(self, state: TournamentState, code: int):
        br, r = split_round(code)
        playing, stopped = [], []
        for m in state.matches_of(br):
            if not m.plays_round(r):
                continue
            specs = [self._challenge(state, m, model, code) for model in (m.model_a, m.model_b)]
            # A round is a challenge and a defence from each side: about twice this stage.
            estimate = 2 * estimate_stage_cost(specs, prices=settings.LLM_PRICES)
            if r > 1 and Decimal(m.cost_usd) + estimate > match_share(state, br):
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
        spec = call_spec(
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
        return keyed(spec, m.id, model)

    def specs(self, *, state, round, cheap_model):
        return self._plan(state, round)[0]

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, stopped = self._plan(state, round)
        for m in stopped:
            Match.objects.filter(pk=m.id).update(budget_stopped=True)
        saved = save_turns(
            debate, state, stage="challenge", code=round, kind=TurnKind.CHALLENGE, results=results
        )
        # A match stopped by the budget was written without an instance: read the round then.
        expected = {m.id for m in stopped} | {res.spec.tag[0] for res in results}
        return StageOutcome(
            after=saved.after(state, code=round, expected=expected), stop=saved.stop
        )


def needs_sending_back(state: TournamentState, code: int) -> list[tuple[MatchView, Any]]:
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

    name = "rechallenge"

    def specs(self, *, state, round, cheap_model):
        return [
            self._challenge(state, m, turn.model, round, sent_back=turn.yes_man_problem)
            for m, turn in needs_sending_back(state, round)
        ]

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        _, r = split_round(round)
        costs = costs_by_hash(debate, results)
        for res in results:
            match_id, model = res.spec.tag
            match = Match.objects.select_for_update().get(pk=match_id)
            turn = Turn.objects.get(match=match, round=r, kind=TurnKind.CHALLENGE, model=model)
            cost = costs.get(hash_of(res), Decimal(0))
            add_cost(match, model, cost)
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
        return StageOutcome(after=reload_round(state, bracket_round=split_round(round)[0]))
