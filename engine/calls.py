"""Run one stage's model calls concurrently, paying only for calls not in the ledger.

How the concurrency meets Django's sync ORM: the runner owns a private event
loop (not running between steps) and one ``AsyncAnthropic`` client on it. It
starts every missing call as a task, then repeatedly runs the loop only until
*some* task finishes (``asyncio.wait(FIRST_COMPLETED)``). Between those steps
no loop is running in this thread, so the finished call is written to the
ledger with the ordinary ORM, in this thread, on this thread's connection —
while the other requests keep travelling on their sockets. A stage therefore
lasts about as long as its slowest call, and each paid call is on record
within milliseconds of its reply, whatever happens to the worker later.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from pydantic import BaseModel

from engine.ledger import paid_calls, record_call, record_calls, replay
from llm import (
    LLMError,
    LLMRequest,
    PriceTable,
    StructuredReply,
    Usage,
    acall_structured,
    make_async_client,
    request_hash,
)

__all__ = [
    "CallPlan",
    "CallResult",
    "CallRunner",
    "CallSpec",
    "LedgerFigures",
    "Prompt",
    "ServiceUnavailable",
    "close_thread_runner",
    "thread_runner",
]


class ServiceUnavailable(Exception):
    """Every call of a stage failed and the AI service did not answer at least one.

    Raised by the engine, or by a format's stage that judges its own calls; the
    run ends ``failed`` (``service_unavailable``) and a Retry resumes at the stage.
    """

    def __init__(self, *, stage: str, round: int, codes: list[str]) -> None:
        super().__init__(f"{stage} (round {round}): {', '.join(codes)}")
        self.stage, self.round, self.codes = stage, round, codes


@dataclass(frozen=True, slots=True)
class Prompt:
    """What one call sends: the system prompt and the messages (a format builds it)."""

    system: str
    messages: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class CallSpec:
    """One request of a stage; its hash is its identity in the ledger."""

    stage: str
    round: int
    persona_id: int | None
    model: str
    prompt: Prompt
    output_model: type[BaseModel]
    max_tokens: int
    expected_output_tokens: int
    # Who asks when it is not a persona (an inquiry agent, a tournament model
    # slot): recorded in the ledger, not part of the request's identity.
    agent: str = ""
    # The caller's own label for the call (which match, which side): not sent,
    # not part of the request's identity.
    tag: Any = None
    # A response cache (``lookup(hash, output_model) -> raw text | None`` and
    # ``store(hash, model, reply)``, see tournaments/cache.py): a fresh hit is
    # recorded in the ledger at cost 0, so replay stays exact.
    cache: Any = None
    # Tools the model may use (``definitions`` for the API, ``fingerprint``
    # for the hash, ``run(name, input) -> (text for the model, record)``,
    # ``max_uses``; see tournaments/research.py). The whole exchange is ONE
    # ledger entry: the final reply, with every turn's tokens and cost.
    tools: Any = None

    @property
    def request_hash(self) -> str:
        base = request_hash(
            model=self.model,
            system=self.prompt.system,
            messages=self.prompt.messages,
            output_model=self.output_model,
            max_tokens=self.max_tokens,
        )
        if self.tools is None:
            return base
        return hashlib.sha256(f"{base}:{self.tools.fingerprint}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LedgerFigures:
    """A call's ledger row, as a format reads it: what it cost and how long it took."""

    cost_usd: Decimal
    input_tokens: int
    output_tokens: int
    latency_ms: int

    @classmethod
    def of(cls, row: Any) -> LedgerFigures:
        return cls(row.cost_usd, row.input_tokens, row.output_tokens, row.latency_ms)


@dataclass(frozen=True, slots=True)
class CallResult:
    spec: CallSpec
    parsed: Any | None
    error: LLMError | None
    reused: bool
    cost_usd: Decimal
    # What the model's tool calls returned (tools' records), for a live exchange.
    tool_calls: tuple = ()
    # The request's hash (``spec.request_hash`` recomputes it from the whole
    # prompt) and what its ledger row says, a replayed call's row included:
    # a format reads them here rather than querying the ledger again.
    request_hash: str = ""
    ledger: LedgerFigures | None = None

    @property
    def ok(self) -> bool:
        return self.parsed is not None


@dataclass(frozen=True, slots=True)
class CallPlan:
    """A stage's calls split into those the ledger already holds and those to pay for."""

    specs: tuple[CallSpec, ...]
    replayed: dict[int, CallResult]
    missing: tuple[int, ...]
    # Each spec's request hash, computed once: hashing serialises the whole
    # prompt and schema, and the plan needs it again when recording each call.
    hashes: tuple[str, ...]

    @property
    def unpaid(self) -> list[CallSpec]:
        return [self.specs[i] for i in self.missing]


