"""Real services in tests: skip on a newcomer's machine, fail loudly in CI.

A test that needs Redis or PostgreSQL skips with a visible reason when the
variable naming the service is unset, and fails when it is set but the service
does not answer: CI sets the variables, so a dead service there is a failure,
never a silent skip.
"""

import os

import pytest

__all__ = ["require_redis_url", "require_postgres_url"]


def require_redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        pytest.skip("REDIS_URL is not set: start Redis and export REDIS_URL to run this test")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except Exception as exc:  # any failure to talk to Redis is the same failure here
        pytest.fail(f"REDIS_URL={url} is set but Redis does not answer: {exc}")
    return url


def require_postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name PostgreSQL: the suite runs on SQLite here")
    return url
