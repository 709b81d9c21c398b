"""Run one debate from wherever it stands to its end, safely more than once.

``run_debate(debate_id=...)`` is what the Celery task (and the no-broker
thread, see debates/services.py) calls. In order:

1. Claim the debate (engine/claiming.py): a conditional UPDATE wins it for a
   ``queued`` debate or a ``running`` one whose lease expired. Otherwise
   report ``busy`` (retry later), ``finished`` or ``missing`` and do nothing.
2. First attempt only: record ``debate_start``.
3. Ask the debate's format (engine/formats.py: the graph debate's plan is
   ``decompose, arguments, (attacks r, validation r) for r in 1..R``) for the
   next stage that has no ``StageRun`` row — that is how a resumed run
   continues from its last saved stage. For each such stage: build its calls from the saved state; stop with
   BUDGET if their estimated cost exceeds what is left of the budget;
   run them concurrently (calls already in the ledger are replayed, not paid);
   then, in ONE transaction under the lease, write the stage's rows, its
   events, its ``StageRun`` and, if the stop check fires, the final output and
   ``debate_complete``. A crash anywhere leaves either all of a stage or none
   of it.
4. A stage whose every call failed, at least one because the AI service did
   not answer (overloaded, unreachable, timed out), is not committed: the
   debate ends ``failed`` (``service_unavailable``) with a ``debate_error``
   event, and its owner's Retry (debates/services.py) queues it again: it
   resumes at that stage, and the ledger asks again only the calls the
   service never answered. A missing API key and any unexpected error also
   end it ``failed``, each with its own reason. The page shows the reason as
   a plain sentence; the details stay in ``Debate.error`` for instructors.

Sequential depth 2 + 2R stages; calls 1 + P + R·(P+1) at most (a validation
stage with no attack to judge makes no call).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import events
from engine.between_stages import read_between_stages
from engine.budget import estimate_stage_cost
from engine.calls import CallRunner, ServiceUnavailable, thread_runner
from engine.claiming import Claim, LeaseLost, claim_debate, hold_lease, renew_lease
from engine.formats import Format, get_format
from engine.ledger import known_hashes
from engine.models import Debate, DebateFailure, DebateStatus, StageRun
from engine.stop_reasons import StopReason
from engine.stopping import (
    STOPPED_REASONS,
    StopDecision,
    budget_decision,
    stop_request_decision,
)
from llm import LLMError

__all__ = [
    "FAILURE_SUMMARIES",
    "RunSettings",
    "finish",
    "run_debate",
    "worker_name",
]

logger = logging.getLogger(__name__)

# The start of Debate.error, the details instructors read in the admin (English);
# pages and the debate_error event carry only the failure code.
FAILURE_SUMMARIES = {
    DebateFailure.SERVICE_UNAVAILABLE: "The AI service was unavailable; the debate can be retried.",
    DebateFailure.NO_API_KEY: "An Anthropic API key is needed to run debates.",
    DebateFailure.INTERNAL: "The debate stopped on an unexpected error; it can be retried.",
}


def unanswered_stage(results) -> list[str] | None:
    """The error codes when no call of the stage succeeded because the service failed."""
    errors = [r.error for r in results if not r.ok]
    if not results or len(errors) < len(results):
        return None
    if not any(error is not None and error.is_service_failure for error in errors):
        return None  # the model answered, badly: retrying would only replay that
    return sorted({error.code if error else "unknown" for error in errors})


def worker_name() -> str:
    """A name unique to this attempt: host, process and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class RunSettings:
    lease_seconds: float
    timeout: float
    max_retries: int
    prices: dict
    cheap_model: str

    @classmethod
    def from_django(cls) -> RunSettings:
        return cls(
            lease_seconds=float(settings.DEBATE_LEASE_SECONDS),
            timeout=float(settings.LLM_TIMEOUT_SECONDS),
            max_retries=int(settings.LLM_MAX_RETRIES),
            prices=settings.LLM_PRICES,
            cheap_model=settings.CHEAP_MODEL,
        )


