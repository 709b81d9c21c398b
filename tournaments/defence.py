"""The ``defend`` stage: each side answers the challenge it received, and may update."""

from __future__ import annotations

from engine.stages import StageOutcome
from tournaments.models import TurnKind
from tournaments.prompts import (
    defence_prompt,
)
from tournaments.schemas import (
    DefenceResponse,
)
from tournaments.state import split_round
from tournaments.turns import (
    call_spec,
    keyed,
    save_turns,
)

__all__ = ["DefendStage"]


class DefendStage:
    name = "defend"

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
                spec = call_spec(
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
                specs.append(keyed(spec, m.id, model))
        return specs

    def commit(self, *, debate, state, round, results) -> StageOutcome:
        saved = save_turns(
            debate, state, stage="defend", code=round, kind=TurnKind.DEFENCE, results=results
        )
        expected = {res.spec.tag[0] for res in results}
        return StageOutcome(
            after=saved.after(state, code=round, expected=expected), stop=saved.stop
        )
