"""The stages of a tournament on the shared engine, by name (each in a file of its own).

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

Where each idea lives: ``initial`` in opening.py, ``challenge`` and
``rechallenge`` in challenges.py, ``defend`` in defence.py, ``converge`` and
the convergence cascade in converging.py, ``judge`` in judging.py, the Elo
update in ratings.py, forfeits in forfeits.py, what every stage writes for a
match's two sides in turns.py, and the route in route.py.

Budget: a match whose share cannot pay a challenge round stops there
(challenges.py); the engine's own check before every stage stops the whole
tournament when what is left of the total budget cannot pay the next stage.
"""

from __future__ import annotations

from engine.stages import Stage
from tournaments.challenges import ChallengeStage, RechallengeStage
from tournaments.converging import ConvergeStage
from tournaments.defence import DefendStage
from tournaments.judging import JudgeStage
from tournaments.opening import InitialStage

__all__ = ["STAGES"]

STAGES: dict[str, Stage] = {
    "initial": InitialStage(),
    "challenge": ChallengeStage(),
    "rechallenge": RechallengeStage(),
    "defend": DefendStage(),
    "converge": ConvergeStage(),
    "judge": JudgeStage(),
}
