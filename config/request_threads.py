"""Django's ASGI handler, with each request's sync thread taken from a pool, not started anew.

Under ASGI, Django runs a request's sync code (its middlewares' methods, a sync
view, the ORM) in a thread of the request's own: ``ASGIHandler.__call__``
enters asgiref's ``ThreadSensitiveContext``, which makes a new one-thread
executor per request. Its thread is started by the first ``sync_to_async``
call, in the event loop's thread, and ``Thread.start`` waits there until the
new thread has run: with twenty students' turns holding the GIL that wait is
a switch interval or more, per request. A profile of the web process during
``benchmarks upload_abuse`` found the loop thread in
``Thread.start`` for a fifth of its samples.

``PooledThreadsASGIHandler`` hands each request an idle one-thread executor
instead (asgiref's ``ThreadSensitiveContext(executor=...)``, "the caller
owns the executor ... so the executor can be used again"). One request still
has one thread to itself, so thread-sensitive code keeps its guarantee. An
executor goes back to the pool only when everything submitted to it has run
(a request cancelled by its client may leave a call still running), so no
request queues behind another's leftover work; it counts its unfinished calls,
so when none is left (the usual case) it goes back at once, without waking its
thread to run an empty call first. Thread-local state outlives a
request as it does under a threaded WSGI server; Django closes the request's
database connections at its end (``request_finished``) in that same thread.

The handler also runs the whole middleware chain, the view middleware and the
view in that thread with ONE hop from the event loop. Django's ASGI handler
builds its chain for async (``load_middleware(is_async=True)``); the site's
middleware is sync (its own, django-axes'), so every request went loop ->
thread (the chain) -> loop (``AsyncToSync`` for Django's async inner handler)
-> thread again for each sync ``process_view`` (CSRF, the sign-in throttle) and
for a sync view: a coach turn made eight thread hops. Built for sync and
entered once, the chain makes one; an async view is still awaited (Django's
sync handler runs it with ``async_to_sync``), and a streaming response with an
async iterator is still sent from the event loop (``ASGIHandler.send_response``).

Django's ``handle`` adds two hops of its own: one for ``request_started``'s
receivers before the chain (Django's: close stale database connections, reset
the query log) and one for ``response.close()`` after the response is sent
(``request_finished``: the connection goes back to the pool). Here the
receivers run in the chain's hop, first, in the request's thread as before;
and a response whose body is already in memory is closed in that hop too,
before it is sent: nothing of it remains to be produced, and the connection
is given back sooner. A page costs one hop instead of three. A streamed
response is closed once it has been sent, in a hop of its own, unless its
iterator closed it already: one whose last sync work is done before its last
lines (a coach turn stores its reply, then sends the line that names it) calls
that work through ``then_close_response``, which closes the response in the
same hop, so a turn crosses twice, not three times. ``handle`` is Django 5.2's
with those changes (a test holds the copy to Django's source).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import inspect
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpRequest, HttpResponseBase
from django.urls import set_script_prefix

__all__ = ["POOLABLE", "PooledThreadsASGIHandler", "RequestThreads", "then_close_response"]

# ThreadSensitiveContext takes an executor in asgiref 3.13 (the version installed with
# Django 5.2 here); with an asgiref that does not, config/asgi.py keeps Django's handler.
POOLABLE = "executor" in inspect.signature(ThreadSensitiveContext).parameters


def _nothing() -> None:
    return None


# The streamed response the request's iterator is producing: set in the chain's hop,
# which asgiref copies back to the event loop's side, where the iterator runs.
_streamed: ContextVar[HttpResponseBase | None] = ContextVar("streamed_response", default=None)


def then_close_response(work: Callable[..., Any]) -> Callable[..., Any]:
    """`work`, then the streamed response this request is sending closed in the same thread.

    For a streamed response's LAST sync work (run with ``sync_to_async``): after it
    the iterator may still yield lines, but must touch no database, since the
    request's connections go back with ``request_finished`` (from the loop it could
    only through another hop into a thread: ``tests/coach/test_turn_thread_hops.py``
    counts a turn's hops, answered and failed). Closing here saves the
    handler's own hop to close it once the last byte is sent (the module
    docstring). Outside this handler, or if `work` raises, nothing is closed here.
    """

    @functools.wraps(work)
    def work_then_close(*args: Any, **kwargs: Any) -> Any:
        result = work(*args, **kwargs)
        response = _streamed.get()
        if response is not None and not getattr(response, "_closed_in_request_thread", False):
            response.close()
            response._closed_in_request_thread = True
        return result

    return work_then_close


class _RequestExecutor(ThreadPoolExecutor):
    """One thread, and a count of the calls submitted to it that have not finished."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._unfinished = 0
        self._count_lock = threading.Lock()

    @property
    def unfinished(self) -> int:
        return self._unfinished

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future:
        with self._count_lock:
            self._unfinished += 1

        def counted() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:
                with self._count_lock:
                    self._unfinished -= 1

        return super().submit(counted)


