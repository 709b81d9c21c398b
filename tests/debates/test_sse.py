"""GET /debates/<id>/events over real HTTP (uvicorn): replay, live following, reconnection.

Every test runs twice: following live events by polling the database (no
REDIS_URL, the embedded default) and through real Redis pub/sub (skipped with
a reason when REDIS_URL is unset, as on a newcomer's machine; CI sets it).
"""

import threading
import time

import pytest
import redis
from django.contrib.auth import get_user_model
from django.db import connections

from engine.events import events_channel
from engine.models import Debate, DebateStatus
from tests.debates.sse_client import SSEClient, record, session_cookie
from tests.services import require_redis_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["polling", "redis"])
def follow(request, settings) -> str:
    settings.REDIS_URL = require_redis_url() if request.param == "redis" else ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    settings.DEBATE_SSE_KEEPALIVE_SECONDS = 15
    return request.param


@pytest.fixture
def ada():
    return get_user_model().objects.create_user("ada", password="a-long-enough-pass")


@pytest.fixture
def debate(ada) -> Debate:
    return Debate.objects.create(topic="Should cities ban cars?", creator=ada)


def events_url(live, debate: Debate) -> str:
    return f"{live.url}/debates/{debate.pk}/events"


def test_it_replays_follows_and_resumes_after_last_event_id_exactly_once(
    live_asgi, follow, debate, ada
) -> None:
    cookie = session_cookie(ada)
    record(debate, "debate_start", personas=["A", "B"])
    record(debate, "arguments_submitted", round=0, arguments=[])
    record(debate, "graph_update", round=0, labels={}, counts={"IN": 0, "OUT": 0, "UNDEC": 0})

    first = SSEClient(events_url(live_asgi, debate), cookie=cookie)
    assert first.status == 200
    assert first.content_type.startswith("text/event-stream")
    received = first.read(3)  # replayed from the table
    record(debate, "attacks_generated", round=1, attacks=[{"id": 1}])
    record(debate, "validation_complete", round=1, attacks=[{"id": 1, "valid": True}])
    received += first.read(2)  # followed live
    first.close()

    record(debate, "graph_update", round=1, labels={"A1": "IN"})
    record(debate, "graph_convergence", round=1, changed=False)
    second = SSEClient(events_url(live_asgi, debate), cookie=cookie, last_event_id=received[-1].seq)
    received += second.read(2)  # missed while away: replayed
    record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
    received += second.read_to_end()  # live again, then the stream ends

    assert [m.seq for m in received] == list(range(1, 9))
    stored = list(debate.events.order_by("seq").values_list("seq", "type", "payload"))
    assert [(m.seq, m.event, m.data["payload"]) for m in received] == stored
    assert all(m.data["seq"] == m.seq and m.data["type"] == m.event for m in received)
    assert first.retry is not None and first.retry > 0
    second.close()


def test_it_delivers_each_event_once_while_a_writer_races_the_reconnections(
    live_asgi, follow, debate, ada
) -> None:
    """Events written while the stream subscribes and reads the table come exactly once."""
    cookie = session_cookie(ada)
    total = 40

    def write() -> None:
        try:
            for index in range(total):
                record(debate, "graph_update", round=index)
                time.sleep(0.004)
            record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
        finally:
            connections.close_all()

    writer = threading.Thread(target=write)
    writer.start()
    received = []
    last = None
    try:
        # Hang up after every few events and reconnect from the last id seen.
        while True:
            client = SSEClient(events_url(live_asgi, debate), cookie=cookie, last_event_id=last)
            if client.status == 204:
                break
            for _ in range(7):
                message = client.next_message()
                if message is None:
                    break
                received.append(message)
            client.close()
            if received and received[-1].event == "debate_complete":
                break
            last = received[-1].seq if received else None
    finally:
        writer.join()
    assert [m.seq for m in received] == list(range(1, total + 2))


