"""The demo discussion: in the demo class, posts that stand, fall and are contested, made once."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from classroom.demo import load_demo_class
from discussions.demo import load_demo_discussion
from discussions.services import standing_of, visible_posts

pytestmark = pytest.mark.django_db


def test_it_loads_a_discussion_with_every_status_once(teacher: Any, student: Any) -> None:
    assert load_demo_discussion() is None  # no demo class yet: nothing to put it in
    load_demo_class(instructor=teacher, student=student)
    call_command("load_demo_discussion")
    discussion = load_demo_discussion()  # a second run changes nothing
    posts = visible_posts(discussion=discussion)
    assert len(posts) == 7
    standing = standing_of(posts)
    assert {s.status.value for s in standing.posts.values()} == {"stands", "defeated", "contested"}
    assert standing.thesis.value == "contested"
    assert any(p.question_code for p in posts)
    client = Client()
    client.force_login(student)
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Schools should ban students" in page and "is defeated" in page


def test_it_grades_the_demo_discussion_and_pins_its_readings(teacher: Any, student: Any) -> None:
    load_demo_class(instructor=teacher, student=student)
    discussion = load_demo_discussion()
    assert discussion.assignment is not None and discussion.assignment.kind == "discussion"
    # The demo classmates who posted have work on its grid.
    assert discussion.assignment.submissions.count() >= 3
    client = Client()
    client.force_login(student)
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Readings" in page and "Ill Communication" in page
    source = discussion.case_file.sources.first()
    assert client.get(f"/discussions/{discussion.pk}/readings/{source.pk}/").status_code == 200
    teacher_client = Client()
    teacher_client.force_login(teacher)
    grid = teacher_client.get(f"/admin/discussions/discussion/{discussion.pk}/grid/")
    assert grid.status_code == 200 and "demo-" in grid.content.decode()
