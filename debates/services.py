"""Starting debates: the one function the new-debate view calls, and the cost estimate.

How a debate runs depends on whether there is a broker:

- With ``REDIS_URL`` (Celery not eager): ``create_debate`` enqueues the task
  with ``delay_on_commit``, so a worker never looks for a row that is not
  committed yet. Start workers with ``make worker``.
- Without it (``make run``'s default, ``CELERY_TASK_ALWAYS_EAGER``): an eager
  task would run the whole debate inside the POST that created it. Instead,
  on commit, the debate runs in a daemon thread of the web process, through
  the same orchestrator; the SSE view follows it by polling the event table.
  A server restart kills such threads: ``manage.py resume_debates`` (or
  :func:`resume_stale_debates`) starts again every debate whose lease expired,
  and it resumes from its last saved stage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, DecimalField, F, Q, When
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import ngettext

from config.background import run_in_background_on_commit
from debates import events, orchestrator
from debates.budget import estimate_debate_cost
from debates.calls import close_thread_runner
from debates.models import MAX_ROUNDS, MIN_ROUNDS, Debate, DebateStatus, Persona
from limits.services import LimitReached, admit, is_exempt, lock_user
from llm import api_key_configured

__all__ = [
    "MIN_PERSONAS",
    "create_debate",
    "debate_cost",
    "debates_available",
    "estimate_cost",
    "launch",
    "resume_stale_debates",
    "retry_debate",
]


MIN_PERSONAS = 2
NO_KEY_MESSAGE = "An Anthropic API key (ANTHROPIC_API_KEY) is needed to run debates."


def debates_available() -> bool:
    """Debates need the model: without an API key, the pages say a key is needed."""
    return api_key_configured()


def estimate_cost(*, personas: Iterable[Persona], rounds: int) -> Decimal:
    """Estimated USD cost of a full debate, shown before it starts (rounded up to cents)."""
    estimate = estimate_debate_cost(
        persona_models=[p.effective_model for p in personas],
        rounds=rounds,
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
    )
    return estimate.quantize(Decimal("0.01"), rounding="ROUND_CEILING")


def create_debate(
    *,
    topic: str,
    persona_ids: Sequence[int],
    max_rounds: int,
    budget_usd: Decimal,
    creator,
) -> Debate:
    """Save a queued debate and have it run once the transaction commits."""
    if not debates_available():
        raise ValidationError(NO_KEY_MESSAGE, code="no_api_key")
    topic = (topic or "").strip()
    if not topic:
        raise ValidationError("A debate needs a topic.", code="topic")
    personas = list(Persona.objects.filter(pk__in=set(persona_ids), active=True))
    if len(personas) < MIN_PERSONAS:
        raise ValidationError(f"Choose at least {MIN_PERSONAS} active personas.", code="personas")
    if not MIN_ROUNDS <= int(max_rounds) <= MAX_ROUNDS:
        raise ValidationError(
            f"Rounds must be between {MIN_ROUNDS} and {MAX_ROUNDS}.", code="rounds"
        )
    budget = Decimal(budget_usd)
    if budget <= 0:
        raise ValidationError("The budget must be positive.", code="budget")
    with transaction.atomic():
        if getattr(creator, "is_authenticated", False):
            _admit(user=creator, budget=budget)
        debate = Debate.objects.create(
            topic=topic,
            max_rounds=int(max_rounds),
            budget_usd=budget,
            creator=creator if getattr(creator, "is_authenticated", False) else None,
        )
        debate.personas.set(personas)
        launch(debate.pk)
    return debate


class RetryRefused(ValueError):
    """Only a failed debate can be retried, and only by whoever started it."""


def retry_debate(*, debate_id: int, user) -> Debate:
    """Queue a failed debate again; it resumes from its last saved stage.

    Nothing is repeated that was saved: stages with a ``StageRun`` are
    skipped, paid calls are replayed from the ledger, and only the calls the
    service never answered are asked again (debates/ledger.py). A
    ``debate_resumed`` event tells the live page the log goes on.
    """
    if not debates_available():
        raise RetryRefused(NO_KEY_MESSAGE)
    with transaction.atomic():
        debate = (
            Debate.objects.select_for_update()
            .filter(pk=debate_id, creator_id=getattr(user, "pk", None))
            .first()
        )
        if debate is None or not debate.can_retry:
            raise RetryRefused("only a failed debate of yours can be retried")
        # Queued again, it counts at its whole budget: the part not spent yet
        # must fit the quota, and it runs again, so the running cap applies.
        _admit(user=user, budget=max(debate.budget_usd - debate.cost_usd, Decimal(0)))
        events.record_event(
            debate=debate,
            type=events.DEBATE_RESUMED,
            payload={"round": debate.rounds_completed, "after": debate.failure},
        )
        Debate.objects.filter(pk=debate.pk).update(
            status=DebateStatus.QUEUED,
            failure="",
            error="",
            finished_at=None,
            claimed_by="",
            lease_expires_at=None,
            updated_at=timezone.now(),
        )
        launch(debate.pk)
    debate.refresh_from_db()
    return debate


def _admit(*, user, budget: Decimal) -> None:
    """The creator's limits, before the row that counts against them is saved.

    Call inside the transaction that saves the debate: the user's row is
    locked, so two tabs cannot both squeeze under the same cap or quota.
    The whole budget is reserved (see `debate_cost`).
    """
    lock_user(user)
    cap = settings.MAX_RUNNING_DEBATES_PER_USER
    if cap > 0 and not is_exempt(user):
        running = Debate.objects.filter(
            creator=user, status__in=[DebateStatus.QUEUED, DebateStatus.RUNNING]
        ).count()
        if running >= cap:
            raise LimitReached(
                ngettext(
                    "You already have %(count)d debate queued or running. "
                    "Wait until it finishes, then start the next one.",
                    "You already have %(count)d debates queued or running. "
                    "Wait until one finishes, then start the next one.",
                    running,
                )
                % {"count": running},
                code="too_many_running",
            )
    admit(user=user, action="debate", reserve_usd=budget)


def debate_cost() -> Case:
    """What a debate counts against its creator's quota (limits.services).

    Finished: what it cost. Queued or running: its whole budget, or its cost
    if that went higher (the budget check estimates each stage before it
    runs). A failed debate that is retried counts its budget again.
    """
    return Case(
        When(
            status__in=[DebateStatus.QUEUED, DebateStatus.RUNNING],
            then=Greatest(F("cost_usd"), F("budget_usd")),
        ),
        default=F("cost_usd"),
        output_field=DecimalField(max_digits=14, decimal_places=6),
    )


def launch(debate_id: int) -> None:
    """Run the debate after the current transaction commits (see config/background.py)."""
    from debates.tasks import run_debate

    run_in_background_on_commit(
        task=run_debate, target=_run_here, object_id=debate_id, name=f"debate-{debate_id}"
    )


def _run_here(debate_id: int) -> None:
    try:
        orchestrator.run_debate(debate_id=debate_id)
    finally:
        close_thread_runner()  # the thread's private event loop and model client


def resume_stale_debates() -> list[int]:
    """Relaunch debates nobody is running: running with an expired lease, or never claimed."""
    now = timezone.now()
    stale = Debate.objects.filter(
        Q(status=DebateStatus.RUNNING, lease_expires_at__lt=now)
        | Q(
            status=DebateStatus.QUEUED,
            created_at__lt=now - timedelta(seconds=settings.DEBATE_LEASE_SECONDS),
        )
    ).values_list("pk", flat=True)
    ids = list(stale)
    for debate_id in ids:
        with transaction.atomic():
            launch(debate_id)
    return ids
