"""The discussion's JSON (against its schema) and its framework in ICCMA'23."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from argumentation import grounded_extension, parse_iccma23
from discussions.services import create_post, hide_post
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def posts(discussion: Any, student: Any, classmate: Any) -> dict[str, Any]:
    discussion.anonymous = True
    discussion.save()
    pro = create_post(
        discussion=discussion, author=student, claim="Rest matters", premises=["Sleep"], side="for"
    )
    con = create_post(
        discussion=discussion,
        author=classmate,
        claim="Practice matters",
        premises=["Drill"],
        side="against",
    )
    objection = create_post(
        discussion=discussion,
        author=student,
        claim="Drill is not homework",
        premises=[],
        target=con,
        attack_type="undermine",
        component="premise",
        premise_index=0,
        scheme="",
    )
    rude = create_post(
        discussion=discussion,
        author=classmate,
        claim="Rude remark",
        premises=[],
        target=objection,
        attack_type="rebut",
        component="claim",
    )
    hide_post(post=rude, reason="Be kind")
    return {"pro": pro, "con": con, "objection": objection, "rude": rude}


def test_it_exports_what_the_reader_sees_against_the_schema(
    discussion: Any, student: Any, posts: dict
) -> None:
    response = _client(student).get(f"/discussions/{discussion.pk}/export.json")
    document = json.loads(response.content)
    assert schema_errors(document, "argue-discussion.v1") == []
    assert (document["format"], document["version"]) == ("argue-discussion", 1)
    assert document["thesisStatus"] == "stands"
    by_id = {p["id"]: p for p in document["posts"]}
    assert by_id[posts["pro"].pk]["author"] == "you"
    assert by_id[posts["con"].pk]["author"] == "Classmate 2"  # anonymous: no name
    assert "ben" not in response.content.decode().lower()
    hidden = by_id[posts["rude"].pk]
    assert (hidden["claim"], hidden["status"], hidden["hiddenReason"]) == (None, None, None)
    assert by_id[posts["con"].pk]["status"] == "defeated"


def test_it_exports_names_and_hidden_text_to_the_instructor(
    discussion: Any, teacher: Any, posts: dict
) -> None:
    document = _client(teacher).get(f"/discussions/{discussion.pk}/export.json").json()
    assert schema_errors(document, "argue-discussion.v1") == []
    by_id = {p["id"]: p for p in document["posts"]}
    assert by_id[posts["con"].pk]["author"] == "Ben"
    assert by_id[posts["rude"].pk]["claim"] == "Rude remark"
    assert by_id[posts["rude"].pk]["hiddenReason"] == "Be kind"


def test_it_writes_the_framework_in_iccma_format_without_hidden_posts(
    discussion: Any, student: Any, posts: dict
) -> None:
    text = _client(student).get(f"/discussions/{discussion.pk}/framework.af").content.decode()
    af = parse_iccma23(text, names=True)
    assert set(af.arguments) == {f"post-{posts[k].pk}" for k in ("pro", "con", "objection")}
    assert grounded_extension(af) == {f"post-{posts['pro'].pk}", f"post-{posts['objection'].pk}"}
