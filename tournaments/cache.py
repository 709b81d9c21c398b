"""The response cache: identical model requests within a TTL answered from a table.

Keyed by the request hash (model, prompt, schema, tools: everything that
shapes the answer), so only a byte-identical request hits. The reply's JSON
text is stored zlib-compressed. A hit is recorded in the debate's ledger at
cost 0 by the call runner (engine/calls.py), so a resumed run replays it
exactly like a paid call. Entries live ``settings.TOURNAMENT_CACHE_TTL_SECONDS``
(default 7 days); an expired entry is a miss and is replaced by the next
paid reply. A tournament created with ``no_cache`` neither reads nor writes.
Hits and misses are counted on the tournament, for its hit rate.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from pydantic import ValidationError

from tournaments.models import CachedResponse, Tournament

__all__ = ["ResponseCache", "cache_for", "compress", "decompress", "purge_expired"]


def compress(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), level=6)


def decompress(body: bytes) -> str:
    return zlib.decompress(bytes(body)).decode("utf-8")


@dataclass(frozen=True)
class ResponseCache:
    """The cache as one tournament sees it (hits and misses are counted on it)."""

    tournament_id: int

    def _count(self, *, hit: bool) -> None:
        field = "cache_hits" if hit else "cache_misses"
        Tournament.objects.filter(pk=self.tournament_id).update(**{field: F(field) + 1})

    def lookup(self, request_hash: str, output_model) -> str | None:
        entry = CachedResponse.objects.filter(
            request_hash=request_hash, expires_at__gt=timezone.now()
        ).first()
        text = None
        if entry is not None:
            text = decompress(entry.body)
            try:
                output_model.model_validate_json(text)
            except ValidationError:  # the schema changed under the same hash: a miss
                text = None
        self._count(hit=text is not None)
        if text is not None:
            CachedResponse.objects.filter(pk=entry.pk).update(hits=F("hits") + 1)
        return text

    def store(self, request_hash: str, model: str, reply) -> None:
        ttl = timedelta(seconds=settings.TOURNAMENT_CACHE_TTL_SECONDS)
        CachedResponse.objects.update_or_create(
            request_hash=request_hash,
            defaults={
                "model": model,
                "body": compress(reply.raw_text),
                "input_tokens": reply.usage.input_tokens,
                "output_tokens": reply.usage.output_tokens,
                "hits": 0,
                "expires_at": timezone.now() + ttl,
            },
        )


def cache_for(tournament_id: int) -> ResponseCache:
    return ResponseCache(tournament_id=tournament_id)


def purge_expired() -> int:
    """Delete expired entries; returns how many."""
    deleted, _ = CachedResponse.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted
