"""A tournament's route: the next stage, read from the saved matches and turns.

For each bracket round: ``initial``; then per match round ``challenge`` (while
a match still plays), ``rechallenge`` when a challenge must be sent back,
``defend``, ``converge``; then ``judge``. A stage's round packs the bracket
round and the match round into one number (tournaments/state.py, ``stage_round``).
"""

from __future__ import annotations

from tournaments.challenges import needs_sending_back
from tournaments.state import TournamentState, stage_round

__all__ = ["route"]


def route(debate, state: TournamentState, done: frozenset) -> tuple[str, int] | None:
    """The next stage from the saved state (see the module docstring)."""
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
                if ("rechallenge", code) not in done and needs_sending_back(state, code):
                    return ("rechallenge", code)
                return ("defend", code)
            if ("converge", code) not in done:
                return ("converge", code)
        if ("judge", base) not in done:
            return ("judge", base)
    return None
