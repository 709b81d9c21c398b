"""Fuzz the discussion's forms and ids in its paths: whatever comes in, never a 5xx.

The strategies and the savepoint-per-request check are the site-wide fuzz test's
(tests/fuzz/test_no_server_errors.py). Marked ``fuzz`` like it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from discussions.services import create_post
from tests.fuzz.test_no_server_errors import FUZZ, assert_no_server_error, digit_strings, form_data

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

FIELDS = [
    "side",
    "claim",
    "premise_1",
    "premise_2",
    "premise_3",
    "scheme",
    "attack_type",
    "component",
    "premise_index",
    "question",
    "hidden",
    "reason",
    "argument",
]


@pytest.fixture
def world(discussion: Any, teacher: Any, student: Any, classmate: Any) -> dict[str, Any]:
    target = create_post(
        discussion=discussion,
        author=classmate,
        claim="c",
        premises=["p"],
        side="for",
        scheme="expert_opinion",
    )
    student_client, teacher_client = Client(), Client()
    student_client.force_login(student)
    teacher_client.force_login(teacher)
    return {
        "d": discussion.pk,
        "p": target.pk,
        "student": student_client,
        "teacher": teacher_client,
    }


@settings(FUZZ, max_examples=40)
@given(data=form_data(FIELDS), query=st.one_of(st.none(), form_data(["question", "v", "sort"])))
def test_it_never_fails_the_discussion_forms(world: dict[str, Any], data: dict, query: Any) -> None:
    from django.core.cache import cache

    cache.clear()  # the posting rate would refuse most examples before the forms are read
    d, p = world["d"], world["p"]
    client = world["student"]
    assert_no_server_error(client, "post", f"/discussions/{d}/arguments/", data=data)
    assert_no_server_error(client, "post", f"/discussions/{d}/posts/{p}/object/", data=data)
    assert_no_server_error(client, "get", f"/discussions/{d}/posts/{p}/object/", data=query or {})
    assert_no_server_error(client, "get", f"/discussions/{d}/standing/", data=query or {})
    assert_no_server_error(world["teacher"], "post", f"/discussions/{d}/posts/{p}/hide/", data=data)
    # The grid's sort is whatever the query says; anything unknown sorts by student.
    assert_no_server_error(
        world["teacher"], "get", f"/admin/discussions/discussion/{d}/grid/", data=query or {}
    )
    assert_no_server_error(client, "post", f"/discussions/{d}/bring/", data=data)


@settings(FUZZ, max_examples=15)
@given(pk=digit_strings.filter(lambda s: s.isascii() and s.isdigit()))
def test_it_never_fails_on_ids_in_the_discussions_paths(world: dict[str, Any], pk: str) -> None:
    client, d = world["student"], world["d"]
    for url in (
        f"/discussions/{pk}/",
        f"/discussions/{pk}/standing/",
        f"/discussions/{pk}/change/",
        f"/discussions/{pk}/export.json",
        f"/discussions/{pk}/framework.af",
        f"/discussions/{pk}/export.argdown",
        f"/discussions/{pk}/export.aif.json",
        f"/discussions/{pk}/bring/",
        f"/discussions/{d}/posts/{pk}/object/",
        f"/discussions/{d}/posts/{pk}/change/",
        f"/discussions/{d}/readings/{pk}/",
    ):
        assert_no_server_error(client, "get", url)
    teacher = world["teacher"]
    for url in (
        f"/admin/discussions/discussion/{pk}/grid/",
        f"/admin/discussions/discussion/{pk}/grid.csv",
        f"/admin/discussions/discussion/{d}/work/{pk}/",
    ):
        assert_no_server_error(teacher, "get", url)
    assert_no_server_error(client, "post", f"/discussions/{d}/posts/{pk}/object/", data={})
    assert_no_server_error(client, "post", f"/discussions/{d}/posts/{pk}/check/", data={})
    assert_no_server_error(world["teacher"], "post", f"/discussions/{d}/posts/{pk}/hide/", data={})
