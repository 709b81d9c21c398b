"""Django's Redis cache, its connections kept for the process instead of made per request.

Django's cache handler keeps a backend per context (asgiref ``Local``), and
under ASGI every request is a context of its own: each request got a new
``RedisCache``, whose client made a new connection pool, so every request
that touched the cache opened a TCP connection to Redis (and said HELLO and
SELECT on it) and left the last one to the garbage collector. A coach turn
touches the cache three times (its rate window, its spend snapshot), so a turn
paid for a connection each time. Known upstream: django/django pull request
18459, "Reusing RedisCacheClient connections for multiple requests".

Here the pools are shared by every backend of the process, one per server
address and options: redis-py's ``ConnectionPool`` is thread-safe and, after
a fork (Celery's workers), drops the parent's connections by itself
(``ConnectionPool._checkpid``). Everything else is Django's ``RedisCache``.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

__all__ = ["SharedPoolRedisCache"]

_pools: dict[tuple[str, str], Any] = {}
_pools_lock = threading.Lock()


class _SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        server = self._servers[self._get_connection_pool_index(write)]
        key = (server, repr(sorted(self._pool_options.items(), key=lambda item: item[0])))
        pool = _pools.get(key)
        if pool is None:
            with _pools_lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = _pools[key] = self._pool_class.from_url(server, **self._pool_options)
        return pool


class SharedPoolRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with process-wide connection pools."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _SharedPoolClient