class CallRunner:
    """A private event loop and one AsyncAnthropic client on it.

    Reuse one per thread (:func:`thread_runner`): a worker process runs debate
    after debate, and a warm client keeps its pooled connections.
    """

    def __init__(self, *, timeout: float, max_retries: int) -> None:
        self._timeout = timeout
        self._max_retries = max_retries
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: Any = None
        self._tasks: set[asyncio.Task] = set()

    def __enter__(self) -> CallRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def cancel_pending(self) -> None:
        """Abandon calls still in flight (after an error in the middle of a stage)."""
        if self._loop is None or not self._tasks:
            return
        for task in self._tasks:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
        self._tasks = set()

    def close(self) -> None:
        if self._loop is None:
            return
        self.cancel_pending()
        if self._client is not None:
            self._loop.run_until_complete(self._client.close())
        self._loop.close()
        self._loop = None
        self._client = None

    def _ensure_client(self) -> asyncio.AbstractEventLoop:
        if self._client is None:
            # Raises LLMError("unavailable") without an API key: nothing is sent.
            self._client = make_async_client(timeout=self._timeout, max_retries=self._max_retries)
            self._loop = asyncio.new_event_loop()
        assert self._loop is not None
        return self._loop

    async def _call(self, spec: CallSpec, prices: PriceTable) -> tuple[Any, LLMError | None, float]:
        started = time.perf_counter()
        call = acall_structured if spec.tools is None else _with_tools(spec.tools)
        try:
            request = LLMRequest(
                model=spec.model,
                system=spec.prompt.system,
                messages=spec.prompt.messages,
                output_model=spec.output_model,
                max_tokens=spec.max_tokens,
                prices=prices,
                deadline_s=settings.LLM_DEADLINE_SECONDS,
                max_reply_chars=settings.LLM_MAX_REPLY_CHARS,
            )
            reply = await call(client=self._client, request=request)
        except LLMError as error:
            return None, error, (time.perf_counter() - started) * 1000.0
        return reply, None, reply.latency_ms

    @staticmethod
    def prepare(
        *, debate_id: int, specs: Sequence[CallSpec], known: set[str] | None = None
    ) -> CallPlan:
        """Look the stage's requests up in the ledger (one query); replay what is there.

        ``known``: every hash the run's ledger holds (``ledger.known_hashes``,
        kept up to date by the caller); only those are looked up, so a stage
        none of whose requests was ever sent makes no query.
        """
        replayed: dict[int, CallResult] = {}
        missing: list[int] = []
        hashes = tuple(spec.request_hash for spec in specs)
        asked = [h for h in hashes if known is None or h in known]
        paid = paid_calls(debate_id=debate_id, hashes=asked)
        for i, spec in enumerate(specs):
            row = paid.get(hashes[i])
            if row is None:
                missing.append(i)
                continue
            outcome = replay(row, output_model=spec.output_model)
            error = outcome if isinstance(outcome, LLMError) else None
            replayed[i] = CallResult(
                spec=spec,
                parsed=None if error else outcome,
                error=error,
                reused=True,
                cost_usd=Decimal(0),
                request_hash=hashes[i],
                ledger=LedgerFigures.of(row),
            )
        return CallPlan(
            specs=tuple(specs), replayed=replayed, missing=tuple(missing), hashes=hashes
        )

    def execute(
        self,
        *,
        debate_id: int,
        plan: CallPlan,
        prices: PriceTable,
        on_result: Callable[[], None] | None = None,
    ) -> list[CallResult]:
        """Pay for the missing calls, all at once; results in the order of the specs."""
        results: dict[int, CallResult] = dict(plan.replayed)
        missing = [i for i in plan.missing if not self._from_cache(debate_id, plan, i, results)]
        if missing:
            loop = self._ensure_client()
            index_of = {loop.create_task(self._call(plan.specs[i], prices)): i for i in missing}
            self._tasks = set(index_of)
            while self._tasks:
                done, self._tasks = loop.run_until_complete(
                    asyncio.wait(self._tasks, return_when=asyncio.FIRST_COMPLETED)
                )
                # Calls that finished together are saved together: one commit.
                finished = sorted(index_of[task] for task in done)
                recorded = self._record_all(debate_id, plan, finished, done, index_of)
                results.update(zip(finished, recorded, strict=True))
                if on_result is not None:
                    on_result()
        return [results[i] for i in range(len(plan.specs))]

    def run(
        self,
        *,
        debate_id: int,
        specs: Sequence[CallSpec],
        prices: PriceTable,
        on_result: Callable[[], None] | None = None,
    ) -> list[CallResult]:
        """prepare + execute."""
        plan = self.prepare(debate_id=debate_id, specs=specs)
        return self.execute(debate_id=debate_id, plan=plan, prices=prices, on_result=on_result)

    @staticmethod
    def _from_cache(debate_id: int, plan: CallPlan, i: int, results: dict) -> bool:
        """Answer a cacheable call from its cache: recorded in the ledger at cost 0."""
        spec = plan.specs[i]
        if spec.cache is None:
            return False
        raw = spec.cache.lookup(plan.hashes[i], spec.output_model)
        if raw is None:
            return False
        reply = StructuredReply(
            parsed=spec.output_model.model_validate_json(raw),
            raw_text=raw,
            usage=Usage(),
            model=spec.model,
            stop_reason="end_turn",
            latency_ms=0.0,
            cost_usd=Decimal(0),
            request_hash=plan.hashes[i],
        )
        with transaction.atomic():
            results[i] = CallRunner._record(debate_id, spec, plan.hashes[i], reply, None, 0.0)
        return True

    @staticmethod
    def _record_all(
        debate_id: int, plan: CallPlan, finished: list[int], done: set, index_of: dict
    ) -> list[CallResult]:
        """Record the calls that finished together: one INSERT, one UPDATE of the total."""
        outcome = {index_of[task]: task.result() for task in done}
        rows = record_calls(
            debate_id=debate_id,
            calls=[_ledger_entry(plan.specs[i], plan.hashes[i], *outcome[i]) for i in finished],
        )
        return [
            CallRunner._result(plan.specs[i], plan.hashes[i], outcome[i][0], outcome[i][1], row)
            for i, row in zip(finished, rows, strict=True)
        ]

    @staticmethod
    def _result(
        spec: CallSpec, request_hash: str, reply: Any, error: LLMError | None, row: Any
    ) -> CallResult:
        if reply is not None and spec.cache is not None and row.cost_usd > 0:
            spec.cache.store(request_hash, spec.model, reply)
        return CallResult(
            spec=spec,
            parsed=reply.parsed if reply is not None else None,
            error=error,
            reused=False,
            cost_usd=row.cost_usd,
            tool_calls=tuple(getattr(reply, "tool_calls", ())),
            request_hash=request_hash,
            ledger=LedgerFigures.of(row),
        )

    @staticmethod
    def _record(
        debate_id: int,
        spec: CallSpec,
        request_hash: str,
        reply: Any,
        error: LLMError | None,
        latency_ms: float,
    ) -> CallResult:
        row = record_call(
            debate_id=debate_id, **_ledger_entry(spec, request_hash, reply, error, latency_ms)
        )
        return CallRunner._result(spec, request_hash, reply, error, row)


