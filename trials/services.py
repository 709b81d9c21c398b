"""What a trial does: start one, and run it.

- `start_trial` records the query (the student's argument or question) and
  hands the trial to the background once the transaction commits.
- `run_trial` claims the trial with a conditional UPDATE (so a re-delivered
  task or a second worker does nothing), runs the chain, and saves each
  phase and each model call as they happen, so the page can show progress.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, DecimalField, F, Q, Value, When
from django.db.models.functions import Cast, Greatest
from django.utils import timezone

from coach.models import Argument
from coach.steps import STEPS
from limits.services import admit
from llm import Usage, api_key_configured, call_structured, cost_usd, make_client
from trials.chain import KEY_NEEDED_REASON, CallRecord, ChainResult, run_chain
from trials.models import Trial, TrialFailure, TrialStatus
from trials.query import argument_query, question_query

__all__ = [
    "MAX_QUESTION_CHARS",
    "PHASE_MAX_TOKENS",
    "STALE_AFTER",
    "TrialRefused",
    "claim_trial",
    "resume_stale_trials",
    "retry_trial",
    "run_trial",
    "start_trial",
    "trial_cost",
    "trial_reserve_usd",
]

logger = logging.getLogger(__name__)

# Output budget of one phase reply: the verdict is the longest, a few hundred words.
PHASE_MAX_TOKENS = 2000
MAX_QUESTION_CHARS = 2000
# A trial "running" for longer than this lost its worker (a restart, a killed
# thread); it may be claimed again and resumes after its last saved phase.
STALE_AFTER = timedelta(minutes=10)


# For the quota, before a trial has cost anything: every phase sent back once
# (8 calls), each with a long prompt and a full reply.
RESERVED_CALLS = 8
RESERVED_INPUT_TOKENS = 2500
MONEY = DecimalField(max_digits=14, decimal_places=6)


def trial_reserve_usd() -> Decimal:
    """The most a trial is expected to cost, reserved from the quota while it runs."""
    one_call = cost_usd(
        model=settings.TRIAL_MODEL,
        usage=Usage(input_tokens=RESERVED_INPUT_TOKENS, output_tokens=PHASE_MAX_TOKENS),
        prices=settings.LLM_PRICES,
    )
    return (one_call * RESERVED_CALLS).quantize(Decimal("0.000001"))


def trial_cost() -> Case:
    """What a trial counts against its owner's quota (limits.services): its cost once
    finished; while pending or running, the reserve or its cost if that is higher."""
    reserve = Cast(Value(trial_reserve_usd()), output_field=MONEY)
    return Case(
        When(
            status__in=[TrialStatus.PENDING, TrialStatus.RUNNING],
            then=Greatest(F("cost_usd"), reserve),
        ),
        default=F("cost_usd"),
        output_field=MONEY,
    )


class TrialRefused(ValueError):
    """The trial cannot start: an incomplete or foreign argument, an empty question."""


def start_trial(*, user, argument: Argument | None = None, question: str | None = None) -> Trial:
    """A pending trial of `argument` (complete, owned by `user`) or of a free-text `question`.

    The run is queued on commit, so a worker never looks for a trial that
    is not saved yet. Raises limits.services.LimitReached when the owner's
    rate or quota refuses it, before anything is saved or paid for.
    """
    from trials.background import enqueue_trial

    if (argument is None) == (question is None):
        raise TrialRefused("put either an argument or a question on trial")
    if argument is not None:
        if argument.owner_id != user.pk:
            raise TrialRefused("only the argument's owner can put it on trial")
        if not argument.is_complete:
            raise TrialRefused("only a completed argument can be put on trial")
        query = argument_query(
            title=argument.title,
            language=argument.language,
            fields={step.field: getattr(argument, step.field) for step in STEPS},
        )
        fields = {"argument": argument, "query": query}
    else:
        text = (question or "").strip()
        if not text:
            raise TrialRefused("the question is empty")
        if len(text) > MAX_QUESTION_CHARS:
            raise TrialRefused(f"the question is longer than {MAX_QUESTION_CHARS} characters")
        fields = {"question": text, "query": question_query(question=text)}
    with transaction.atomic():
        # The pending trial counts against the quota as soon as it is saved.
        admit(user=user, action="trial", reserve_usd=trial_reserve_usd())
        trial = Trial.objects.create(owner=user, **fields)
        transaction.on_commit(lambda: enqueue_trial(trial.pk))
    return trial


def _stale() -> Q:
    """Trials nobody is running: never claimed, or claimed by a runner that went away."""
    cutoff = timezone.now() - STALE_AFTER
    return Q(status=TrialStatus.PENDING, created_at__lt=cutoff) | Q(
        status=TrialStatus.RUNNING, started_at__lt=cutoff
    )


def resume_stale_trials() -> list[int]:
    """Hand every stale trial to the background again; each resumes after its last saved phase."""
    from trials.background import enqueue_trial

    stale = list(Trial.objects.filter(_stale()).values_list("pk", flat=True))
    for trial_id in stale:
        enqueue_trial(trial_id)
    return stale


def claim_trial(trial_id: int) -> bool:
    """Take the trial for this run: pending, or running but abandoned (see STALE_AFTER).

    One UPDATE decides it, so of two runners only one gets 1 row back.
    """
    claimable = Q(status=TrialStatus.PENDING) | _stale()
    return bool(
        Trial.objects.filter(claimable, pk=trial_id).update(
            status=TrialStatus.RUNNING, started_at=timezone.now(), model=settings.TRIAL_MODEL
        )
    )


def _ask(client):
    def ask(*, system: str, messages: list[dict[str, Any]], output_model):
        return call_structured(
            client=client,
            model=settings.TRIAL_MODEL,
            system=system,
            messages=messages,
            output_model=output_model,
            max_tokens=PHASE_MAX_TOKENS,
            prices=settings.LLM_PRICES,
            deadline_s=settings.LLM_DEADLINE_SECONDS,
            max_reply_chars=settings.LLM_MAX_REPLY_CHARS,
        )

    return ask


class _Progress:
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


def _finish(trial_id: int, result: ChainResult) -> None:
    Trial.objects.filter(pk=trial_id).update(
        status=result.status,
        reason=result.reason,
        failure=result.failure if result.status == TrialStatus.FAILED else "",
        stopped_phase=result.stopped_phase,
        finished_at=timezone.now(),
    )


def retry_trial(*, trial_id: int, user) -> Trial:
    """Run a failed trial of ``user``'s again, without retyping anything.

    It carries on after its last saved phase (``run_chain`` re-validates and
    reuses those); the calls already made stay in ``calls`` for instructors,
    and the new ones are added after them.
    """
    from trials.background import enqueue_trial

    with transaction.atomic():
        trial = Trial.objects.for_user(user).select_for_update().filter(pk=trial_id).first()
        if trial is None or not trial.can_retry:
            raise TrialRefused("only a failed trial of yours can be retried")
        # Pending again, it counts at its reserve: what it has not cost yet must fit.
        admit(
            user=user,
            action="trial",
            reserve_usd=max(trial_reserve_usd() - trial.cost_usd, Decimal(0)),
        )
        Trial.objects.filter(pk=trial.pk).update(
            status=TrialStatus.PENDING,
            reason="",
            failure="",
            stopped_phase=None,
            started_at=None,
            finished_at=None,
        )
        transaction.on_commit(lambda: enqueue_trial(trial.pk))
    trial.refresh_from_db()
    return trial


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
            progress = _Progress(trial)
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
    _finish(trial_id, result)
    return Trial.objects.get(pk=trial_id)
