"""Shared test models and helpers for tests/llm."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

from django.conf import settings
from pydantic import BaseModel, Field

from llm import LLMRequest

T = TypeVar("T")

MODEL = "claude-haiku-5-5"
SYSTEM = "You are a patient argumentation coach."
MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "My claim: cities should ban cars."}]


class CoachReply(BaseModel):
    """Shaped like the coach's structured reply: visible text plus machine fields."""

    assistantText: str  # noqa: N815 - the wire name the coach prompt asks for
    proposal: str | None = None
    step: int = Field(ge=1, le=7)


def valid_reply(text: str = 'Good start. What "grounds" support it?') -> dict[str, Any]:
    return {"assistantText": text, "proposal": None, "step": 2}


def call_kwargs(client: Any, **overrides: Any) -> dict[str, Any]:
    """An entry point's keyword arguments: the client and one LLMRequest, ``overrides``
    changing its fields (``text_field``, a stream's own argument, goes beside it)."""
    beside = {"text_field": overrides.pop("text_field")} if "text_field" in overrides else {}
    fields: dict[str, Any] = {
        "model": MODEL,
        "system": SYSTEM,
        "messages": MESSAGES,
        "output_model": CoachReply,
        "max_tokens": 400,
        "prices": settings.LLM_PRICES,
    }
    return {"client": client, "request": LLMRequest(**{**fields, **overrides}), **beside}


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine on a fresh loop (no async test plugin needed)."""
    return asyncio.run(coro)


async def collect(items: AsyncIterator[T]) -> list[T]:
    return [item async for item in items]
