"""Real services in tests: skip on a newcomer's machine, fail loudly in CI.

A test that needs Redis or PostgreSQL skips with a visible reason when the
variable naming the service is unset, and fails when it is set but the service
does not answer: CI sets the variables, so a dead service there is a failure,
never a silent skip.
"""

import os
import uuid
from typing import Any

import pytest
from django.test import override_settings

__all__ = ["on_a_redis_cache", "require_redis_url", "require_postgres_url"]


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


def on_a_redis_cache(backend: str, *, name: str) -> Any:
    """``override_settings`` making the site's cache ``backend`` on REDIS_URL (skips without
    it), under a key prefix of its own: nothing to flush, nothing shared with other tests."""
    location = require_redis_url()
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": backend,
                "LOCATION": location,
                "KEY_PREFIX": f"test-{name}-{uuid.uuid4().hex}",
            }
        }
    )
