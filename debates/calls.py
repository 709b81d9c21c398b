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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from debates.ledger import find_call, record_call, replay
from debates.prompts import Prompt
from llm import LLMError, PriceTable, acall_structured, make_async_client, request_hash

__all__ = ["CallResult", "CallRunner", "CallSpec"]


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

    @property
    def request_hash(self) -> str:
        return request_hash(
            model=self.model,
            system=self.prompt.system,
            messages=self.prompt.messages,
            output_model=self.output_model,
            max_tokens=self.max_tokens,
        )


@dataclass(frozen=True, slots=True)
class CallResult:
    spec: CallSpec
    parsed: Any | None
    error: LLMError | None
    reused: bool
    cost_usd: Decimal

    @property
    def ok(self) -> bool:
        return self.parsed is not None


class CallRunner:
    """A loop and a client for one debate run; use as a context manager."""

    def __init__(self, *, timeout: float, max_retries: int, prices: PriceTable) -> None:
        self._timeout = timeout
        self._max_retries = max_retries
        self._prices = prices
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: Any = None
        self._tasks: set[asyncio.Task] = set()

    def __enter__(self) -> CallRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._loop is None:
            return
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            self._loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
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

    async def _call(self, spec: CallSpec) -> tuple[Any, LLMError | None, float]:
        started = time.perf_counter()
        try:
            reply = await acall_structured(
                client=self._client,
                model=spec.model,
                system=spec.prompt.system,
                messages=spec.prompt.messages,
                output_model=spec.output_model,
                max_tokens=spec.max_tokens,
                prices=self._prices,
            )
        except LLMError as error:
            return None, error, (time.perf_counter() - started) * 1000.0
        return reply, None, reply.latency_ms

    def run(
        self,
        *,
        debate_id: int,
        specs: Sequence[CallSpec],
        on_result: Callable[[], None] | None = None,
    ) -> list[CallResult]:
        """Results in the order of ``specs``; ledger rows replace calls already paid."""
        results: list[CallResult | None] = [None] * len(specs)
        missing: list[int] = []
        for i, spec in enumerate(specs):
            row = find_call(debate_id=debate_id, request_hash=spec.request_hash)
            if row is None:
                missing.append(i)
                continue
            outcome = replay(row, output_model=spec.output_model)
            error = outcome if isinstance(outcome, LLMError) else None
            results[i] = CallResult(
                spec=spec,
                parsed=None if error else outcome,
                error=error,
                reused=True,
                cost_usd=Decimal(0),
            )
        if missing:
            loop = self._ensure_client()
            index_of = {loop.create_task(self._call(specs[i])): i for i in missing}
            self._tasks = set(index_of)
            while self._tasks:
                done, self._tasks = loop.run_until_complete(
                    asyncio.wait(self._tasks, return_when=asyncio.FIRST_COMPLETED)
                )
                for task in done:
                    i = index_of[task]
                    results[i] = self._record(debate_id, specs[i], *task.result())
                    if on_result is not None:
                        on_result()
        return [result for result in results if result is not None]

    @staticmethod
    def _record(
        debate_id: int, spec: CallSpec, reply: Any, error: LLMError | None, latency_ms: float
    ) -> CallResult:
        row = record_call(
            debate_id=debate_id,
            stage=spec.stage,
            round=spec.round,
            persona_id=spec.persona_id,
            model=spec.model,
            request_hash=spec.request_hash,
            reply=reply,
            error=error,
            latency_ms=latency_ms,
        )
        return CallResult(
            spec=spec,
            parsed=reply.parsed if reply is not None else None,
            error=error,
            reused=False,
            cost_usd=row.cost_usd,
        )
