"""What a trial does: start one, retry it, hand the stale ones out again.

- `start_trial` records the query (the student's argument or question) and
  hands the trial to the background once the transaction commits.
- Running it is trials/runner.py's `run_trial`.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Case, DecimalField, F, Value, When
from django.db.models.functions import Cast, Greatest

from coach.models import Argument
from coach.steps import STEPS
from limits.services import admit
from llm import Usage, cost_usd
from trials.background import enqueue_trial
from trials.models import Trial, TrialStatus
from trials.query import argument_query, question_query
from trials.runner import PHASE_MAX_TOKENS, stale_trials

__all__ = [
    "MAX_QUESTION_CHARS",
    "TrialRefused",
    "resume_stale_trials",
    "retry_trial",
    "start_trial",
    "trial_cost",
    "trial_reserve_usd",
]

MAX_QUESTION_CHARS = 2000


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


def resume_stale_trials() -> list[int]:
    """Hand every stale trial to the background again; each resumes after its last saved phase."""
    stale = list(Trial.objects.filter(stale_trials()).values_list("pk", flat=True))
    for trial_id in stale:
        enqueue_trial(trial_id)
    return stale


def retry_trial(*, trial_id: int, user) -> Trial:
    """Run a failed trial of ``user``'s again, without retyping anything.

    It carries on after its last saved phase (``run_chain`` re-validates and
    reuses those); the calls already made stay in ``calls`` for instructors,
    and the new ones are added after them.
    """
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
