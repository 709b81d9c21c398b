"""Every discussion URL as a member, the instructor, a student of another class, another
instructor and anonymous: only the class's members and instructors get past the 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from discussions.models import Post
from discussions.services import create_post

pytestmark = pytest.mark.django_db

URLS = [
    ("get", "/discussions/{d}/"),
    ("get", "/discussions/{d}/standing/"),
    ("get", "/discussions/{d}/change/"),
    ("post", "/discussions/{d}/arguments/"),
    ("get", "/discussions/{d}/posts/{p}/object/"),
    ("post", "/discussions/{d}/posts/{p}/object/"),
    ("get", "/discussions/{d}/posts/{p}/change/"),
    ("get", "/discussions/{d}/export.json"),
    ("get", "/discussions/{d}/framework.af"),
    ("get", "/discussions/{d}/export.argdown"),
    ("get", "/discussions/{d}/export.aif.json"),
    ("get", "/discussions/{d}/bring/"),
    ("post", "/discussions/{d}/posts/{p}/check/"),
    ("get", "/discussions/{d}/readings/{s}/"),
]
MODERATOR_URLS = [("post", "/discussions/{d}/posts/{p}/hide/")]
ADMIN_URLS = [
    ("get", "/admin/discussions/discussion/{d}/change/"),
    ("get", "/admin/discussions/post/{p}/change/"),
    ("get", "/admin/discussions/discussion/{d}/grid/"),
    ("get", "/admin/discussions/discussion/{d}/grid.csv"),
    ("get", "/admin/discussions/discussion/{d}/work/{member}/"),
]
POST_DATA = {
    "side": "for",
    "claim": "Secret words",
    "premise_1": "because",
    "attack_type": "rebut",
    "component": "claim",
    "hidden": "on",
    "reason": "off topic",
}


@pytest.fixture
def world(
    discussion: Any, student: Any, classmate: Any, teacher: Any, other_teacher: Any, outsider: Any
):
    from casefiles.models import CaseFile, Source

    post = create_post(
        discussion=discussion, author=classmate, claim="Private claim", premises=["p"], side="for"
    )
    discussion.case_file = CaseFile.objects.create(title="Readings", owner=teacher)
    discussion.save()
    source = Source.objects.create(
        case_file=discussion.case_file, title="Private claim's source", kind="pasted", text="t"
    )
    return {
        "d": discussion.pk,
        "p": post.pk,
        "s": source.pk,
        "member": student.pk,
        "users": {
            "member": student,
            "teacher": teacher,
            "outsider": outsider,
            "other_teacher": other_teacher,
            "anonymous": None,
        },
    }


def _call(user: Any, method: str, url: str) -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    return getattr(client, method)(url, POST_DATA if method == "post" else None)


@pytest.mark.parametrize(("method", "url"), URLS)
def test_it_opens_a_discussion_only_to_its_class(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    for who in ("member", "teacher"):
        assert _call(users[who], method, url).status_code in (200, 204, 302), who
    before = Post.objects.count()
    for who in ("outsider", "other_teacher"):
        response = _call(users[who], method, url)
        assert response.status_code == 404, who
        assert b"Private claim" not in response.content
    anonymous = _call(None, method, url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert Post.objects.count() == before  # nobody outside the class posted


@pytest.mark.parametrize(("method", "url"), MODERATOR_URLS)
def test_it_lets_only_the_classes_instructor_moderate(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    for who in ("member", "outsider", "other_teacher"):
        assert _call(users[who], method, url).status_code == 404, who
    assert _call(None, method, url).status_code == 302
    assert not Post.objects.get(pk=world["p"]).hidden
    assert _call(users["teacher"], method, url).status_code == 302
    assert Post.objects.get(pk=world["p"]).hidden


@pytest.mark.parametrize(("method", "url"), ADMIN_URLS)
def test_it_keeps_the_admin_to_the_classes_instructor(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    assert _call(users["teacher"], method, url).status_code == 200
    assert _call(users["other_teacher"], method, url).status_code == 404
    for who in ("member", "outsider", "anonymous"):
        assert _call(users[who], method, url).status_code == 302, who  # to the admin's sign-in
