"""The whole discussion as Argdown (read by the `argdown` command line) and AIF (by arguebuf).

A discussion with classmates' text full of markup is downloaded by a student of
an anonymous discussion and by its instructor; each file is read by the tool it
is written for and compared with the posts (tests/discussions/map_checks.py).
Hypothesis adds student-like text (tests/coach/student_text.py) in every shape
of map the posts can make. An argument brought from the coach carries its warrant,
qualifier and rebuttal into both files, as the coach's own exports do.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from discussions.graph_exports import MapPost, aif_document, argdown_document
from discussions.post_extras import CoachOrigin
from discussions.services import create_post, hide_post, standing_of, visible_posts
from tests.coach.real_tools import argdown_json
from tests.coach.student_text import student_text
from tests.discussions.map_checks import aif_map_problems, argdown_map_problems

TITLE = "Homework // *again* {2026}"
THESIS = "Homework should be abolished: see http://example.com/a.png <script>alert(1)</script>"


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def posts(discussion: Any, student: Any, classmate: Any) -> dict[str, Any]:
    discussion.anonymous = True
    discussion.title, discussion.thesis = TITLE, THESIS
    discussion.save()
    pro = create_post(
        discussion=discussion,
        author=student,
        claim="Rest [matters](http://x.org) #sleep",
        premises=["Sleep __init__ 2*3", "Kids are {tired} @[Thesis]"],
        side="for",
    )
    con = create_post(
        discussion=discussion,
        author=classmate,
        claim="Practice <Post 1> matters",
        premises=["Drill === skill"],
        side="against",
    )
    undermine = create_post(
        discussion=discussion,
        author=student,
        claim="Drill is not homework /* really */",
        premises=[],
        target=con,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )
    undercut = create_post(
        discussion=discussion,
        author=classmate,
        claim="Rest does not follow «from» sleep",
        premises=["Unless\nthey sleep anyway"],
        target=pro,
        attack_type="undercut",
        component="inference",
    )
    rebut = create_post(
        discussion=discussion,
        author=student,
        claim="It does -> follow",
        premises=[],
        target=undercut,
        attack_type="rebut",
        component="claim",
    )
    rude = create_post(
        discussion=discussion,
        author=classmate,
        claim="Rude remark",
        premises=[],
        target=undermine,
        attack_type="rebut",
        component="claim",
    )
    hide_post(post=rude, reason="Be kind")
    # The argument for was built with the coach: its other elements, markup and all.
    CoachOrigin.objects.create(
        post=pro,
        premise_elements=["grounds", "groundsBacking"],
        warrant="Tired kids {learn} less -> [Thesis]",
        qualifier='Probably, {not always} "in" primary',
        rebuttal="Unless <Post 2> they nap // at school",
    )
    return {"pro": pro, "con": con, "undermine": undermine, "undercut": undercut,
            "rebut": rebut, "rude": rude}  # fmt: skip


def _expected(discussion: Any, names: dict[int, str]) -> list[MapPost]:
    """The map the posts should make, written from the posts themselves."""
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    return [
        MapPost(
            id=p.pk,
            claim=p.claim,
            premises=tuple(p.premises),
            side=p.side,
            target=p.target_id,
            attack_type=p.attack_type,
            premise_index=p.premise_index,
            author=names[p.author_id],
            status=standing.posts[p.pk].status.value,
            **(
                {"warrant": o.warrant, "qualifier": o.qualifier, "rebuttal": o.rebuttal}
                if (o := getattr(p, "coach_origin", None))
                else {}
            ),
        )
        for p in posts
        if not p.hidden
    ]


pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_it_reads_the_discussion_back_from_argdown_as_each_reader_sees_it(
    discussion: Any, student: Any, classmate: Any, teacher: Any, posts: dict
) -> None:
    url = f"/discussions/{discussion.pk}/export.argdown"
    as_student = _client(student).get(url)
    as_teacher = _client(teacher).get(url)
    assert as_student["Content-Disposition"].endswith(f'discussion-{discussion.pk}.argdown"')
    texts = [as_student.content.decode(), as_teacher.content.decode()]
    run = argdown_json(texts)
    seen_by = [
        {student.pk: "you", classmate.pk: "Classmate 2"},  # anonymous: no name
        {student.pk: "Ana", classmate.pk: "Ben"},  # the instructor sees names
    ]
    for read, names in zip(run.results, seen_by, strict=True):
        expected = _expected(discussion, names)
        problems = argdown_map_problems(title=TITLE, thesis=THESIS, posts=expected, read=read)
        assert problems == [], run.output[-2000:]
    assert "Ben" not in texts[0] and "Rude remark" not in texts[0] + texts[1]
    # The coach's elements are there (their text is what argdown read, checked above).
    pro = posts["pro"].pk
    assert all(f"[Post {pro} warrant]" in t and f"<_ [Post {pro} rebuttal]" in t for t in texts)
    assert all("qualifier: " in text for text in texts)


def test_it_loads_the_discussion_in_arguebuf_as_documented(
    discussion: Any, student: Any, classmate: Any, teacher: Any, posts: dict
) -> None:
    response = _client(student).get(f"/discussions/{discussion.pk}/export.aif.json")
    assert response["Content-Type"] == "application/json"
    text = response.content.decode()
    expected = _expected(discussion, {student.pk: "you", classmate.pk: "Classmate 2"})
    assert aif_map_problems(thesis=THESIS, posts=expected, text=text) == []
    assert "Rude remark" not in text and "Ben" not in text and "Ana" not in text
    assert '"qualifier": "Probably, {not always} \\"in\\" primary"' in text


@st.composite
def maps(draw: Any) -> list[MapPost]:
    """A discussion's visible posts: arguments for and against, objections of each type
    to earlier posts (some to a hidden one, which is not in the list), text of students."""
    count = draw(st.integers(min_value=1, max_value=5))
    posts: list[MapPost] = []
    for number in range(1, count + 1):
        claim = draw(student_text().filter(lambda text: text.split()))
        premises = tuple(draw(st.lists(student_text().filter(str.split), max_size=2)))
        author = draw(student_text().filter(str.split))
        status = draw(st.sampled_from(["stands", "defeated", "contested"]))
        # Brought from the coach or not: any of the other elements, on any post (one with
        # no premise and no warrant has no inference for a qualifier or a rebuttal).
        elements = {
            name: draw(student_text(optional=True)) for name in ("warrant", "qualifier", "rebuttal")
        }
        if not posts or draw(st.booleans()):
            side = draw(st.sampled_from(["for", "against"]))
            premises = premises or ("because",)
            posts.append(MapPost(number, claim, premises, side=side, author=author,
                                 status=status, **elements))  # fmt: skip
            continue
        target = draw(st.sampled_from([*posts, None]))
        kinds = ["rebut", "undercut"] + (["undermine"] if target and target.premises else [])
        kind = draw(st.sampled_from(kinds))
        index = draw(st.integers(0, len(target.premises) - 1)) if kind == "undermine" else None
        posts.append(
            MapPost(number, claim, premises, target=target.id if target else 999,
                    attack_type=kind, premise_index=index, author=author, status=status,
                    **elements)
        )  # fmt: skip
    return posts


@pytest.mark.slow
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(st.tuples(student_text().filter(str.split), maps()), min_size=8, max_size=8))
def test_it_reads_student_text_back_from_argdown_in_every_shape(cases: list) -> None:
    # One run of the command line for 8 documents: Node takes a second to start.
    documents = [argdown_document(title=t, thesis=t, posts=posts) for t, posts in cases]
    run = argdown_json(documents)
    found = [
        problems
        for (t, posts), read in zip(cases, run.results, strict=True)
        if (problems := argdown_map_problems(title=t, thesis=t, posts=posts, read=read))
    ]
    assert found == [], run.output[-2000:]


@settings(max_examples=120, deadline=None)
@given(student_text().filter(str.split), maps())
def test_it_loads_student_text_in_arguebuf_in_every_shape(thesis: str, posts: list) -> None:
    assert (
        aif_map_problems(thesis=thesis, posts=posts, text=aif_document(thesis=thesis, posts=posts))
        == []
    )
