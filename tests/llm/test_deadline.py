"""One deadline over a stream's reads (llm/deadline.py), none over the caller's own awaits."""

from __future__ import annotations

import asyncio

import pytest

from llm.deadline import ReadDeadline


def run(coro):
    return asyncio.run(coro)


def test_it_gives_a_read_that_ends_in_time_its_value() -> None:
    async def main() -> int:
        reads = ReadDeadline(asyncio.get_running_loop().time() + 5)
        try:
            return await reads.read(asyncio.sleep(0.01, result=7))
        finally:
            reads.close()

    assert run(main()) == 7


def test_it_ends_a_read_still_waiting_at_the_deadline() -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        reads = ReadDeadline(started + 0.05)
        with pytest.raises(TimeoutError):
            await reads.read(asyncio.sleep(10))
        reads.close()
        assert asyncio.current_task().cancelling() == 0  # nothing left to cancel the task later
        await asyncio.sleep(0.02)  # and the task goes on
        return loop.time() - started

    assert run(main()) < 1


def test_it_never_cancels_what_the_caller_awaits_between_reads() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        reads = ReadDeadline(loop.time() + 0.05)
        assert await reads.read(asyncio.sleep(0, result="first")) == "first"
        await asyncio.sleep(0.1)  # the caller's own wait, past the deadline: not cancelled
        never_started = asyncio.sleep(0)
        with pytest.raises(TimeoutError):  # the next read fails at once
            await reads.read(never_started)
        reads.close()

    run(main())


def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    async def reader(reads: ReadDeadline) -> None:
        await reads.read(asyncio.sleep(10))

    async def main() -> None:
        reads = ReadDeadline(asyncio.get_running_loop().time() + 5)
        task = asyncio.create_task(reader(reads))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        reads.close()

    run(main())


def test_it_cancels_the_task_that_reads_not_the_one_that_made_it() -> None:
    async def main() -> None:
        reads = ReadDeadline(asyncio.get_running_loop().time() + 0.05)
        bystander = asyncio.create_task(asyncio.sleep(0.2, result="untouched"))
        reader = asyncio.create_task(reads.read(asyncio.sleep(10)))
        with pytest.raises(TimeoutError):
            await reader
        assert await bystander == "untouched"
        reads.close()

    run(main())
