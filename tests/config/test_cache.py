"""The site's Redis cache keeps its connections for the process (config/cache.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches

from tests.services import on_a_redis_cache


@pytest.fixture
def shared_pool_cache() -> Iterator[None]:
    with on_a_redis_cache("config.cache.SharedPoolRedisCache", name="cache"):
        yield


def _in_a_thread_of_its_own(work: Any) -> Any:
    """What a request under ASGI gets: a cache backend of its own (the handler's Local)."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(work()))
    thread.start()
    thread.join()
    return result[0]


def test_it_serves_every_request_from_one_connection(shared_pool_cache: None) -> None:
    def request(n: int) -> Any:
        cache = caches["default"]
        cache.set("seen", n, 30)
        assert cache.get("seen") == n
        return cache, cache._cache._get_connection_pool(True)

    served = [_in_a_thread_of_its_own(lambda n=n: request(n)) for n in range(5)]
    backends, pools = {id(backend) for backend, _ in served}, {id(pool) for _, pool in served}
    assert len(backends) == 5  # a backend per request, as Django makes them
    assert len(pools) == 1  # and one pool under all of them
    pool = served[0][1]
    assert pool._created_connections == 1  # one connection, reused: not one per request


def test_djangos_own_backend_makes_a_pool_per_request() -> None:
    """What config/cache.py is for: without it, every request connects anew."""
    with on_a_redis_cache("django.core.cache.backends.redis.RedisCache", name="cache"):
        pools = [
            _in_a_thread_of_its_own(lambda: caches["default"]._cache._get_connection_pool(True))
            for _ in range(3)
        ]  # kept: an id is unique only while its object lives
    assert len({id(pool) for pool in pools}) == 3