class RequestThreads:
    """Idle one-thread executors, at most `keep` of them; more are made when all are busy."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        # deque: appended from worker threads (a done callback), popped in the loop.
        self._idle: collections.deque[_RequestExecutor] = collections.deque()

    def __len__(self) -> int:
        return len(self._idle)

    def take(self) -> _RequestExecutor:
        try:
            return self._idle.pop()  # the most recently used: its thread is likely warm
        except IndexError:
            return _RequestExecutor()

    def give_back(self, executor: _RequestExecutor) -> None:
        """Idle again at once when every call of the request has finished (the usual case);
        else once the work still queued on it has run (FIFO, one worker)."""
        if executor.unfinished == 0:
            # Nothing runs or waits on it, and only the next request to take it submits
            # more: no need to wake its thread to find that out.
            self._keep_or_stop(executor)
            return
        executor.submit(_nothing).add_done_callback(lambda _: self._keep_or_stop(executor))

    def _keep_or_stop(self, executor: _RequestExecutor) -> None:
        if len(self._idle) < self.keep:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)


class PooledThreadsASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose per-request thread-sensitive executor comes from `threads`."""

    def __init__(self, threads: RequestThreads) -> None:
        super().__init__()
        self.threads = threads

    def load_middleware(self, is_async: bool = False) -> None:
        # The chain built for sync, entered from the loop once (the module docstring).
        super().load_middleware(is_async=False)
        if is_async:
            chain = self._middleware_chain

            def started_chain_finished(request: HttpRequest) -> HttpResponseBase:
                signals.request_started.send(sender=self.__class__, scope=request.scope)
                response = chain(request)
                if not response.streaming:
                    # What get_response_async adds once the chain returns (the request's
                    # uploaded files are closed with the response), and the sender close() names.
                    response._resource_closers.append(request.close)
                    response._handler_class = self.__class__
                    response.close()  # request_finished, before the bytes go (docstring)
                    response._closed_in_request_thread = True
                else:
                    _streamed.set(response)  # for then_close_response
                return response

            self._middleware_chain = sync_to_async(started_chain_finished, thread_sensitive=True)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            # As ASGIHandler: Django serves only HTTP connections.
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give_back(executor)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django 5.2's ``ASGIHandler.handle``, without its own hops (the module docstring):
        ``request_started`` is sent in the chain's hop, and a response closed there is not
        closed again."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            await signals.request_started.asend(sender=self.__class__, scope=scope)
            body_file.close()
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return

        async def process_request(request: HttpRequest, send: Any) -> HttpResponseBase:
            response = await self.run_get_response(request)
            with contextlib.suppress(asyncio.CancelledError):  # the client went away meanwhile
                await self.send_response(response, send)
            return response

        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(process_request(request, send)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                try:
                    task.result()
                except RequestAborted:
                    pass  # the client went away
                except AssertionError:
                    body_file.close()
                    raise
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:
            response = tasks[1].result()
        except asyncio.CancelledError:
            await signals.request_finished.asend(sender=self.__class__)
        else:
            if not getattr(response, "_closed_in_request_thread", False):
                await sync_to_async(response.close)()
        body_file.close()
