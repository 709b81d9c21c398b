"""A student brings one of their own coach arguments into a discussion, mapped as the
stress test maps the seven elements (stresstests.mapping)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from coach.models import Argument
from discussions.models import Post
from discussions.post_extras import CoachOrigin
from discussions.services import create_post
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db

ELEMENTS = {
    "claim": "Homework should go <b>now</b>",
    "grounds": "Pupils sleep less when they have homework",
    "warrant": "What costs children sleep should go",
    "grounds_backing": "A 2024 survey of 3,000 pupils",
    "warrant_backing": "",
    "qualifier": "In primary school",
    "rebuttal": "Unless the homework is reading for pleasure",
}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def coach_argument(student: Any) -> Argument:
    return Argument.objects.create(owner=student, title="Sleep first", **ELEMENTS)


def _bring(user: Any, discussion: Any, argument: Any, side: str = "for") -> Any:
    return _client(user).post(
        f"/discussions/{discussion.pk}/bring/", {"argument": argument.pk, "side": side}
    )


def test_it_posts_a_coach_argument_mapped_as_the_stress_test_maps_it(
    discussion: Any, student: Any, classmate: Any, coach_argument: Argument
) -> None:
    form = _client(student).get(f"/discussions/{discussion.pk}/bring/").content.decode()
    assert "Sleep first" in form
    response = _bring(student, discussion, coach_argument)
    post = Post.objects.get(discussion=discussion)
    assert response.status_code == 302 and response["Location"].endswith(f"#post-{post.pk}")
    assert (post.kind, post.side, post.claim) == ("argument", "for", ELEMENTS["claim"])
    # The grounds and the backings written are the premises (each open to an undermine).
    assert post.premises == [ELEMENTS["grounds"], ELEMENTS["grounds_backing"]]
    origin = CoachOrigin.objects.get(post=post)
    assert origin.argument == coach_argument
    assert origin.premise_elements == ["grounds", "groundsBacking"]
    assert (origin.warrant, origin.qualifier, origin.rebuttal) == (
        ELEMENTS["warrant"], ELEMENTS["qualifier"], ELEMENTS["rebuttal"],
    )  # fmt: skip
    page = _client(classmate).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Brought from the coach." in page and ELEMENTS["warrant"] in page
    assert "Unless the homework is reading for pleasure" in page
    assert "Homework should go &lt;b&gt;now&lt;/b&gt;" in page and "<b>now</b>" not in page
    document = _client(classmate).get(f"/discussions/{discussion.pk}/export.json").json()
    assert schema_errors(document, "argue-discussion.v1") == []
    assert document["posts"][0]["fromCoach"] == {
        "warrant": ELEMENTS["warrant"], "qualifier": ELEMENTS["qualifier"],
        "rebuttal": ELEMENTS["rebuttal"],
    }  # fmt: skip
    # The warrant is the step an undercut attacks; the grounds' backing a premise to undermine.
    for attack, component, index in (("undercut", "inference", None), ("undermine", "premise", 1)):
        create_post(
            discussion=discussion,
            author=classmate,
            claim="No",
            premises=[],
            target=post,
            attack_type=attack,
            component=component,
            premise_index=index,
        )


def test_it_offers_and_posts_only_the_students_own_arguments(
    discussion: Any, student: Any, classmate: Any, coach_argument: Argument
) -> None:
    form = _client(classmate).get(f"/discussions/{discussion.pk}/bring/").content.decode()
    assert "Sleep first" not in form
    assert "You have no coach argument with a claim and grounds yet." in form
    assert _bring(classmate, discussion, coach_argument).status_code == 400
    unfinished = Argument.objects.create(owner=student, title="Half", claim="Only a claim")
    assert _bring(student, discussion, unfinished).status_code == 400
    assert not Post.objects.filter(discussion=discussion).exists()


def test_it_refuses_an_element_longer_than_a_post_takes(
    discussion: Any, student: Any, coach_argument: Argument
) -> None:
    coach_argument.grounds = "word " * 300  # 1,500 characters: a coach step takes 5,000
    coach_argument.save()
    response = _bring(student, discussion, coach_argument)
    assert response.status_code == 400
    assert "longer than 1000 characters" in response.content.decode()
    assert not Post.objects.exists()


def test_it_keeps_the_bring_page_to_the_class(
    discussion: Any, outsider: Any, other_teacher: Any, coach_argument: Argument
) -> None:
    outsiders_own = Argument.objects.create(owner=outsider, title="Mine", **ELEMENTS)
    for user, argument in ((outsider, outsiders_own), (other_teacher, coach_argument)):
        assert _client(user).get(f"/discussions/{discussion.pk}/bring/").status_code == 404
        assert _bring(user, discussion, argument).status_code == 404
    assert Client().get(f"/discussions/{discussion.pk}/bring/").status_code == 302
    assert not Post.objects.exists()
