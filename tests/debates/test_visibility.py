"""Seeing other people's debates takes the permission to view debates, not staff status alone."""

from __future__ import annotations

from html import unescape

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from engine.models import Debate
from engine.visibility import avisible_debates, visible_debates

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-pass"


def _user(name: str, **fields):
    return get_user_model().objects.create_user(name, password=PASSWORD, **fields)


@pytest.fixture
def students_debate():
    return Debate.objects.create(topic="Grace's: should taxes be flat?", creator=_user("grace"))


def _with_view_permission(user):
    user.user_permissions.add(Permission.objects.get(codename="view_debate"))
    return get_user_model().objects.get(pk=user.pk)  # a fresh permission cache


def test_it_shows_staff_without_the_permission_only_their_own(client, students_debate) -> None:
    staff = _user("ines", is_staff=True)
    own = Debate.objects.create(topic="Ines's own: should schools start later?", creator=staff)
    client.force_login(staff)
    page = unescape(client.get("/debates/").content.decode())
    assert own.topic in page and students_debate.topic not in page
    for url in (
        f"/debates/{students_debate.pk}/",
        f"/debates/{students_debate.pk}/replay/",
        f"/debates/{students_debate.pk}/export.json",
        f"/debates/{students_debate.pk}/events",
    ):
        assert client.get(url).status_code == 404, url
    assert list(async_to_sync(avisible_debates)(staff)) == [own]


def test_it_shows_every_debate_to_staff_with_the_permission(client, students_debate) -> None:
    instructor = _with_view_permission(_user("ines", is_staff=True))
    client.force_login(instructor)
    assert students_debate.topic in unescape(client.get("/debates/").content.decode())
    assert client.get(f"/debates/{students_debate.pk}/").status_code == 200
    assert students_debate in async_to_sync(avisible_debates)(instructor)


def test_it_needs_staff_status_too(students_debate) -> None:
    # The permission without staff status (a student granted it by mistake) is not enough.
    student = _with_view_permission(_user("ada"))
    assert students_debate not in visible_debates(student)


def test_it_shows_every_debate_to_a_superuser(students_debate) -> None:
    admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
    assert students_debate in visible_debates(admin)
