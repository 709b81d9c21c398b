"""Helpers for the coach's tests: run a coroutine, post a turn, read its NDJSON."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any, TypeVar

from django.test import AsyncClient

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine on a fresh loop (no async test plugin needed)."""
    return asyncio.run(coro)


async def _post_turn(client: AsyncClient, payload: dict[str, Any]) -> tuple[int, str, list[dict]]:
    response = await client.post("/api/coach", data=payload, content_type="application/json")
    if not response.streaming:
        return response.status_code, response["Content-Type"], [json.loads(response.content)]
    body = b"".join([chunk async for chunk in response.streaming_content])
    lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
    return response.status_code, response["Content-Type"], lines


def post_turn(
    user: Any, *, argument_id: int, message: str, step: str
) -> tuple[int, str, list[dict]]:
    """POST /api/coach as `user` (None: anonymous); (status, content type, parsed lines)."""
    client = AsyncClient()
    if user is not None:
        client.force_login(user)
    payload = {"argument_id": argument_id, "message": message, "step": step}
    return run(_post_turn(client, payload))


def coach_result(
    *,
    text: str = "Good start. Which evidence supports it?",
    step: str = "claim",
    **fields: Any,
) -> dict[str, Any]:
    """A CoachAIResult as the model would send it."""
    return {"assistantText": text, "step": step, **fields}
