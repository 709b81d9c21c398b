"""A stable fingerprint of a request, so a resumed debate never pays twice."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from llm.request import cached_schema

__all__ = ["request_hash"]

# Bump when the canonical form changes, so old ledgers don't match new hashes.
_VERSION = "llm.request_hash/1"


def request_hash(
    *,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[BaseModel],
    max_tokens: int,
) -> str:
    """sha256 hex of a canonical JSON of everything that shapes the answer.

    Includes the output model's wire schema (field names, types, descriptions,
    title), so changing the model changes the hash. Leaves out what does not
    change the answer: prompt-cache markers, timeouts, retries.
    """
    canonical = json.dumps(
        {
            "v": _VERSION,
            "model": model,
            "system": system,
            "messages": messages,
            "schema": cached_schema(output_model),  # only read here: no copy
            "max_tokens": max_tokens,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
