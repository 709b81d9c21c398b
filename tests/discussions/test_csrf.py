"""Every discussion form refuses a POST without the CSRF token (a page on another site
cannot post, object, hide or bring an argument in a student's name), and takes the
same POST with the token."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from discussions.models import Post
from discussions.services import create_post

pytestmark = pytest.mark.django_db

# (URL, who posts it, the fields it needs)
POSTS = [
    ("/discussions/{d}/arguments/", "member", {"side": "for", "claim": "C", "premise_1": "P"}),
    (
        "/discussions/{d}/posts/{p}/object/",
        "member",
        {"claim": "No", "premise_1": "Because", "attack_type": "rebut", "component": "claim"},
    ),
    ("/discussions/{d}/posts/{p}/change/", "author", {"claim": "C2", "premise_1": "P2"}),
    ("/discussions/{d}/change/", "teacher", {"thesis": "A new thesis."}),
    ("/discussions/{d}/posts/{p}/hide/", "teacher", {"hidden": "on", "reason": "Off topic."}),
    ("/discussions/{d}/posts/{p}/check/", "member", {}),
    ("/discussions/{d}/bring/", "member", {"side": "for"}),
]


@pytest.fixture
def world(discussion: Any, student: Any, classmate: Any, teacher: Any) -> dict:
    post = create_post(
        discussion=discussion, author=classmate, claim="A claim", premises=["p"], side="for"
    )
    return {
        "d": discussion.pk,
        "p": post.pk,
        "users": {"member": student, "author": classmate, "teacher": teacher},
    }


def _client(user: Any, *, enforce: bool) -> Client:
    client = Client(enforce_csrf_checks=enforce)
    client.force_login(user)
    return client


@pytest.mark.parametrize(("url", "who", "data"), POSTS)
def test_it_refuses_a_post_without_the_token(world: dict, url: str, who: str, data: dict) -> None:
    url = url.format(**world)
    user = world["users"][who]
    before = list(Post.objects.order_by("pk").values_list("pk", "claim", "hidden"))
    refused = _client(user, enforce=True).post(url, data)
    assert refused.status_code == 403
    assert list(Post.objects.order_by("pk").values_list("pk", "claim", "hidden")) == before
    # The same user gets past the CSRF check with the token (the test client adds it).
    assert _client(user, enforce=False).post(url, data).status_code != 403
