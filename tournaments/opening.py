"""The ``initial`` stage: a bracket round's matches are created, and both sides recommend."""

from __future__ import annotations

from engine import events
from engine.calls import CallSpec
from engine.stages import StageOutcome
from tournaments import events as tournament_events
from tournaments.models import Match, TurnKind
from tournaments.prompts import (
    initial_prompt,
)
from tournaments.schemas import (
    RecommendationDraft,
)
from tournaments.state import TournamentState, split_round
from tournaments.turns import (
    call_spec,
    keyed,
    save_turns,
)

__all__ = ["InitialStage"]


class InitialStage:
    """Create the bracket round's matches; both sides recommend."""

    name = "initial"

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
                spec = call_spec(
                    state,
                    stage="initial",
                    code=round,
                    model=model,
                    prompt=prompt,
                    output_model=RecommendationDraft,
                    expected="initial",
                    agent=model,
                )
                specs.append(keyed(spec, ("slot", slot), model))
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
        saved = save_turns(
            debate,
            state,
            stage="initial",
            code=round,
            kind=TurnKind.INITIAL,
            results=results,
            match_ids=slots,
        )
        # Every match created here must be among those saved, else the round is read.
        expected = set(slots.values())
        return StageOutcome(
            after=saved.after(state, code=round, expected=expected), stop=saved.stop
        )
