import pytest

from tests.services import require_redis_url

pytest_plugins = ["tests.browser", "tests.fakes.fixtures"]


@pytest.fixture
def redis_url() -> str:
    return require_redis_url()
