"""llm: the only package that imports `anthropic`.

Framework-free (no Django): callers pass settings values explicitly —
``settings.LLM_TIMEOUT_SECONDS``, ``settings.LLM_MAX_RETRIES``,
``settings.LLM_PRICES``, the model names.

Public API
----------
``LLMError(code, detail, *, usage, cost_usd, raw_text, status_code)``
    ``.code`` is one of ``"unavailable"`` (no ANTHROPIC_API_KEY),
    ``"call_failed"`` (HTTP/API error after the SDK's bounded retries, timeout,
    connection error), ``"stream_failed"`` (stream broke off: no stop_reason,
    ``event: error``, connection cut), ``"validation_failed"`` (not JSON, fails
    the model, no text, refusal), ``"truncated"`` (stop_reason max_tokens),
    ``"too_large"`` (the reply passed ``max_reply_chars``), ``"deadline_exceeded"``
    (the whole call, retries included, took longer than ``deadline_s``).
    ``.usage``/``.cost_usd`` say what was billed before the failure, if known.
``Usage``
    frozen: input_tokens, output_tokens, cache_creation_input_tokens,
    cache_read_input_tokens; ``+`` sums two.
``StructuredReply[M]``
    frozen: parsed, raw_text, usage, model, stop_reason, latency_ms,
    cost_usd (Decimal), request_hash, first_text_ms (streams), request_id.
``api_key_configured() -> bool``
``make_async_client(*, timeout, max_retries)`` / ``make_client(...)``
    SDK clients; the SDK reads ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL.
    Raise LLMError("unavailable") without a key.
``request_hash(*, model, system, messages, output_model, max_tokens) -> str``
    sha256 of a canonical JSON of the request incl. the output schema.
``cost_usd(*, model, usage, prices) -> Decimal``
    ``prices`` (the site's one table, ``settings.LLM_PRICES``) are USD per
    million tokens: {"model": {"input", "output", "cache_write", "cache_read"}}.
    Lookup: exact model, else longest key the model starts with, else
    "default", else $0 with a logged warning.
    Missing cache prices derive from input (x1.25 write, x0.1 read).
``LLMRequest(model, system, messages, output_model, max_tokens, prices,
cache_system=True, deadline_s=120, max_reply_chars=100_000)``
    frozen: one call, what every entry point below takes. Every call has an
    overall deadline (``settings.LLM_DEADLINE_SECONDS``) and a cap on the
    reply's length (``settings.LLM_MAX_REPLY_CHARS``); pass both.
``await acall_structured(*, client, request) -> StructuredReply``
    and its sync twin ``call_structured`` (same arguments, sync client);
    ``llm.tools.acall_with_tools(*, tools, client, request)`` lets the model
    use tools on the way.
``astream_structured(*, client, request, text_field="assistantText")``
    async generator: ``TextDelta(added)`` with the characters the top-level
    string field gained, then one ``StreamDone(reply)``. O(reply) work
    however finely the reply is cut.
``StringFieldReader(field).feed(piece) -> str``
    incremental decoder of one top-level string field of arriving JSON;
    ``partial_json_string_field(partial_json, field) -> str | None`` is the
    one-shot form.

The system prompt goes out as one text block with
``cache_control={"type": "ephemeral"}`` when ``cache_system``; the output
model's schema goes out as ``output_config.format`` (structured output). The
reply is validated here, not in the SDK, so failures keep usage and raw text
(see llm/request.py for why).

Coach (streaming)::

    # One client per event loop; ``async with`` closes its connection pool.
    async with make_async_client(
        timeout=settings.LLM_TIMEOUT_SECONDS, max_retries=settings.LLM_MAX_RETRIES
    ) as client:
        request = LLMRequest(
            model=settings.COACH_MODEL, system=prompt,
            messages=[{"role": "user", "content": text}], output_model=CoachReply,
            max_tokens=2000, prices=settings.LLM_PRICES,
            deadline_s=settings.LLM_DEADLINE_SECONDS,
            max_reply_chars=settings.LLM_MAX_REPLY_CHARS,
        )
        async for item in astream_structured(client=client, request=request):
            if isinstance(item, TextDelta):
                yield ndjson({"type": "delta", "text": item.added})   # to append
            else:                                            # StreamDone, last
                result = item.reply.parsed

Debates (concurrent, one client shared by all calls of the loop)::

    async with make_async_client(timeout=60, max_retries=2) as client:
        results = await asyncio.gather(
            *(acall_structured(client=client, request=LLMRequest(
                  model=settings.DEBATE_MODEL, system=persona.prompt,
                  messages=msgs, output_model=PersonaTurn, max_tokens=1500,
                  prices=settings.LLM_PRICES))
              for persona in personas),
            return_exceptions=True,  # an LLMError carries .usage / .cost_usd
        )
    # Before paying, look the call up by request_hash(...) in the ledger.
"""

from llm.client import api_key_configured, make_async_client, make_client
from llm.errors import ErrorCode, LLMError
from llm.hashing import request_hash
from llm.partial_json import StringFieldReader, partial_json_string_field
from llm.pricing import PriceTable, cost_usd
from llm.reply import StructuredReply
from llm.request import DEFAULT_DEADLINE_S, DEFAULT_MAX_REPLY_CHARS, LLMRequest
from llm.streaming import StreamDone, TextDelta, astream_structured
from llm.structured import acall_structured, call_structured
from llm.usage import Usage

__all__ = [
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MAX_REPLY_CHARS",
    "ErrorCode",
    "LLMError",
    "LLMRequest",
    "PriceTable",
    "StreamDone",
    "StringFieldReader",
    "StructuredReply",
    "TextDelta",
    "Usage",
    "acall_structured",
    "api_key_configured",
    "astream_structured",
    "call_structured",
    "cost_usd",
    "make_async_client",
    "make_client",
    "partial_json_string_field",
    "request_hash",
]
