"""pytest fixtures for the fake Anthropic server (registered in tests/conftest.py).

One server per test session, reset before each test: starting a server is
cheap, but the SDK's pooled keep-alive connections and the OS's port churn
are not free across hundreds of tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.anthropic_server import FakeAnthropicServer

__all__ = ["fake_anthropic", "fake_anthropic_session", "no_anthropic_key"]

FAKE_API_KEY = "sk-ant-fake-test-key"


@pytest.fixture(scope="session")
def fake_anthropic_session() -> Iterator[FakeAnthropicServer]:
    server = FakeAnthropicServer().start()
    yield server
    server.stop()


@pytest.fixture
def fake_anthropic(
    fake_anthropic_session: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeAnthropicServer]:
    """The fake server, emptied, with ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY pointing at it.

    Script it with ``enqueue(Reply...)`` or ``responder``; an unscripted
    request gets a non-retried 500, so a forgotten script fails the test.
    """
    server = fake_anthropic_session
    server.reset()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_API_KEY)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    yield server
    server.reset()


@pytest.fixture
def no_anthropic_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """No API key in the environment: the offline path."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
