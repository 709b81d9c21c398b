"""The discussion page: members read and post, labels in words, objections typed by the rule."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from discussions.models import Post
from discussions.services import POST_RATE, create_post
from discussions.teams import split_teams

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _argument(discussion: Any, author: Any, side: str = "for", **kw: Any) -> Post:
    return create_post(
        discussion=discussion,
        author=author,
        claim=kw.pop("claim", "A claim"),
        premises=["A reason"],
        side=side,
        **kw,
    )


def test_it_shows_the_thesis_and_an_argument_that_stands(discussion: Any, student: Any) -> None:
    _argument(discussion, student, claim="Kids need rest <b>now</b>")
    page = _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Homework should be abolished" in page
    assert "The thesis stands" in page
    assert "Kids need rest &lt;b&gt;now&lt;/b&gt;" in page and "<b>now</b>" not in page


def test_it_posts_an_argument_through_the_form(discussion: Any, student: Any) -> None:
    response = _client(student).post(
        f"/discussions/{discussion.pk}/arguments/",
        {
            "side": "against",
            "claim": "Practice helps",
            "premise_1": "Spaced practice works",
            "scheme": "cause_to_effect",
        },
    )
    assert response.status_code == 302
    post = Post.objects.get()
    assert (post.side, post.premises, post.scheme, post.author) == (
        "against",
        ["Spaced practice works"],
        "cause_to_effect",
        student,
    )


def test_it_refuses_an_argument_without_a_premise_in_a_sentence(
    discussion: Any, student: Any
) -> None:
    response = _client(student).post(
        f"/discussions/{discussion.pk}/arguments/", {"side": "for", "claim": "x", "premise_1": "  "}
    )
    assert response.status_code == 400
    assert not Post.objects.exists()


def test_it_enforces_the_type_component_rule_on_objections(
    discussion: Any, student: Any, classmate: Any
) -> None:
    target = _argument(discussion, classmate)
    url = f"/discussions/{discussion.pk}/posts/{target.pk}/object/"
    client = _client(student)
    # The form asks one thing, the type; the part follows from it (a posted part is not
    # read), so a rebut cannot be aimed at a premise. The form shows no second choice.
    page = client.get(url).content.decode()
    assert 'name="attack_type"' in page and 'name="component"' not in page
    # A premise the target does not have.
    response = client.post(
        url,
        {"attack_type": "undermine", "component": "premise", "premise_index": "3", "claim": "No"},
    )
    assert response.status_code == 400
    assert not Post.objects.filter(kind="objection").exists()
    rebut = client.post(url, {"attack_type": "rebut", "component": "premise", "claim": "No"})
    assert rebut.status_code == 302
    assert Post.objects.get(kind="objection").component == "claim"
    Post.objects.filter(kind="objection").delete()
    response = client.post(
        url,
        {
            "attack_type": "undermine",
            "component": "premise",
            "premise_index": "0",
            "claim": "Not so",
        },
    )
    assert response.status_code == 302
    objection = Post.objects.get(kind="objection")
    assert (objection.target, objection.attack_type, objection.premise_index) == (
        target,
        "undermine",
        0,
    )
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    assert "is defeated" in page  # the unanswered objection defeats the argument


def test_it_offers_the_schemes_critical_questions_as_objections(
    discussion: Any, student: Any, classmate: Any
) -> None:
    target = _argument(discussion, classmate, scheme="expert_opinion")
    client = _client(student)
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Do other experts in the field agree" in page
    form = client.get(
        f"/discussions/{discussion.pk}/posts/{target.pk}/object/?question=expert.consistency"
    ).content.decode()
    assert "One source saying so is not enough" in form
    assert re.search(r'value="undercut"[^>]*checked', form)
    assert not re.search(r'value="rebut"[^>]*checked', form)
    spanish = client.get(
        f"/discussions/{discussion.pk}/posts/{target.pk}/object/?question=expert.consistency",
        HTTP_ACCEPT_LANGUAGE="es",
    ).content.decode()
    assert "Que lo diga una fuente no basta" in spanish


def test_it_says_which_objection_to_answer(discussion: Any, student: Any, classmate: Any) -> None:
    target = _argument(discussion, student)
    objection = create_post(
        discussion=discussion,
        author=classmate,
        claim="Rest is not the issue",
        premises=[],
        target=target,
        attack_type="rebut",
        component="claim",
    )
    undercut = create_post(
        discussion=discussion,
        author=classmate,
        claim="Does not follow",
        premises=[],
        target=target,
        attack_type="undercut",
        component="inference",
    )
    html = (
        _client(student)
        .get(f"/discussions/{discussion.pk}/posts/{target.pk}/change/")
        .content.decode()
    )
    assert "Answer these 2 posts and the post stands again" in html
    assert f"#post-{objection.pk}" in html and f"#post-{undercut.pk}" in html


def test_it_hides_names_from_classmates_in_an_anonymous_discussion(
    discussion: Any, student: Any, classmate: Any, teacher: Any
) -> None:
    discussion.anonymous = True
    discussion.save()
    _argument(discussion, classmate)
    assert "Ben" not in _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Classmate 1" in _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Ben" in _client(teacher).get(f"/discussions/{discussion.pk}/").content.decode()


def test_it_lets_the_instructor_hide_a_post_with_a_reason_the_author_reads(
    discussion: Any, student: Any, classmate: Any, teacher: Any
) -> None:
    target = _argument(discussion, student, side="for")
    against = _argument(discussion, classmate, side="against", claim="Rude words here")
    url = f"/discussions/{discussion.pk}/posts/{against.pk}/hide/"
    assert _client(teacher).post(url, {"hidden": "on", "reason": ""}).status_code == 302
    assert not Post.objects.get(pk=against.pk).hidden  # no reason, not hidden
    _client(teacher).post(url, {"hidden": "on", "reason": "Insults are not arguments"})
    assert Post.objects.get(pk=against.pk).hidden
    author = _client(classmate).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Insults are not arguments" in author
    other = _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "Rude words here" not in other and "A post hidden by the instructor." in other
    # Without the hidden argument against, the argument for stands alone.
    assert "The thesis stands" in other
    assert target.pk


def test_it_refuses_posts_in_a_locked_discussion(discussion: Any, student: Any) -> None:
    discussion.locked = True
    discussion.save()
    response = _client(student).post(
        f"/discussions/{discussion.pk}/arguments/", {"side": "for", "claim": "x", "premise_1": "y"}
    )
    assert response.status_code == 400
    assert "closed" in response.content.decode()
    assert not Post.objects.exists()


def test_it_limits_how_fast_a_student_posts(discussion: Any, student: Any) -> None:
    client = _client(student)
    data = {"side": "for", "claim": "x", "premise_1": "y"}
    for _ in range(POST_RATE[0]):
        assert client.post(f"/discussions/{discussion.pk}/arguments/", data).status_code == 302
    response = client.post(f"/discussions/{discussion.pk}/arguments/", data)
    assert response.status_code == 400
    assert "posting very fast" in response.content.decode()
    assert Post.objects.count() == POST_RATE[0]


def test_it_answers_a_resync_with_nothing_until_something_changes(
    discussion: Any, student: Any
) -> None:
    client = _client(student)
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    version = page.split('id="standing" data-v="')[1].split('"')[0]
    assert client.get(f"/discussions/{discussion.pk}/standing/?v={version}").status_code == 204
    _argument(discussion, student, claim="Fresh")
    response = client.get(f"/discussions/{discussion.pk}/standing/?v={version}")
    assert response.status_code == 200 and "Fresh" in response.content.decode()


def test_it_says_which_post_the_thesis_hangs_on(
    discussion: Any, student: Any, classmate: Any
) -> None:
    pro = _argument(discussion, student, side="for")
    con = _argument(discussion, classmate, side="against", claim="Practice matters")
    objection = create_post(
        discussion=discussion,
        author=student,
        claim="Practice is done in class",
        premises=[],
        target=con,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )
    client = _client(classmate)
    assert "The thesis stands" in client.get(f"/discussions/{discussion.pk}/").content.decode()
    html = client.get(f"/discussions/{discussion.pk}/change/").content.decode()
    # Answer the one objection and the argument against is back: the thesis is contested.
    assert "Answer this post (or see it withdrawn) and the thesis is contested" in html
    assert f"#post-{objection.pk}" in html and f"#post-{pro.pk}" not in html


def test_it_says_which_one_post_leaves_a_contested_thesis_open(
    discussion: Any, student: Any, classmate: Any
) -> None:
    pro = _argument(discussion, student, side="for")
    replies = []
    for _ in range(2):  # two undermines of the argument, each rebutted back: a deadlock
        doubt = create_post(
            discussion=discussion,
            author=classmate,
            claim="The reason is false",
            premises=[],
            target=pro,
            attack_type="undermine",
            component="premise",
            premise_index=0,
        )
        replies.append(
            create_post(
                discussion=discussion,
                author=student,
                claim="The reason is true",
                premises=[],
                target=doubt,
                attack_type="rebut",
                component="claim",
            )
        )
    client = _client(classmate)
    page = client.get(f"/discussions/{discussion.pk}/").content.decode()
    assert "The thesis is contested" in page
    html = client.get(f"/discussions/{discussion.pk}/change/").content.decode()
    # Without the first rebuttal its undermine stands, the argument falls: the thesis is open.
    assert "Answer this post (or see it withdrawn) and the thesis is open" in html
    linked = {int(pk) for pk in re.findall(r'href="#post-(\d+)"', html)}
    assert linked == {replies[0].pk}
    spanish = client.get(f"/discussions/{discussion.pk}/change/", HTTP_ACCEPT_LANGUAGE="es")
    assert "y la tesis queda abierta" in spanish.content.decode()


def test_it_speaks_spanish_to_a_spanish_reader(
    discussion: Any, student: Any, classmate: Any
) -> None:
    target = _argument(discussion, classmate, side="against")
    _argument(discussion, student, side="for")
    create_post(
        discussion=discussion,
        author=student,
        claim="No",
        premises=[],
        target=target,
        attack_type="undercut",
        component="inference",
    )
    page = (
        _client(student)
        .get(f"/discussions/{discussion.pk}/", HTTP_ACCEPT_LANGUAGE="es")
        .content.decode()
    )
    assert "La tesis se sostiene" in page
    assert "está derrotada" in page and "Objetar esto" in page
    assert "Publicar mi argumento" in page


def _objection_links(page: str) -> set[int]:
    """The posts this page offers an "Object to this" link (or critical questions) for."""
    return {int(pk) for pk in re.findall(r"/discussions/\d+/posts/(\d+)/object/", page)}


def test_it_offers_each_team_only_the_objections_its_rule_accepts(
    discussion: Any, student: Any, classmate: Any, teacher: Any
) -> None:
    split_teams(discussion=discussion)  # ana for, ben against
    ours = _argument(discussion, student, side="for", scheme="cause_to_effect")
    theirs = _argument(discussion, classmate, side="against")
    reply = create_post(
        discussion=discussion,
        author=classmate,
        claim="Not so",
        premises=[],
        target=ours,
        attack_type="rebut",
        component="claim",
    )
    # An objection to ours or to ben's objections' objections supports "against"; one to
    # theirs or to ben's reply supports "for".
    pages = {
        user.username: _client(user).get(f"/discussions/{discussion.pk}/").content.decode()
        for user in (student, classmate, teacher)
    }
    assert _objection_links(pages["ana"]) == {theirs.pk, reply.pk}
    assert _objection_links(pages["ben"]) == {ours.pk}
    assert _objection_links(pages["teacher"]) == {ours.pk, theirs.pk, reply.pk}
    # What the page offers, the server accepts; what it leaves out, the server refuses.
    for user, target, accepted in (
        (student, theirs, True),
        (student, ours, False),
        (classmate, ours, True),
        (classmate, reply, False),
    ):
        response = _client(user).post(
            f"/discussions/{discussion.pk}/posts/{target.pk}/object/",
            {"attack_type": "rebut", "component": "claim", "claim": "No"},
        )
        assert (response.status_code == 302) == accepted, (user.username, target.claim)
