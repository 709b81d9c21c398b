"""Fuzz the discussion page's live stream (GET /discussions/<id>/live/): whatever the
fingerprint it is told (``?v=``, ``Last-Event-ID``) or the id in its path, the answer is
never a 5xx, and each stream, read to its end, ends cleanly. The site-wide fuzz test's
strategies and request helper (tests/fuzz/test_no_server_errors.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from classroom.models import Classroom, Membership
from discussions.models import Discussion
from discussions.services import create_post
from tests.fuzz.test_no_server_errors import (
    FUZZ,
    _encodable,
    assert_no_server_error,
    digit_strings,
    header_values,
    nasty_text,
)

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]


@pytest.fixture
def member(django_user_model: Any, settings: Any) -> dict[str, Any]:
    settings.SSE_MAX_STREAM_SECONDS = 0.05  # each stream ends at once, read to its end
    settings.SSE_MAX_STREAMS_PER_USER = 0  # 0: uncounted (examples run one after another)
    student = django_user_model.objects.create_user("fuzzer")
    room = Classroom.objects.create(name="Rhetoric 101")
    Membership.objects.create(classroom=room, student=student)
    discussion = Discussion.objects.create(classroom=room, title="Homework", thesis="Abolish it.")
    create_post(discussion=discussion, author=student, claim="Play", premises=["p"], side="for")
    client = Client(raise_request_exception=False)
    client.force_login(student)
    return {"client": client, "discussion": discussion}


@FUZZ
@given(
    last_event_id=header_values,
    query=st.one_of(st.none(), digit_strings, nasty_text.filter(_encodable)),
)
def test_it_never_fails_the_live_stream_whatever_fingerprint_it_is_told(
    member: dict[str, Any], last_event_id: str, query: str | None
) -> None:
    url = f"/discussions/{member['discussion'].pk}/live/"
    client = member["client"]
    assert_no_server_error(client, "get", url, headers={"Last-Event-ID": last_event_id})
    if query is not None:
        assert_no_server_error(client, "get", url, data={"v": query})


@FUZZ
@given(pk=st.one_of(digit_strings, st.integers(-(2**70), 2**70).map(str)))
def test_it_never_fails_on_the_id_in_the_live_stream_s_path(
    member: dict[str, Any], pk: str
) -> None:
    for method in ("get", "post", "head"):
        assert_no_server_error(member["client"], method, f"/discussions/{pk}/live/")