def run_debate(*, debate_id: int, worker: str | None = None) -> Claim:
    """Claim and run (or resume) a debate; returns the claim outcome."""
    config = RunSettings.from_django()
    worker = worker or worker_name()
    claim = claim_debate(debate_id=debate_id, worker=worker, lease_seconds=config.lease_seconds)
    if claim.outcome != "claimed":
        logger.info("debate %s not run by %s: %s", debate_id, worker, claim.outcome)
        return claim
    runner = thread_runner(timeout=config.timeout, max_retries=config.max_retries)
    try:
        try:
            _Run(debate_id=debate_id, worker=worker, config=config, runner=runner).run()
        finally:
            runner.cancel_pending()
    except LeaseLost:
        logger.warning("debate %s: %s lost its lease; the new holder carries on", debate_id, worker)
    except ServiceUnavailable as error:
        logger.warning("debate %s: the AI service did not answer: %s", debate_id, error)
        _fail(
            debate_id,
            worker,
            DebateFailure.SERVICE_UNAVAILABLE,
            f"stage {error.stage}, round {error.round}: {', '.join(error.codes)}",
            where={"stage": error.stage, "round": error.round},
        )
    except LLMError as error:
        if error.code == "unavailable":
            _fail(debate_id, worker, DebateFailure.NO_API_KEY, error.code)
        else:
            logger.exception("debate %s failed", debate_id)
            _fail(debate_id, worker, DebateFailure.INTERNAL, error.code)
    except Exception as error:
        logger.exception("debate %s failed", debate_id)
        _fail(debate_id, worker, DebateFailure.INTERNAL, type(error).__name__)
    return claim


@dataclass
class _Run:
    debate_id: int
    worker: str
    config: RunSettings
    runner: CallRunner

    renewed_at: float = field(default_factory=time.monotonic)
    # Every request hash in the run's ledger: read once, then kept up to date
    # with the calls this run records, so a stage whose requests were never
    # sent does not look them up (only a resumed run has any to replay).
    ledger: set[str] = field(default_factory=set)

    def renew(self) -> None:
        """Extend the lease once a quarter of it has gone by (each renewal is a commit)."""
        if time.monotonic() - self.renewed_at < self.config.lease_seconds / 4:
            return
        renew_lease(
            debate_id=self.debate_id, worker=self.worker, lease_seconds=self.config.lease_seconds
        )
        self.renewed_at = time.monotonic()

    def run(self) -> None:
        debate = Debate.objects.get(pk=self.debate_id)
        fmt = get_format(debate.format)
        if debate.event_seq == 0:
            with transaction.atomic():
                debate = hold_lease(debate_id=self.debate_id, worker=self.worker)
                events.record_event(
                    debate=debate, type=events.DEBATE_START, payload=fmt.start_payload(debate)
                )
        done = frozenset(
            StageRun.objects.filter(debate=debate.pk).order_by().values_list("name", "round")
        )
        self.ledger = known_hashes(debate_id=self.debate_id)
        # The state a stage commits is the next stage's input: read once, passed on.
        state = fmt.load_state(debate)
        while (step := fmt.next_stage(debate, state, done)) is not None:
            if step in done:  # a format must move on; never run a saved stage twice
                raise RuntimeError(f"format {fmt.name} repeated the saved stage {step}")
            name, round = step
            state = self.run_stage(fmt, debate, name, round, state)
            if state is None:
                return
            done = done | {step}
            read_between_stages(debate)
        # No stage left and none stopped the run (a graph debate's last validation always does).
        with transaction.atomic():
            locked = hold_lease(debate_id=self.debate_id, worker=self.worker)
            with events.stage_events(locked):
                finish(
                    locked,
                    StopDecision.coded(StopReason.MAX_ROUNDS, "all_rounds_done"),
                    state=state,
                )

    def run_stage(self, fmt: Format, debate: Debate, name: str, round: int, state):
        """Run one stage from ``state``; the state after it, or None when the debate ended."""
        self.renew()
        stage = fmt.stages[name]
        # The row is read fresh after every stage, so a request to stop made
        # while a stage ran is seen here, before anything of the next is paid.
        stop = stop_request_decision(
            requested=debate.stop_requested_at is not None, next_stage=name, round=round
        )
        if stop is None:
            specs = stage.specs(state=state, round=round, cheap_model=self.config.cheap_model)
            plan = self.runner.prepare(debate_id=debate.pk, specs=specs, known=self.ledger)
            stop = budget_decision(
                budget=debate.budget_usd,
                # The row's running total (the ledger's sum, kept in step in the same
                # transaction as each call; read fresh after every stage): no SUM query.
                spent=debate.cost_usd,
                next_stage=name,
                round=round,
                estimate=estimate_stage_cost(plan.unpaid, prices=self.config.prices),
            )
        if stop is not None:
            with transaction.atomic():
                locked = hold_lease(debate_id=self.debate_id, worker=self.worker)
                with events.stage_events(locked):
                    finish(locked, stop, state=state)
            return None
        try:
            results = self.runner.execute(
                debate_id=debate.pk, plan=plan, prices=self.config.prices, on_result=self.renew
            )
        finally:
            self.ledger.update(plan.hashes)  # recorded, or the run is ending anyway
        if codes := unanswered_stage(results):
            raise ServiceUnavailable(stage=name, round=round, codes=codes)
        with transaction.atomic():
            locked = hold_lease(debate_id=self.debate_id, worker=self.worker)
            with events.stage_events(locked):
                return self._commit(fmt, stage, locked, name, round, state, specs, results)

    @staticmethod
    def _commit(fmt: Format, stage, locked: Debate, name, round, state, specs, results):
        """Inside the stage's transaction: its rows, events, StageRun and maybe the finish."""
        outcome = stage.commit(debate=locked, state=state, round=round, results=results)
        stage_run = StageRun.objects.create(
            debate=locked,
            name=name,
            round=round,
            input_hash=fmt.state_hash(state),
            output_hash=fmt.state_hash(outcome.after),
            calls=len(specs),
            cost_usd=sum((r.cost_usd for r in results), Decimal(0)),
        )
        if fmt.after_stage is not None:
            fmt.after_stage(
                debate=locked, stage_run=stage_run, before=state, outcome=outcome, results=results
            )
        if outcome.stop is not None:
            finish(locked, outcome.stop, state=outcome.after)
            return None
        return outcome.after


