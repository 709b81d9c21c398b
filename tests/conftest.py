from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.services import require_redis_url

pytest_plugins = ["tests.browser", "tests.db_reset", "tests.fakes.fixtures"]

# Property tests judge answers, never speed (speed is for `make bench`): on two cores
# shared by two test processes, a browser and a Celery worker, Hypothesis's clock-based
# checks (a deadline per example, "input generation is slow") fail tests whose answers
# are right. A test's own @settings inherits these and may narrow them.
hypothesis_settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("suite")


@pytest.fixture
def redis_url() -> str:
    return require_redis_url()


@pytest.fixture(autouse=True, scope="session")
def _plain_http_in_tests() -> None:
    """Tests speak plain http (test client, uvicorn on loopback): no https redirect.

    The settings redirect to https whenever DEBUG is off, as production should;
    tests/config/test_deploy_checks.py checks that default in a real process.
    """
    from django.conf import settings

    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(autouse=True, scope="session")
def _cheap_password_hashes() -> None:
    """Passwords in tests hash with MD5: the real hasher costs ~0.25 s of CPU per hash.

    A fixture that makes three users with passwords cost most of a second per
    test, and no test here checks the hasher's strength (Django's own tests do).
    """
    from django.conf import settings
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with empty rate-limit counters (limits/), in this process's memory.

    Counters are keyed by user id, and ids repeat from test to test. With
    REDIS_URL the site's cache is Redis, which Celery shares: never flushed here.
    """
    from django.core.cache import caches
    from django.test import override_settings

    memory = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}
    with override_settings(CACHES={"default": memory}):
        caches["default"].clear()
        yield


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language.

    A request through the test client leaves its language (say Spanish, from a
    cookie) active in the thread after the response; a later test calling a
    service directly would then get Spanish sentences, depending on test order.
    """
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, test in a file of this run rather than in shared-cache memory.

    In-memory shared-cache SQLite has table locks without a busy timeout: a test
    thread writing while the live server (live_asgi) reads fails at once with
    "database table is locked". A file database waits (OPTIONS timeout) as the
    real site does. One file per run, so concurrent test runs do not collide.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        path = tmp_path_factory.mktemp("sqlite") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's sync API leaves an event loop running in the main thread for
    the rest of the session, after which `asyncio.run` (used by async tests and
    in-process orchestrators) refuses to start. Putting every test that uses
    the `page` fixture at the end keeps the order of everything else.
    """
    items.sort(key=lambda item: "page" in getattr(item, "fixturenames", ()))


@pytest.fixture(autouse=True)
def _no_event_loop_left_running(request: pytest.FixtureRequest) -> None:
    """A test starts with no event loop running in its thread, unless it drives a browser.

    Playwright's sync API keeps its loop "running" in the thread while a browser
    is open; a browser that outlived its module once made every later
    `asyncio.run` fail, far from the cause. This names the cause instead.
    """
    import asyncio

    if "chromium_browser" in request.fixturenames:
        return
    if asyncio._get_running_loop() is not None:
        pytest.fail(
            "An event loop is still running in the test thread, left by an earlier test "
            "(a Playwright browser must close with its module: tests/browser.py)."
        )
