"""/me/ lists the discussions of the student's classes, and no other class's."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom.models import Classroom
from discussions.models import Discussion

pytestmark = pytest.mark.django_db


def test_it_links_the_classes_discussions_from_the_students_page(
    discussion: Any, student: Any
) -> None:
    elsewhere = Classroom.objects.get(name="Elsewhere")
    Discussion.objects.create(classroom=elsewhere, title="Not yours", thesis="x")
    client = Client()
    client.force_login(student)
    page = client.get("/me/").content.decode()
    assert f'href="/discussions/{discussion.pk}/"' in page
    assert "Not yours" not in page
