import pytest

from tests.services import require_redis_url

pytest_plugins: list[str] = []


@pytest.fixture
def redis_url() -> str:
    return require_redis_url()
