"""Helpers for the coach's tests: run a coroutine, post a turn, read its NDJSON."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.test import AsyncClient
from django.utils import timezone

from tests.classroom.support import work_for_an_assignment

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine on a fresh loop (no async test plugin needed).

    Playwright's sync API (the browser tests) leaves an event loop running in
    the main thread for the rest of the session, and asyncio.run refuses to
    start inside a running loop: then the fresh loop gets a thread of its own.

    The ORM work of async views runs in asgiref's worker thread; its database
    connection is closed afterwards, or PostgreSQL refuses to drop the test
    database at the end of the session ("being accessed by other users").
    """

    async def with_cleanup() -> T:
        try:
            return await coro
        finally:
            await sync_to_async(connections.close_all)()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(with_cleanup())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, with_cleanup()).result()


async def _post_turn(client: AsyncClient, payload: dict[str, Any]) -> tuple[int, str, list[dict]]:
    response = await client.post("/api/coach", data=payload, content_type="application/json")
    if not response.streaming:
        return response.status_code, response["Content-Type"], [json.loads(response.content)]
    body = b"".join([chunk async for chunk in response.streaming_content])
    lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
    return response.status_code, response["Content-Type"], lines


def post_turn(
    user: Any,
    *,
    argument_id: int,
    message: str,
    step: str,
    retry_of: Any = None,
    page_language: str = "",
) -> tuple[int, str, list[dict]]:
    """POST /api/coach as `user` (None: anonymous) from a page in `page_language` (its
    cookie; "": the site's default); (status, content type, parsed lines)."""
    client = AsyncClient()
    if page_language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = page_language
    if user is not None:
        client.force_login(user)
    payload = {"argument_id": argument_id, "message": message, "step": step}
    if retry_of is not None:
        payload["retry_of"] = retry_of
    return run(_post_turn(client, payload))


def coach_result(
    *,
    text: str = "Good start. Which evidence supports it?",
    step: str = "claim",
    **fields: Any,
) -> dict[str, Any]:
    """A CoachAIResult as the model would send it."""
    return {"assistantText": text, "step": step, **fields}


def class_work(*, student: Any, teacher: Any, **rules: Any) -> Any:
    """The student's argument for an assignment with a due date a week away and a turn
    quota, as the coach's main journey has (`rules`: more of the assignment's fields)."""
    return work_for_an_assignment(
        teacher=teacher,
        student=student,
        title="City centres",
        prompt="Should city centres be car-free?",
        due_at=timezone.now() + timedelta(days=7),
        turn_quota=40,
        **rules,
    )


def say_earlier(argument: Any, exchanges: int) -> None:
    """`exchanges` earlier exchanges on the claim step: the student's words, the coach's
    reply and the turn's record each (a long transcript for the query budgets)."""
    from coach.models import CoachMessage, CoachTurn, Role

    for n in range(exchanges):
        said = CoachMessage.objects.create(
            argument=argument, role=Role.USER, text=f"Cars out, take {n}.", step="claim"
        )
        reply = CoachMessage.objects.create(
            argument=argument, role=Role.ASSISTANT, text=f"Why {n}?", step="claim"
        )
        CoachTurn.objects.create(
            argument=argument, step="claim", user_message=said, assistant_message=reply
        )