def finish(debate: Debate, decision: StopDecision, *, state=None) -> None:
    """Inside the stage's transaction: store the outcome and announce the end."""
    fmt = get_format(debate.format)
    if state is None:
        state = fmt.load_state(debate)
    output = fmt.final_output(debate, decision, state=state)
    if fmt.final_status is not None:
        status = fmt.final_status(decision)
    else:
        status = DebateStatus.STOPPED if decision.reason in STOPPED_REASONS else DebateStatus.DONE
    if fmt.on_finish is not None:
        fmt.on_finish(debate, decision, output)
    cost = Debate.objects.filter(pk=debate.pk).values_list("cost_usd", flat=True).get()
    # What people read is stored as the code and its parameters, worded when shown
    # (engine/stop_messages.py); only a decision without a code keeps its sentence.
    sentence = {} if decision.code else {"detail": decision.detail}
    events.record_event(
        debate=debate,
        type=events.DEBATE_COMPLETE,
        payload={
            "status": str(status),
            "stop_reason": decision.reason.value,
            **sentence,
            "code": decision.code,
            "params": decision.params,
            "round": debate.rounds_completed,
            "cost_usd": str(cost),
            "output": output,
        },
    )
    Debate.objects.filter(pk=debate.pk).update(
        status=status,
        stop_reason=decision.reason.value,
        stop_detail=sentence.get("detail", ""),
        stop_code=decision.code,
        stop_params=decision.params,
        output=output,
        finished_at=timezone.now(),
        lease_expires_at=None,
        updated_at=timezone.now(),
    )


def _fail(
    debate_id: int, worker: str, failure: DebateFailure, detail: str, *, where: dict | None = None
) -> None:
    """End the debate ``failed``: ``detail`` (codes, an exception's class) is for instructors."""
    message = FAILURE_SUMMARIES[failure]
    try:
        with transaction.atomic():
            debate = hold_lease(debate_id=debate_id, worker=worker)
            events.record_event(
                debate=debate,
                type=events.DEBATE_ERROR,
                # The code only: pages word it in the reader's language (older events
                # also carry an English "error", which the live page falls back to).
                payload={"failure": failure.value, **(where or {})},
            )
            Debate.objects.filter(pk=debate_id).update(
                status=DebateStatus.FAILED,
                failure=failure,
                error=f"{message} ({detail})"[:2000],
                finished_at=timezone.now(),
                lease_expires_at=None,
                updated_at=timezone.now(),
            )
    except LeaseLost:
        logger.warning("debate %s: not marked failed, %s lost its lease", debate_id, worker)
