"""The demo tournament: a recorded tournament, shipped as a fixture, loaded once.

A newcomer without an API key cannot run a tournament, but can open this
one: its bracket, matches, transcripts, convergence charts, and the ratings
it produced on the leaderboard. It is a ``Debate`` with ``is_demo`` set, so
every signed-in user sees it (engine/visibility.py), and its pages say it
was played by scripted models.

The fixture (tournaments/fixtures/demo_tournament.json) is recorded by
tests/tournaments/make_demo_fixture.py: scripted words, real pipeline (the
engine, bracket, convergence cascade, verdicts and Elo ran for real).
:func:`tournament_json` writes it; :func:`import_tournament` turns it back
into rows with new ids. The demo's model ids are its own (``scripted-…``),
so its ratings never mix with real models' ratings.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import transaction

from engine.models import Debate
from engine.stop_messages import legacy_code
from tournaments.models import Match, Rating, RatingChange, Tournament, Turn

__all__ = ["DEMO_FIXTURE", "import_tournament", "load_demo_tournament", "tournament_json"]

DEMO_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "demo_tournament.json"
EXPORT_FORMAT = "argue-tournament/1"

_DEBATE = ("topic", "status", "stop_reason", "stop_detail", "max_rounds", "rounds_completed")
_TOURNAMENT = (
    "decision_type",
    "model_ids",
    "tournament_size",
    "max_rounds",
    "convergence_threshold",
    "force_diversity",
    "no_cache",
    "context",
    "cache_hits",
    "cache_misses",
)
_MATCH = (
    "bracket_round",
    "slot",
    "model_a",
    "model_b",
    "status",
    "rounds",
    "convergence_scores",
    "final_convergence",
    "winner",
    "loser",
    "positions",
    "scores",
    "arbiter_reasoning",
    "winner_strengths",
    "loser_weaknesses",
    "costs",
    "is_disputed",
    "disputed_reason",
    "budget_stopped",
    "failure_reason",
)
_TURN = ("round", "kind", "model", "content", "tool_calls", "sent_back")


def _pick(row, names) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}


def tournament_json(debate: Debate) -> dict[str, Any]:
    """A finished tournament as plain JSON (money as strings)."""
    tournament = debate.tournament
    matches = []
    for m in tournament.matches.order_by("bracket_round", "slot"):
        entry = _pick(m, _MATCH)
        entry["cost_usd"] = str(m.cost_usd)
        entry["turns"] = [
            {**_pick(t, _TURN), "cost_usd": str(t.cost_usd)} for t in m.turns.order_by("id")
        ]
        entry["rating_changes"] = [
            {"model": c.rating.model, "before": str(c.before), "after": str(c.after)}
            for c in m.rating_changes.select_related("rating").order_by("id")
        ]
        matches.append(entry)
    return {
        "format": EXPORT_FORMAT,
        "debate": {
            **_pick(debate, _DEBATE),
            "budget_usd": str(debate.budget_usd),
            "cost_usd": str(debate.cost_usd),
            "output": debate.output,
            "started_at": debate.started_at.isoformat() if debate.started_at else None,
            "finished_at": debate.finished_at.isoformat() if debate.finished_at else None,
        },
        "tournament": {
            **_pick(tournament, _TOURNAMENT),
            "estimated_cost_usd": str(tournament.estimated_cost_usd),
        },
        "matches": matches,
    }


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _stop_code(detail: str) -> dict:
    """The recorded run predates stop codes: its English sentence is read back once."""
    code, params = legacy_code(detail) or ("", {})
    return {"stop_code": code, "stop_params": params}


@transaction.atomic
def import_tournament(*, data: dict[str, Any], is_demo: bool) -> Debate:
    """Rows for one exported tournament, with new ids; ratings replayed from its changes."""
    if data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not a tournament export (format {data.get('format')!r})")
    fields = data["debate"]
    debate = Debate.objects.create(
        format="tournament",
        is_demo=is_demo,
        **{name: fields[name] for name in _DEBATE},
        **_stop_code(fields["stop_detail"]),
        budget_usd=Decimal(fields["budget_usd"]),
        cost_usd=Decimal(fields["cost_usd"]),
        output=fields["output"],
        started_at=_when(fields["started_at"]),
        finished_at=_when(fields["finished_at"]),
    )
    settings = data["tournament"]
    tournament = Tournament.objects.create(
        debate=debate,
        **{name: settings[name] for name in _TOURNAMENT},
        estimated_cost_usd=Decimal(settings["estimated_cost_usd"]),
    )
    for entry in data["matches"]:
        match = Match.objects.create(
            tournament=tournament,
            **{name: entry[name] for name in _MATCH},
            cost_usd=Decimal(entry["cost_usd"]),
            finished_at=debate.finished_at,
        )
        for turn in entry["turns"]:
            Turn.objects.create(
                match=match,
                **{name: turn[name] for name in _TURN},
                cost_usd=Decimal(turn["cost_usd"]),
            )
        _replay_ratings(match, tournament.decision_type, entry["rating_changes"], entry)
    _relink_output(debate, tournament)
    return debate


def _replay_ratings(match: Match, decision_type: str, changes: list[dict], entry: dict) -> None:
    for change in changes:
        rating, _ = Rating.objects.select_for_update().get_or_create(
            model=change["model"], decision_type=decision_type
        )
        rating.rating = Decimal(change["after"])
        rating.matches_played += 1
        if entry["is_disputed"]:
            rating.draws += 1
        elif change["model"] == entry["winner"]:
            rating.matches_won += 1
        rating.save()
        RatingChange.objects.create(
            rating=rating,
            match=match,
            before=Decimal(change["before"]),
            after=Decimal(change["after"]),
        )


def _relink_output(debate: Debate, tournament: Tournament) -> None:
    """The stored result names matches by id: point it at the new rows."""
    output = dict(debate.output or {})
    by_slot = {(m.bracket_round, m.slot): m.pk for m in tournament.matches.all()}
    matches = []
    for m in output.get("matches") or []:
        matches.append({**m, "id": by_slot.get((m.get("bracketRound"), m.get("slot")))})
    output["matches"] = matches
    strongest = output.get("strongestChallenge")
    if strongest:
        output["strongestChallenge"] = {**strongest, "match": None}
    debate.output = output
    debate.save(update_fields=["output"])


def load_demo_tournament(*, data: dict[str, Any]) -> tuple[Debate, bool]:
    """The demo tournament, imported from ``data`` unless it is there already (idempotent)."""
    existing = Debate.objects.filter(
        format="tournament", is_demo=True, topic=data["debate"]["topic"]
    ).first()
    if existing is not None:
        return existing, False
    return import_tournament(data=data, is_demo=True), True
