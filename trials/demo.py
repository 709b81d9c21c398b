"""The demo trial: scripted words, the real chain, on the demo student's finished argument.

Without an API key nobody can run a trial, so `make run` loads one that shows
what a trial does with a finished argument. ``run_chain`` runs for real — each
phase's prompt is built, each reply goes through the server's checks (schema
and `argumentation.toulmin_rules`, the circuit breaker after phase 2) and is
saved as a run saves it — but ``ask`` answers with the replies written below
instead of calling a model, so nothing leaves the process. The trial is
marked ``is_demo``: every signed-in user may open it, and its page says where
its words come from. Idempotent: a second call finds it.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from coach.models import Argument
from coach.steps import STEPS
from llm import StructuredReply, Usage
from trials.chain import run_chain
from trials.models import Trial, TrialStatus
from trials.query import argument_query
from trials.runner import Progress, finish_trial

__all__ = ["DEMO_MODEL", "PHASE_REPLIES", "load_demo_trial"]

DEMO_MODEL = "demo (scripted)"

# What a careful judge could say of the demo argument (stresstests.demo.ELEMENTS):
# protected bike lanes on the city's main streets.
PHASE_REPLIES: dict[int, dict[str, Any]] = {
    1: {
        "data": {
            "facts": [
                "Cities that built protected lanes report fewer traffic deaths per trip.",
                "The evidence comes from road-safety studies in several European and "
                "American cities.",
            ],
            "citations": [
                {
                    "source": "Road-safety studies (the student's grounds backing)",
                    "reference": "Several European and American cities",
                }
            ],
            "evidence_type": "statistical",
        },
        "claim": {
            "statement": "Our city should build protected bike lanes on its main streets.",
            "scope": "general",
        },
    },
    2: {
        "warrant": {
            "principle": "A change that lowers traffic deaths per trip makes the streets "
            "safer, and safer streets are worth building.",
            "logic_type": "inductive",
            "strength": "strong",
        },
        "backing": {
            "authority": "Before-and-after road-safety studies of protected lanes in "
            "several cities; the argument names no single study.",
            "citations": [
                {
                    "source": "Road-safety studies (not named)",
                    "reference": "European and American cities with protected lanes",
                }
            ],
            "strength": "strong",
        },
    },
    3: {
        "rebuttal": {
            "exceptions": [
                "A street too narrow to fit a lane without closing it to buses.",
                "A city where few people cycle, so deaths per trip say little about the "
                "whole street.",
            ],
            "counterexamples": [],
            "strength": "weak",
        },
        "qualifier": {
            "degree": "probably",
            "confidence_pct": 65,
            "rationale": "The studies are from other cities, and the argument already "
            "limits itself to most main streets.",
        },
    },
    4: {
        "verdict": {
            "status": "sustained",
            "reasoning": "The data are statistical and come from more than one city; the "
            "warrant links fewer deaths per trip to safer streets, which holds if cycling "
            "does not grow much faster than the lanes make it safe. The student already "
            "concedes the narrow streets, and the qualifier keeps the claim to most main "
            "streets.",
            "final_statement": "Sustained, as qualified: build protected lanes on the main "
            "streets wide enough to keep the buses. Name the studies to make it stronger.",
        }
    },
}


def _ask(*, system: str, messages: list[dict[str, Any]], output_model) -> StructuredReply:
    # The chain asks for each phase's output model in turn: its name says which phase.
    phase = next(n for n in PHASE_REPLIES if output_model.__name__ == f"Phase{n}Output")
    text = json.dumps(PHASE_REPLIES[phase], ensure_ascii=False)
    return StructuredReply(
        parsed=output_model.model_validate_json(text),
        raw_text=text,
        usage=Usage(),
        model=DEMO_MODEL,
        stop_reason="end_turn",
        latency_ms=0.0,
        cost_usd=Decimal(0),
        request_hash="",
    )


@transaction.atomic
def load_demo_trial(*, argument: Argument) -> tuple[Trial, bool]:
    """The demo trial of ``argument`` (the demo student's), made if absent; (it, made now)."""
    existing = Trial.objects.filter(is_demo=True).first()
    if existing is not None:
        return existing, False
    query = argument_query(
        title=argument.title,
        language=argument.language,
        fields={step.field: getattr(argument, step.field) for step in STEPS},
    )
    trial = Trial.objects.create(
        owner=argument.owner,
        argument=argument,
        query=query,
        is_demo=True,
        status=TrialStatus.RUNNING,
        model=DEMO_MODEL,
        started_at=timezone.now(),
    )
    progress = Progress(trial)
    result = run_chain(query=query, ask=_ask, on_phase=progress.on_phase, on_call=progress.on_call)
    finish_trial(trial.pk, result)
    trial.refresh_from_db()
    return trial, True
