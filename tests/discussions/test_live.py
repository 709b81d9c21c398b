"""The discussion page's live stream (GET /discussions/<id>/live/) over real HTTP: the
real ASGI app under uvicorn (``live_asgi``), a real socket, no Redis."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from discussions import live
from discussions.models import Discussion, Post
from discussions.services import create_post, fingerprint, hide_post
from discussions.stream import KEEPALIVE, live_stream
from tests.debates.sse_client import SSEClient, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _streams(settings: Any, student: Any, classmate: Any, teacher: Any) -> None:
    settings.REDIS_URL = ""
    settings.SSE_MAX_STREAM_SECONDS = 120
    settings.SSE_MAX_STREAMS_PER_USER = 4
    # A long poll: a post saved in this process must reach the pages by its poke.
    settings.DISCUSSION_LIVE_POLL_SECONDS = 30
    for user in (student, classmate, teacher):
        cache.delete(f"sse:streams:{user.pk}")


def _wait_for(condition: Any, limit: float = 15.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _open(live_asgi: Any, discussion: Discussion, user: Any, **query: str) -> SSEClient:
    v = query.get("v", fingerprint(discussion=discussion))
    return SSEClient(
        f"{live_asgi.url}/discussions/{discussion.pk}/live/?v={v}", cookie=session_cookie(user)
    )


def _argument(discussion: Discussion, author: Any, claim: str) -> Post:
    return create_post(
        discussion=discussion, author=author, claim=claim, premises=["A reason."], side="for"
    )


def _undermine(discussion: Discussion, author: Any, target: Post, claim: str) -> Post:
    return create_post(
        discussion=discussion,
        author=author,
        claim=claim,
        premises=["Homework takes twenty minutes."],
        target=target,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )


def test_it_streams_an_objection_and_tells_the_author_their_argument_fell(
    live_asgi: Any, discussion: Discussion, student: Any, classmate: Any, teacher: Any
) -> None:
    argument = _argument(discussion, student, "Homework steals play time.")
    ana = _open(live_asgi, discussion, student)
    ben = _open(live_asgi, discussion, classmate)
    instructor = _open(live_asgi, discussion, teacher)
    assert ana.status == 200 and ana.content_type.startswith("text/event-stream")
    _wait_for(lambda: live.followers(discussion.pk) == 1)  # one follower for three pages
    _wait_for(lambda: live.listening(discussion.pk) == 3)

    objection = _undermine(discussion, classmate, argument, "<b>Play</b> is not lost")

    [delta] = ana.read(1)
    assert delta.event == "delta" and delta.id == fingerprint(discussion=discussion)
    [new] = delta.data["new"]
    assert new["id"] == objection.pk and new["target"] == argument.pk
    assert "&lt;b&gt;Play&lt;/b&gt; is not lost" in new["html"] and "<b>Play" not in new["html"]
    assert delta.data["statuses"][str(argument.pk)]["badge"] == "out"
    assert delta.data["notices"] == [
        "Your argument “Homework steals play time.” is now defeated: an objection to it "
        "stands. Answer that objection and it can stand again."
    ]
    assert "The thesis is open" in delta.data["thesis_notice"]
    # The author of the new post sees their own row ("you"): a resync.
    assert [m.event for m in ben.read(1)] == ["resync"]
    # The instructor's delta: the moderation form, rendered once for every instructor.
    [moderated] = instructor.read(1)
    assert moderated.event == "delta" and "Hide this post" in moderated.data["new"][0]["html"]
    assert "Hide this post" not in new["html"]
    for stream in (ana, ben, instructor):
        stream.close()


def test_it_follows_a_post_saved_elsewhere_by_polling(
    live_asgi: Any, discussion: Discussion, student: Any, classmate: Any, settings: Any
) -> None:
    settings.DISCUSSION_LIVE_POLL_SECONDS = 0.1
    argument = _argument(discussion, student, "Homework steals play time.")
    ana = _open(live_asgi, discussion, student)
    _wait_for(lambda: live.followers(discussion.pk) == 1)
    # Saved without the service (as another server process would): no poke, only the poll.
    Post.objects.create(
        discussion=discussion,
        author=classmate,
        kind="argument",
        side="against",
        claim="Practice at home fixes what school teaches.",
        premises=["Practice works."],
    )
    [delta] = ana.read(1)
    assert delta.event == "delta"
    assert delta.data["statuses"][str(argument.pk)]["badge"] == "undec"
    assert delta.data["notices"] == ["Your argument “Homework steals play time.” is now contested."]
    ana.close()


def test_it_tells_a_page_behind_or_a_hidden_post_to_reload_the_section(
    live_asgi: Any, discussion: Discussion, student: Any, classmate: Any
) -> None:
    argument = _argument(discussion, student, "Homework steals play time.")
    objection = _undermine(discussion, classmate, argument, "Play is not lost")
    behind = _open(live_asgi, discussion, student, v="0.0.0.1")
    [message] = behind.read(1)
    assert message.event == "resync" and message.id == fingerprint(discussion=discussion)
    _wait_for(lambda: live.listening(discussion.pk) == 1)
    # The objection hidden: the argument stands again, and its author is told so.
    hide_post(post=objection, reason="Off topic.")
    [message] = behind.read(1)
    assert message.event == "resync" and message.id == fingerprint(discussion=discussion)
    assert message.data["notices"] == ["Your argument “Homework steals play time.” now stands."]
    behind.close()


def test_it_refuses_a_stream_past_the_account_s_cap_and_ends_each_after_its_lifetime(
    live_asgi: Any, discussion: Discussion, student: Any, settings: Any
) -> None:
    settings.SSE_MAX_STREAMS_PER_USER = 2
    held = [_open(live_asgi, discussion, student) for _ in range(2)]
    _wait_for(lambda: live.followers(discussion.pk) == 1)
    refused = _open(live_asgi, discussion, student)
    [message] = refused.read_to_end()
    assert message.event == "stream_refused" and "Too many live pages" in message.data["detail"]
    for stream in held:
        stream.close()
    _wait_for(lambda: live.followers(discussion.pk) == 0)
    settings.SSE_MAX_STREAM_SECONDS = 1
    started = time.monotonic()
    assert _open(live_asgi, discussion, student).read_to_end() == []
    assert time.monotonic() - started < 5


def test_it_opens_the_stream_to_the_class_only(
    discussion: Discussion, outsider: Any, other_teacher: Any
) -> None:
    url = f"/discussions/{discussion.pk}/live/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    for user in (outsider, other_teacher):
        client = Client()
        client.force_login(user)
        assert client.get(url).status_code == 404
    assert Client().post(url).status_code == 302


def test_it_answers_a_member_and_the_instructor_with_a_stream(
    live_asgi: Any, discussion: Discussion, student: Any, teacher: Any
) -> None:
    for user in (student, teacher):
        stream = _open(live_asgi, discussion, user)
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
        stream.close()


def test_it_keeps_a_stream_open_past_any_lifetime_when_lifetimes_are_off(
    discussion: Discussion, student: Any
) -> None:
    # SSE_MAX_STREAM_SECONDS=0 means no limit (README), for discussions as for runs.
    seen = fingerprint(discussion=discussion)

    async def first_chunks() -> list[str]:
        stream = live_stream(
            discussion_id=discussion.pk,
            user_id=student.pk,
            moderator=False,
            language="en",
            seen=seen,
            lifetime=None,
            keepalive=0.05,
            poll=30.0,
            max_streams=0,
            refusal="",
        )
        chunks = [await anext(stream) for _ in range(4)]
        await stream.aclose()
        return chunks

    chunks = asyncio.run(first_chunks())
    assert chunks[0].startswith("retry:") and chunks[1:] == [KEEPALIVE] * 3
