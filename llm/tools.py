"""One structured call during which the model may use tools (the Messages API's tool use).

``acall_with_tools`` takes ``acall_structured``'s arguments (a client and an
:class:`~llm.request.LLMRequest`) plus ``tools``, an object with ``definitions`` (the API's tool list), ``max_uses`` and
``run(name, input) -> (text for the model, record)``. The exchange:

1. ask with the tools offered;
2. while the model stops with ``tool_use`` and uses are left, run each tool
   (in a worker thread: a tool may read a database) and send the results
   back as ``tool_result`` blocks; past ``max_uses`` a tool call is answered
   with an error block saying the limit is reached, so the model answers;
3. the final message's text is validated like any structured reply.

The result is ONE reply: its usage and cost are the sums over every turn of
the exchange (cost is linear in tokens), its ``tool_calls`` the records the
tools returned. The whole call, every turn included, is bounded by the
request's ``deadline_s``. Framework-free, like the rest of ``llm``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from anthropic import AsyncAnthropic
from pydantic import BaseModel

from llm.pricing import cost_usd
from llm.reply import StructuredReply, finish_reply, message_text
from llm.request import LLMRequest
from llm.sdk_errors import CALL_ERRORS, call_failed
from llm.structured import deadline_error, prepare_call, too_large_error
from llm.usage import Usage

__all__ = ["ToolReply", "acall_with_tools"]

M = TypeVar("M", bound=BaseModel)

LIMIT_REACHED = "The research limit is reached: answer now with what you have."


@dataclass(frozen=True, slots=True)
class ToolReply(StructuredReply[M]):
    """A ``StructuredReply`` with the records of the tool calls made on the way."""

    tool_calls: tuple[Any, ...] = ()


def _block(block: Any) -> dict[str, Any]:
    return block.model_dump(mode="json", exclude_none=True)


async def acall_with_tools(
    *, tools: Any, client: AsyncAnthropic, request: LLMRequest[M]
) -> ToolReply[M]:
    params, hash_ = prepare_call(request)
    params["tools"] = list(tools.definitions)
    conversation = list(request.messages)
    deadline_s, max_reply_chars = request.deadline_s, request.max_reply_chars
    usage = Usage()
    records: list[Any] = []
    uses = 0
    started = time.perf_counter()

    def billed() -> dict[str, Any]:
        cost = cost_usd(model=request.model, usage=usage, prices=request.prices)
        return {"usage": usage, "cost_usd": cost}

    try:
        async with asyncio.timeout(deadline_s):
            while True:
                message = await client.messages.create(**{**params, "messages": conversation})
                usage = usage + Usage.from_sdk(message.usage)
                calls = [b for b in message.content if getattr(b, "type", "") == "tool_use"]
                if message.stop_reason != "tool_use" or not calls:
                    break
                results = []
                for call in calls:
                    if uses >= tools.max_uses:
                        results.append(
                            {
                                "type": "tool_result",
                                "tool_use_id": call.id,
                                "content": LIMIT_REACHED,
                                "is_error": True,
                            }
                        )
                        continue
                    uses += 1
                    text, record = await asyncio.to_thread(tools.run, call.name, dict(call.input))
                    records.append(record)
                    results.append({"type": "tool_result", "tool_use_id": call.id, "content": text})
                conversation = [
                    *conversation,
                    {"role": "assistant", "content": [_block(b) for b in message.content]},
                    {"role": "user", "content": results},
                ]
    except TimeoutError as exc:
        raise deadline_error(deadline_s, **billed()) from exc
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    text = message_text(message)
    if text is not None and len(text) > max_reply_chars:
        raise too_large_error(max_reply_chars, **billed(), raw_text=text[:max_reply_chars])
    reply = finish_reply(
        text=text,
        usage=usage,
        stop_reason=message.stop_reason,
        answered_model=message.model,
        request=request,
        hash_=hash_,
        latency_ms=(time.perf_counter() - started) * 1000.0,
        streamed=False,
        request_id=getattr(message, "_request_id", None),
    )
    shared = {field.name: getattr(reply, field.name) for field in fields(StructuredReply)}
    return ToolReply(**shared, tool_calls=tuple(records))
