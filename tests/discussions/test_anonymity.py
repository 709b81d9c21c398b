"""Anonymity holds everywhere a classmate can look: every page, partial and export of the
discussion (walked from the URL patterns, so a new one is checked too), and the instructor
always sees the names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import get_resolver

from discussions.models import Discussion
from discussions.services import create_post

pytestmark = pytest.mark.django_db

# Parameters the walk knows how to fill; a pattern with any other is listed in the test's failure.
KNOWN = {"discussion_id", "post_id", "source_id"}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _get_urls(ids: dict[str, int]) -> list[str]:
    """Every GET-able URL of the discussions app, its parameters filled from `ids`."""
    _namespace, resolver = get_resolver().namespace_dict["discussions"]
    urls = []
    for pattern in resolver.url_patterns:
        route = str(pattern.pattern)
        names = set(re.findall(r"<(?:\w+:)?(\w+)>", route))
        assert names <= KNOWN, f"the anonymity walk cannot fill {route}"
        url = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m[1]]), route)
        urls.append(url)
    return urls


@pytest.fixture
def anonymous_discussion(
    discussion: Discussion, student: Any, classmate: Any, django_user_model: Any
) -> dict[str, Any]:
    from casefiles.models import CaseFile, Source

    discussion.anonymous = True
    discussion.case_file = CaseFile.objects.create(title="Readings", owner=student)
    discussion.save()
    source = Source.objects.create(
        case_file=discussion.case_file, title="A", kind="pasted", text="t", sha256="a"
    )
    # Names no page would hold by chance ("ben" is in "benefit").
    classmate.first_name, classmate.last_name = "Benedikta", "Zwolinski"
    classmate.username = "zw-benedikta"
    classmate.save()
    argument = create_post(
        discussion=discussion,
        author=classmate,
        claim="Rest matters",
        premises=["Sleep research"],
        side="for",
        scheme="expert_opinion",
    )
    objection = create_post(
        discussion=discussion,
        author=classmate,
        claim="Not always",
        premises=[],
        target=argument,
        attack_type="rebut",
        component="claim",
    )
    create_post(discussion=discussion, author=student, claim="Mine", premises=["p"], side="against")
    return {
        "ids": {"discussion_id": discussion.pk, "post_id": objection.pk, "source_id": source.pk},
        "secrets": ("Benedikta", "Zwolinski", classmate.username),
    }


def _body(response: Any) -> bytes:
    """The whole answer, a stream read to its end (the live stream's, asynchronous)."""
    if not response.streaming:
        return response.content

    async def read() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(read)() if response.is_async else b"".join(response.streaming_content)


def test_it_names_no_classmate_on_any_page_or_export(
    anonymous_discussion: dict, student: Any, settings: Any
) -> None:
    settings.SSE_MAX_STREAM_SECONDS = 1  # the live stream is read to its end
    client = _client(student)
    seen = 0
    for url in _get_urls(anonymous_discussion["ids"]):
        response = client.get(url)
        if response.status_code != 200:
            continue  # a POST-only URL, or a page for the instructor only
        seen += 1
        body = _body(response).decode()
        for secret in anonymous_discussion["secrets"]:
            assert secret not in body, (url, secret)
    # The page, the standing partial, "what would change it", the exports: all read.
    assert seen >= 6


def test_it_shows_the_instructor_every_name(anonymous_discussion: dict, teacher: Any) -> None:
    ids = anonymous_discussion["ids"]
    client = _client(teacher)
    page = client.get(f"/discussions/{ids['discussion_id']}/").content.decode()
    assert "Benedikta Zwolinski" in page
    export = client.get(f"/discussions/{ids['discussion_id']}/export.json").json()
    assert "Benedikta Zwolinski" in {post["author"] for post in export["posts"]}


def test_it_numbers_classmates_alike_on_the_page_and_in_the_export(
    anonymous_discussion: dict, student: Any
) -> None:
    ids = anonymous_discussion["ids"]
    client = _client(student)
    export = client.get(f"/discussions/{ids['discussion_id']}/export.json").json()
    authors = {post["claim"]: post["author"] for post in export["posts"]}
    assert authors["Rest matters"] == authors["Not always"] == "Classmate 1"
    assert authors["Mine"] == "you"
    page = client.get(f"/discussions/{ids['discussion_id']}/").content.decode()
    assert "Classmate 1" in page


@pytest.mark.django_db(transaction=True)
def test_it_names_no_classmate_in_a_live_update(
    live_asgi: Any, settings: Any, discussion: Discussion, student: Any, classmate: Any
) -> None:
    """A new post reaches open pages as HTML rendered once for every classmate: no name."""
    from django.core.cache import cache

    from discussions.services import fingerprint
    from tests.debates.sse_client import SSEClient, session_cookie

    settings.REDIS_URL = ""
    settings.DISCUSSION_LIVE_POLL_SECONDS = 30
    cache.delete(f"sse:streams:{student.pk}")
    discussion.anonymous = True
    discussion.save()
    # Names no page would hold by chance ("ben" is in "benefit").
    classmate.first_name, classmate.last_name = "Benedikta", "Zwolinski"
    classmate.username = "zw-benedikta"
    classmate.save()
    create_post(discussion=discussion, author=student, claim="Mine", premises=["p"], side="for")
    stream = SSEClient(
        f"{live_asgi.url}/discussions/{discussion.pk}/live/?v={fingerprint(discussion=discussion)}",
        cookie=session_cookie(student),
    )
    try:
        import time

        from discussions import live

        deadline = time.monotonic() + 5
        while live.followers(discussion.pk) != 1:  # the page is followed: the post reaches it
            assert time.monotonic() < deadline, "no follower"
            time.sleep(0.02)
        create_post(
            discussion=discussion, author=classmate, claim="Theirs", premises=["q"], side="against"
        )
        [message] = stream.read(1)
        assert message.event == "delta"
        text = str(message.data)
        assert "Theirs" in text and "Classmate" in text
        for secret in ("Benedikta", "Zwolinski", classmate.username):
            assert secret not in text, secret
    finally:
        stream.close()
