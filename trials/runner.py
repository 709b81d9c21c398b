"""Run a trial: claim it, run its chain, save each phase and call as it happens.

`run_trial` claims the trial with a conditional UPDATE (so a re-delivered
task or a second worker does nothing), runs the chain, and saves each phase
and each model call as they happen, so the page can show progress. It sits
below the services that start trials and the background that hands them
out (trials/services.py -> background.py -> tasks.py -> here), so none of
them imports another in a circle.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from llm import LLMRequest, api_key_configured, call_structured, make_client
from trials.chain import KEY_NEEDED_REASON, CallRecord, ChainResult, run_chain
from trials.models import Trial, TrialFailure, TrialStatus

__all__ = [
    "PHASE_MAX_TOKENS",
    "STALE_AFTER",
    "Progress",
    "claim_trial",
    "finish_trial",
    "run_trial",
    "stale_trials",
]

logger = logging.getLogger(__name__)

# Output budget of one phase reply: the verdict is the longest, a few hundred words.
PHASE_MAX_TOKENS = 2000
# A trial "running" for longer than this lost its worker (a restart, a killed
# thread); it may be claimed again and resumes after its last saved phase.
STALE_AFTER = timedelta(minutes=10)


def stale_trials() -> Q:
    """Trials nobody is running: never claimed, or claimed by a runner that went away."""
    cutoff = timezone.now() - STALE_AFTER
    return Q(status=TrialStatus.PENDING, created_at__lt=cutoff) | Q(
        status=TrialStatus.RUNNING, started_at__lt=cutoff
    )


def claim_trial(trial_id: int) -> bool:
    """Take the trial for this run: pending, or running but abandoned (see STALE_AFTER).

    One UPDATE decides it, so of two runners only one gets 1 row back.
    """
    claimable = Q(status=TrialStatus.PENDING) | stale_trials()
    return bool(
        Trial.objects.filter(claimable, pk=trial_id).update(
            status=TrialStatus.RUNNING, started_at=timezone.now(), model=settings.TRIAL_MODEL
        )
    )


def _ask(client):
    def ask(*, system: str, messages: list[dict[str, Any]], output_model):
        request = LLMRequest(
            model=settings.TRIAL_MODEL,
            system=system,
            messages=messages,
            output_model=output_model,
            max_tokens=PHASE_MAX_TOKENS,
            prices=settings.LLM_PRICES,
            deadline_s=settings.LLM_DEADLINE_SECONDS,
            max_reply_chars=settings.LLM_MAX_REPLY_CHARS,
        )
        return call_structured(client=client, request=request)

    return ask


class Progress:
    """Saves each phase and each call as it happens, with single-row UPDATEs."""

    def __init__(self, trial: Trial) -> None:
        self.trial_id = trial.pk
        self.calls: list[dict[str, Any]] = list(trial.calls)

    def on_phase(self, phase: int, output: dict[str, Any]) -> None:
        Trial.objects.filter(pk=self.trial_id).update(**{f"phase{phase}": output})

    def on_call(self, record: CallRecord) -> None:
        # Only the claiming runner writes `calls`, so appending in memory is safe.
        self.calls.append(record.as_json())
        usage = record.usage
        Trial.objects.filter(pk=self.trial_id).update(
            calls=self.calls,
            input_tokens=F("input_tokens") + (usage.input_tokens if usage else 0),
            output_tokens=F("output_tokens") + (usage.output_tokens if usage else 0),
            cache_creation_input_tokens=F("cache_creation_input_tokens")
            + (usage.cache_creation_input_tokens if usage else 0),
            cache_read_input_tokens=F("cache_read_input_tokens")
            + (usage.cache_read_input_tokens if usage else 0),
            cost_usd=F("cost_usd") + Decimal(record.cost_usd),
        )


def finish_trial(trial_id: int, result: ChainResult) -> None:
    """Store how the trial ended: status, reason, failure, the phase it stopped at."""
    Trial.objects.filter(pk=trial_id).update(
        status=result.status,
        reason=result.reason,
        failure=result.failure if result.status == TrialStatus.FAILED else "",
        stopped_phase=result.stopped_phase,
        finished_at=timezone.now(),
    )


def run_trial(trial_id: int) -> Trial | None:
    """Run the trial's chain to its end; None when another runner has it or it is done.

    Never raises for a model or programming failure: the trial ends `failed`
    with the reason, because nobody is waiting on a background run's
    exception and the student must see why the page stopped.
    """
    if not claim_trial(trial_id):
        return None
    trial = Trial.objects.get(pk=trial_id)
    try:
        if not api_key_configured():
            result = ChainResult(
                status=TrialStatus.FAILED,
                reason=KEY_NEEDED_REASON,
                stopped_phase=trial.running_phase,
                failure=TrialFailure.NO_API_KEY,
            )
        else:
            client = make_client(
                timeout=settings.LLM_TIMEOUT_SECONDS, max_retries=settings.LLM_MAX_RETRIES
            )
            progress = Progress(trial)
            result = run_chain(
                query=trial.query,
                ask=_ask(client),
                on_phase=progress.on_phase,
                on_call=progress.on_call,
                done=trial.outputs,
            )
    except Exception as exc:
        logger.exception("trial %s crashed", trial_id)
        result = ChainResult(
            status=TrialStatus.FAILED,
            reason=f"The trial stopped on an internal error ({type(exc).__name__}).",
            stopped_phase=Trial.objects.get(pk=trial_id).running_phase,
            failure=TrialFailure.INTERNAL,
        )
    finish_trial(trial_id, result)
    return Trial.objects.get(pk=trial_id)