def _ledger_entry(
    spec: CallSpec, request_hash: str, reply: Any, error: LLMError | None, latency_ms: float
) -> dict:
    """``record_call``'s keywords for one finished call."""
    return {
        "stage": spec.stage,
        "round": spec.round,
        "persona_id": spec.persona_id,
        "agent": spec.agent,
        "model": spec.model,
        "request_hash": request_hash,
        "reply": reply,
        "error": error,
        "latency_ms": latency_ms,
    }


def _with_tools(tools: Any) -> Callable:
    """``acall_structured``'s signature, running the tool-use exchange of ``tools``."""
    from llm.tools import acall_with_tools

    async def call(**kwargs: Any) -> Any:
        return await acall_with_tools(tools=tools, **kwargs)

    return call


_local = threading.local()


def thread_runner(*, timeout: float, max_retries: int) -> CallRunner:
    """This thread's runner, rebuilt when the settings or the API endpoint/key change."""
    key = (
        timeout,
        max_retries,
        os.environ.get("ANTHROPIC_BASE_URL", ""),
        os.environ.get("ANTHROPIC_API_KEY", ""),
    )
    _close_runners_of_ended_threads()
    cached = getattr(_local, "runner", None)
    if cached is not None and _local.key == key:
        return cached
    close_thread_runner()
    _local.runner = CallRunner(timeout=timeout, max_retries=max_retries)
    _local.key = key
    with _open_lock:
        _open_runners[threading.current_thread()] = _local.runner
    return _local.runner


def close_thread_runner() -> None:
    """Close this thread's runner (a thread that ends should call this)."""
    runner = getattr(_local, "runner", None)
    if runner is not None:
        with _open_lock:
            _open_runners.pop(threading.current_thread(), None)
        runner.close()
        _local.runner = None


# Every runner not yet closed, by its thread, held strongly. A thread that ends without
# close_thread_runner() (a helper thread that runs a debate and forgets it) drops its
# thread-local runner unclosed: the garbage collector later frees its client, and aiohttp
# reports the session and its kept-alive connections unclosed. Held here, such a runner is
# closed from another thread once its own has ended (its loop is not running then): when
# the next runner is handed out, or as the process ends. Runners of threads that live as
# long as the process (the main thread of a Celery worker, a command or a test process;
# the background pool's daemon threads) are closed as the process ends.
_open_runners: dict[threading.Thread, CallRunner] = {}
_open_lock = threading.Lock()


def _close_runners_of_ended_threads() -> None:
    with _open_lock:
        ended = [thread for thread in _open_runners if not thread.is_alive()]
        runners = [_open_runners.pop(thread) for thread in ended]
    for runner in runners:
        runner.close()


@atexit.register
def _close_open_runners() -> None:
    with _open_lock:
        runners = list(_open_runners.values())
        _open_runners.clear()
    for runner in runners:
        # A runner whose thread is running its loop right now is left be.
        with contextlib.suppress(RuntimeError):
            runner.close()