def test_it_uses_the_last_event_id_query_parameter_too(live_asgi, follow, debate, ada) -> None:
    for round_number in range(3):
        record(debate, "graph_update", round=round_number)
    record(debate, "debate_complete", stop_reason="CONSENSUS")
    client = SSEClient(
        events_url(live_asgi, debate) + "?last_event_id=2", cookie=session_cookie(ada)
    )
    assert [m.seq for m in client.read_to_end()] == [3, 4]


def test_it_answers_204_to_a_reconnection_after_the_end(live_asgi, follow, debate, ada) -> None:
    record(debate, "debate_start")
    end = record(debate, "debate_error", message="budget")
    client = SSEClient(
        events_url(live_asgi, debate), cookie=session_cookie(ada), last_event_id=end.seq
    )
    assert client.status == 204  # EventSource stops reconnecting on 204


def test_it_ends_a_finished_debate_without_a_terminal_event(live_asgi, follow, debate, ada) -> None:
    record(debate, "debate_start")
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.FAILED)
    client = SSEClient(events_url(live_asgi, debate), cookie=session_cookie(ada), timeout=5)
    assert [m.event for m in client.read_to_end(limit=5)] == ["debate_start"]


def test_it_sends_keepalive_comments_while_nothing_happens(
    live_asgi, follow, debate, ada, settings
) -> None:
    settings.DEBATE_SSE_KEEPALIVE_SECONDS = 0.2
    client = SSEClient(events_url(live_asgi, debate), cookie=session_cookie(ada), timeout=5)
    started = time.monotonic()
    assert client.read_comment() == "keep-alive"
    assert client.read_comment() == "keep-alive"
    assert time.monotonic() - started < 4
    record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
    assert [m.event for m in client.read_to_end()] == ["debate_complete"]


def test_it_unsubscribes_from_redis_when_the_client_hangs_up(
    live_asgi, settings, debate, ada
) -> None:
    settings.REDIS_URL = require_redis_url()
    channel = events_channel(debate.pk)
    server = redis.Redis.from_url(settings.REDIS_URL)

    def subscribers() -> int:
        return dict(server.pubsub_numsub(channel)).get(channel.encode(), 0)

    record(debate, "debate_start")
    client = SSEClient(events_url(live_asgi, debate), cookie=session_cookie(ada))
    client.read(1)
    # The run's follower subscribes in a task of its own, a moment after the replay.
    deadline = time.monotonic() + 5
    while subscribers() != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribers() == 1
    client.close()
    deadline = time.monotonic() + 5
    while subscribers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribers() == 0


def test_it_hides_other_users_debates_and_asks_strangers_to_sign_in(
    live_asgi, debate, settings
) -> None:
    settings.REDIS_URL = ""
    grace = get_user_model().objects.create_user("grace", password="a-long-enough-pass")
    other = SSEClient(events_url(live_asgi, debate), cookie=session_cookie(grace))
    assert other.status == 404
    stranger = SSEClient(events_url(live_asgi, debate), cookie="")
    assert stranger.status == 302
    assert "/accounts/login/" in stranger.response.getheader("Location")


def test_it_goes_on_past_a_debate_error_its_owner_retried(live_asgi, follow, debate, ada) -> None:
    cookie = session_cookie(ada)
    record(debate, "debate_start")
    error = record(debate, "debate_error", failure="service_unavailable")
    record(debate, "debate_resumed", round=0)
    record(debate, "arguments_submitted", round=0, arguments=[])
    record(debate, "debate_complete", stop_reason="MAX_ROUNDS")

    # From the start: the stream does not end at the retried error.
    replayed = SSEClient(events_url(live_asgi, debate), cookie=cookie).read_to_end()
    assert [m.event for m in replayed] == [
        "debate_start",
        "debate_error",
        "debate_resumed",
        "arguments_submitted",
        "debate_complete",
    ]
    # A page that stopped at the error reconnects and gets what followed, not a 204.
    again = SSEClient(events_url(live_asgi, debate), cookie=cookie, last_event_id=error.seq)
    assert again.status == 200
    assert [m.seq for m in again.read_to_end()] == [error.seq + 1, error.seq + 2, error.seq + 3]
    end = replayed[-1].seq
    assert SSEClient(events_url(live_asgi, debate), cookie=cookie, last_event_id=end).status == 204
