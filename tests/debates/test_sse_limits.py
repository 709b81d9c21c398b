"""What one account can hold of the event streams (GET /debates/<id>/events) over real HTTP.

A flood of streams from one account is refused politely past the cap, every
stream ends after its lifetime and the browser's Last-Event-ID resumes it
exactly, and many listeners of one run are served by one follower.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model

from engine import live
from engine.models import Debate
from engine.sse import REFUSED_RETRY_MS
from tests.debates.sse_client import SSEClient, SSEMessage, record, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _streams(settings) -> None:
    settings.REDIS_URL = ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    settings.DEBATE_SSE_KEEPALIVE_SECONDS = 15
    settings.SSE_MAX_STREAM_SECONDS = 120


@pytest.fixture
def ada():
    return get_user_model().objects.create_user("ada", password="a-long-enough-pass")


@pytest.fixture
def debate(ada) -> Debate:
    return Debate.objects.create(topic="Should cities ban cars?", creator=ada)


def url(live_asgi, debate: Debate) -> str:
    return f"{live_asgi.url}/debates/{debate.pk}/events"


def _wait_for(condition, limit: float = 5.0) -> bool:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_it_refuses_a_stream_flood_from_one_account_past_its_cap(
    live_asgi, debate, ada, settings
) -> None:
    settings.SSE_MAX_STREAMS_PER_USER = 3
    record(debate, "debate_start")
    cookie = session_cookie(ada)

    def connect(_index: int) -> tuple[SSEClient, SSEMessage | None]:
        stream = SSEClient(url(live_asgi, debate), cookie=cookie, timeout=5)
        return stream, stream.next_message()

    # All at once, as a script would: the count must hold under the race.
    with ThreadPoolExecutor(max_workers=30) as pool:
        flood = list(pool.map(connect, range(30)))

    held = [stream for stream, first in flood if first.event == "debate_start"]
    refused = [(stream, first) for stream, first in flood if first.event == "stream_refused"]
    assert (len(held), len(refused)) == (3, 27)
    for stream, message in refused:
        assert "Too many live pages are open" in message.data["detail"]
        assert message.id is None  # Last-Event-ID stays where the page was
        assert stream.retry == REFUSED_RETRY_MS  # the browser waits before it asks again
        assert stream.read_to_end(limit=5) == []  # a short answer: the server holds nothing
    # Another account is not held back by ada's flood.
    grace = get_user_model().objects.create_user("grace", password="a-long-enough-pass")
    own = Debate.objects.create(topic="Grace's debate", creator=grace)
    record(own, "debate_start")
    assert [m.event for m in SSEClient(url(live_asgi, own), cookie=session_cookie(grace)).read(1)]
    # A closed tab gives its place back.
    held[0].close()
    assert _wait_for(lambda: _accepted(live_asgi, debate, cookie))
    for stream in held[1:]:
        stream.close()


def _accepted(live_asgi, debate: Debate, cookie: str) -> bool:
    stream = SSEClient(url(live_asgi, debate), cookie=cookie, timeout=5)
    first = stream.next_message()
    stream.close()
    return first is not None and first.event == "debate_start"


def test_it_words_the_refusal_in_the_pages_language(live_asgi, debate, ada, settings) -> None:
    settings.SSE_MAX_STREAMS_PER_USER = 1
    record(debate, "debate_start")
    cookie = session_cookie(ada)
    held = SSEClient(url(live_asgi, debate), cookie=cookie)
    held.read(1)
    spanish = f"{cookie}; {settings.LANGUAGE_COOKIE_NAME}=es"

    refused = SSEClient(url(live_asgi, debate), cookie=spanish).read_to_end(limit=5)

    assert "Hay demasiadas páginas en vivo abiertas" in refused[0].data["detail"]
    held.close()


def test_it_ends_a_stream_at_its_lifetime_and_the_page_resumes_from_last_event_id(
    live_asgi, debate, ada, settings, monkeypatch
) -> None:
    # Every stream lives a moment and sends at most two stored events: each
    # reconnection must go on exactly where the last one stopped.
    settings.SSE_MAX_STREAM_SECONDS = 1e-9  # over as soon as the first batch is read
    monkeypatch.setattr(live, "BATCH", 2)
    for index in range(6):
        record(debate, "graph_update", round=index)
    record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
    cookie = session_cookie(ada)

    received, last_id, connections = [], None, 0
    while not received or received[-1].event != "debate_complete":
        stream = SSEClient(url(live_asgi, debate), cookie=cookie, last_event_id=last_id)
        batch = stream.read_to_end(limit=5)  # the server ends it
        stream.close()
        assert 0 < len(batch) <= 2
        received += batch
        last_id = batch[-1].seq
        connections += 1

    assert [m.seq for m in received] == list(range(1, 8))
    assert connections == 4


def test_it_closes_an_idle_stream_after_its_lifetime(live_asgi, debate, ada, settings) -> None:
    settings.SSE_MAX_STREAM_SECONDS = 0.3
    stream = SSEClient(url(live_asgi, debate), cookie=session_cookie(ada), timeout=5)
    started = time.monotonic()

    assert stream.read_to_end(limit=5) == []

    assert stream.ended and time.monotonic() - started < 3


def test_it_serves_many_listeners_of_one_run_from_one_follower(
    live_asgi, debate, ada, settings
) -> None:
    settings.SSE_MAX_STREAMS_PER_USER = 0  # no cap: this test is about the follower
    record(debate, "debate_start")
    cookie = session_cookie(ada)
    streams = [SSEClient(url(live_asgi, debate), cookie=cookie) for _ in range(12)]
    for stream in streams:
        stream.read(1)

    assert live.followers(debate.pk) == 1
    record(debate, "graph_update", round=1)
    record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
    for stream in streams:
        assert [m.seq for m in stream.read_to_end()] == [2, 3]
        stream.close()
    assert _wait_for(lambda: live.followers(debate.pk) == 0)
