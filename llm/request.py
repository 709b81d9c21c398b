"""The keyword arguments of one Messages API request with structured output.

We send ``output_config={"format": {"type": "json_schema", "schema": ...}}``
built with the SDK's own ``transform_schema`` — the same bytes that
``messages.parse(output_format=Model)`` puts on the wire — but we validate the
reply ourselves. Reason (checked in anthropic 2.12): ``parse`` and
``stream(output_format=)`` validate inside the SDK and raise a bare pydantic
error, losing the usage that was billed and the raw text; when streaming they
validate at ``content_block_stop``, *before* ``message_delta`` tells us the
stop_reason, so a max_tokens cut would look like bad JSON instead of
"truncated".
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from anthropic import transform_schema
from pydantic import BaseModel

__all__ = ["cached_schema", "output_schema", "request_params", "system_param"]


@lru_cache(maxsize=256)
def cached_schema(output_model: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema for ``output_model``, shared: for readers that never mutate it."""
    return transform_schema(output_model)


def output_schema(output_model: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema sent for ``output_model`` (a fresh copy, safe to mutate)."""
    return copy.deepcopy(cached_schema(output_model))


def system_param(system: str, *, cache_system: bool) -> list[dict[str, Any]] | None:
    """The ``system`` field: one text block, marked for prompt caching if asked.

    An empty prompt is left out entirely: the API rejects empty text blocks.
    """
    if not system:
        return None
    block: dict[str, Any] = {"type": "text", "text": system}
    if cache_system:
        block["cache_control"] = {"type": "ephemeral"}
    return [block]


def request_params(
    *,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[BaseModel],
    max_tokens: int,
    cache_system: bool,
) -> dict[str, Any]:
    """Keyword arguments for ``messages.create`` / ``messages.stream``."""
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "messages": messages,
        # Shared, not copied: the SDK copies a request's whole body before it reads or
        # changes it (``_copy_and_prepare``, anthropic 2.12), so the cache stays intact, and
        # a deep copy per call was ~1 ms of a coach turn under a profiler.
        "output_config": {"format": {"type": "json_schema", "schema": cached_schema(output_model)}},
    }
    system_blocks = system_param(system, cache_system=cache_system)
    if system_blocks is not None:
        params["system"] = system_blocks
    return params
