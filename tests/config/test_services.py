import os

import pytest
from django.db import connection

from tests.services import require_postgres_url


def test_it_runs_on_postgresql_when_database_url_says_so() -> None:
    require_postgres_url()
    assert connection.vendor == "postgresql"


@pytest.mark.redis
def test_it_reaches_redis_when_redis_url_is_set(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    key = f"argue-test-{os.getpid()}"
    client.set(key, "1", ex=5)
    assert client.get(key) == b"1"
    client.delete(key)
