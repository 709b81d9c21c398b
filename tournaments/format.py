"""The tournament as a format of the shared engine (engine/formats.py).

Stages: tournaments/stages.py; route: tournaments/route.py; state: tournaments/state.py;
the stored outcome: tournaments/result.py.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from engine.formats import Format
from engine.models import Debate
from tournaments.events import EVENT_TYPES
from tournaments.result import tournament_result
from tournaments.route import route
from tournaments.stages import STAGES
from tournaments.state import load_state, state_hash

__all__ = ["FORMAT_NAME", "TOURNAMENT", "start_payload"]

FORMAT_NAME = "tournament"


def start_payload(debate: Debate) -> dict:
    tournament = debate.tournament
    return {
        "topic": debate.topic,
        "decision_type": tournament.decision_type,
        "models": list(tournament.model_ids),
        "max_rounds": tournament.max_rounds,
        "budget_usd": str(debate.budget_usd),
    }


def _page_url(debate: Debate) -> str:
    try:
        return reverse("tournaments:detail", args=[debate.pk])
    except NoReverseMatch:
        return reverse("debates:result" if debate.is_finished else "debates:live", args=[debate.pk])


TOURNAMENT = Format(
    event_types=EVENT_TYPES,
    name=FORMAT_NAME,
    label=_("Model tournament"),
    stages=STAGES,
    next_stage=route,
    load_state=load_state,
    state_hash=state_hash,
    final_output=tournament_result,
    start_payload=start_payload,
    page_url=_page_url,
    plural_label=_("Model tournaments"),
    about=_("Models answer a decision question, challenge each other in matches, and are rated."),
    new_label=_("New tournament"),
    new_url=lambda: reverse("tournaments:new"),
)
