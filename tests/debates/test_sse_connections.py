"""Open live pages of a run hold no database connection (config.stream_connections),
counted on PostgreSQL over real HTTP (``live_asgi``), following by polling and by Redis."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine.models import Debate
from tests.db_backends import other_backends, settles_to
from tests.debates.sse_client import SSEClient, record, session_cookie
from tests.services import require_redis_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("follow", ["polling", "redis"])
def test_it_gives_back_the_connections_of_the_pages_it_keeps_open(
    live_asgi, settings, follow: str
) -> None:
    settings.REDIS_URL = require_redis_url() if follow == "redis" else ""
    settings.DEBATE_SSE_POLL_SECONDS = (
        0.2  # a follower's look holds a connection only while it looks
    )
    settings.DEBATE_SSE_KEEPALIVE_SECONDS = 15
    owner = get_user_model().objects.create_user("ada")
    debate = Debate.objects.create(topic="Should cities ban cars?", creator=owner)
    record(debate, "debate_start", personas=["A", "B"])
    before = other_backends()
    pages = [
        SSEClient(f"{live_asgi.url}/debates/{debate.pk}/events", cookie=session_cookie(owner))
        for _ in range(3)
    ]
    try:
        for page in pages:
            assert [m.event for m in page.read(1)] == ["debate_start"]  # replayed from the table
        # Each page read the run's events and status, then let its connection go.
        assert settles_to(before) <= before
        record(debate, "debate_complete", stop_reason="MAX_ROUNDS")
        for page in pages:  # and still follows the run to its end
            assert [m.event for m in page.read_to_end()] == ["debate_complete"]
    finally:
        for page in pages:
            page.close()
