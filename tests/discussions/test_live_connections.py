"""Open live pages of a discussion hold no database connection (config.stream_connections),
counted on PostgreSQL over real HTTP (``live_asgi``)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import cache

from discussions import live
from discussions.models import Discussion
from discussions.services import fingerprint
from tests.db_backends import other_backends, settles_to
from tests.debates.sse_client import SSEClient, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_gives_back_the_connections_of_the_pages_it_keeps_open(
    live_asgi: Any,
    settings: Any,
    discussion: Discussion,
    student: Any,
    classmate: Any,
    teacher: Any,
) -> None:
    settings.REDIS_URL = ""
    settings.DISCUSSION_LIVE_POLL_SECONDS = 30  # no look of the watcher's while we count
    before = other_backends()
    readers = (student, classmate, teacher)
    for user in readers:
        cache.delete(f"sse:streams:{user.pk}")
    v = fingerprint(discussion=discussion)
    pages = [
        SSEClient(
            f"{live_asgi.url}/discussions/{discussion.pk}/live/?v={v}", cookie=session_cookie(user)
        )
        for user in readers
    ]
    try:
        assert all(page.status == 200 for page in pages)
        deadline = time.monotonic() + 10
        while live.listening(discussion.pk) < 3:  # every page past its first reads
            assert time.monotonic() < deadline, "the pages did not all start listening"
            time.sleep(0.02)
        # Each page read the database to start, then let its connection go; all stay open.
        assert settles_to(before) <= before
        assert live.listening(discussion.pk) == 3
    finally:
        for page in pages:
            page.close()
