"""One structured call as one object, and the Messages API request it becomes.

:class:`LLMRequest` is what every entry point takes (``acall_structured``,
``call_structured``, ``astream_structured``, ``acall_with_tools``): what is
sent, the table it is priced by, and the call's bounds. One object rather than
the same nine keywords on four functions, so a new bound or field is added in
one place and every caller and entry point sees it.

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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

from anthropic import transform_schema
from pydantic import BaseModel

from llm.pricing import PriceTable

__all__ = [
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MAX_REPLY_CHARS",
    "LLMRequest",
    "cached_schema",
    "output_schema",
    "request_params",
    "system_param",
]

# Defaults for callers that pass nothing; the site passes its settings
# (LLM_DEADLINE_SECONDS, LLM_MAX_REPLY_CHARS).
DEFAULT_DEADLINE_S = 120.0
# No call here asks for more than 2,500 tokens (about 10,000 characters): a
# reply ten times that long is a misbehaving model, proxy or server.
DEFAULT_MAX_REPLY_CHARS = 100_000


M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class LLMRequest(Generic[M]):
    """One structured call: ask ``model`` for a reply ``output_model`` validates.

    ``prices`` (USD per million tokens, see llm.pricing) price what it bills;
    ``cache_system`` marks the system prompt for prompt caching; ``deadline_s``
    bounds the whole call, retries included, and ``max_reply_chars`` the
    reply's text (llm/errors.py: ``deadline_exceeded``, ``too_large``).
    """

    model: str
    system: str
    messages: list[dict[str, Any]]
    output_model: type[M]
    max_tokens: int
    prices: PriceTable
    cache_system: bool = True
    deadline_s: float = DEFAULT_DEADLINE_S
    max_reply_chars: int = DEFAULT_MAX_REPLY_CHARS


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


def request_params(request: LLMRequest[Any]) -> dict[str, Any]:
    """Keyword arguments for ``messages.create`` / ``messages.stream``."""
    params: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": request.messages,
        # Shared, not copied: the SDK copies a request's whole body before it reads or
        # changes it (``_copy_and_prepare``, anthropic 2.12), so the cache stays intact, and
        # a deep copy per call was ~1 ms of a coach turn under a profiler.
        "output_config": {
            "format": {"type": "json_schema", "schema": cached_schema(request.output_model)}
        },
    }
    system_blocks = system_param(request.system, cache_system=request.cache_system)
    if system_blocks is not None:
        params["system"] = system_blocks
    return params
