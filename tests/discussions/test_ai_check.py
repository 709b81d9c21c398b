"""The optional AI check of an objection, through the real anthropic SDK to the fake server.

Bounded like every paid call: the rate and the quota before it (no request
when a limit says no), the cheap model, a small max_tokens, a reply cap;
shown to the objection's author and the instructor only; without a key no
call, and the pages say only the structural checks apply.
"""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from discussions.ai_check import MAX_TOKENS, check_reserve_usd
from discussions.post_extras import CheckStatus, ObjectionCheck
from discussions.services import create_post
from tests.fakes.anthropic_server import Reply
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db

VERDICT = {
    "fits_type": False,
    "restatement": True,
    "explanation": "It denies the claim <b>itself</b>, not premise 1: call it a rebut.",
}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def objection(discussion: Any, student: Any, classmate: Any) -> Any:
    argument = create_post(
        discussion=discussion,
        author=classmate,
        claim="Homework builds discipline",
        premises=["Daily tasks train habits"],
        side="against",
    )
    return create_post(
        discussion=discussion,
        author=student,
        claim="Homework does not build discipline",
        premises=[],
        target=argument,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )


def _check(user: Any, discussion: Any, post: Any) -> Any:
    return _client(user).post(f"/discussions/{discussion.pk}/posts/{post.pk}/check/", follow=True)


def test_it_checks_an_objection_with_the_cheap_model_and_shows_the_author_and_instructor(
    discussion: Any, student: Any, classmate: Any, teacher: Any, objection: Any,
    fake_anthropic: Any, settings: Any,
) -> None:  # fmt: skip
    fake_anthropic.enqueue(Reply.json(VERDICT))
    page = _check(student, discussion, objection).content.decode()
    check = ObjectionCheck.objects.get(post=objection)
    assert (check.status, check.fits_type, check.restatement) == (CheckStatus.DONE, False, True)
    assert Decimal(0) < check.cost_usd < check_reserve_usd()
    [request] = fake_anthropic.message_requests
    assert request.body["model"] == settings.CHEAP_MODEL
    assert request.body["max_tokens"] == MAX_TOKENS
    sent = request.body["messages"][0]["content"]
    assert "Homework does not build discipline" in str(sent) and "undermine of premise 1" in str(
        sent
    )
    assert "it does not attack what its type says" in page
    assert "It denies the claim &lt;b&gt;itself&lt;/b&gt;" in page  # a model's text, escaped
    teacher_page = _client(teacher).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "It denies the claim" in teacher_page
    classmate_page = _client(classmate).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "It denies the claim" not in classmate_page
    exports = {
        who: _client(who).get(f"/discussions/{discussion.pk}/export.json").json()
        for who in (student, teacher, classmate)
    }
    for document in exports.values():
        assert schema_errors(document, "argue-discussion.v1") == []
    checks = {who: {p["id"]: p["aiCheck"] for p in d["posts"]} for who, d in exports.items()}
    assert checks[student][objection.pk]["fitsType"] is False
    assert checks[teacher][objection.pk]["restatement"] is True
    assert checks[classmate][objection.pk] is None  # advice for its author and the instructor
    # Done once: asking again calls nothing.
    _check(student, discussion, objection)
    assert len(fake_anthropic.message_requests) == 1


def test_it_says_so_plainly_when_the_check_fails_and_lets_the_author_try_again(
    discussion: Any, student: Any, objection: Any, fake_anthropic: Any
) -> None:
    too_long = {**VERDICT, "explanation": "x" * 401}  # past the schema's cap: not stored
    fake_anthropic.enqueue(Reply.json(too_long))
    page = _check(student, discussion, objection).content.decode()
    assert ObjectionCheck.objects.get(post=objection).status == CheckStatus.FAILED
    assert "The AI check did not finish this time" in page
    assert "x" * 401 not in page and "validation" not in page.lower()
    assert "Check it with AI" in page
    fake_anthropic.enqueue(Reply.json(VERDICT))
    _check(student, discussion, objection)
    assert ObjectionCheck.objects.get(post=objection).status == CheckStatus.DONE


def test_it_gives_up_at_the_deadline(
    discussion: Any, student: Any, objection: Any, fake_anthropic: Any, settings: Any
) -> None:
    settings.LLM_DEADLINE_SECONDS = 0.5  # the check's own deadline is at most the site's
    settings.LLM_MAX_RETRIES = 0
    fake_anthropic.enqueue(Reply.json(VERDICT, latency_ms=3000))
    started = time.monotonic()
    page = _check(student, discussion, objection).content.decode()
    assert time.monotonic() - started < 2.5
    assert ObjectionCheck.objects.get(post=objection).status == CheckStatus.FAILED
    assert "The AI check did not finish this time" in page


def test_it_calls_no_model_when_a_limit_says_no(
    discussion: Any, student: Any, objection: Any, fake_anthropic: Any, settings: Any
) -> None:
    # Earlier checks used up today's allowance: the checks' own ledger counts in the spend.
    settings.QUOTA_DAILY_USD = Decimal("0.01")
    earlier = create_post(
        discussion=discussion,
        author=student,
        claim="An earlier objection",
        premises=[],
        target=objection.target,
        attack_type="rebut",
        component="claim",
    )
    ObjectionCheck.objects.create(
        post=earlier, requested_by=student, status=CheckStatus.DONE, cost_usd=Decimal("0.01")
    )
    page = _check(student, discussion, objection).content.decode()
    assert fake_anthropic.message_requests == []
    assert not ObjectionCheck.objects.filter(post=objection).exists()
    assert "You have used today&#x27;s AI allowance. It renews" in page
    # The rate, before any quota: so many checks an hour.
    settings.QUOTA_DAILY_USD = Decimal("5")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "discussion_check": (1, 3600)}
    fake_anthropic.enqueue(Reply.json(VERDICT))
    _check(student, discussion, objection)
    ObjectionCheck.objects.filter(post=earlier).update(status=CheckStatus.FAILED)
    page = _check(student, discussion, earlier).content.decode()
    assert len(fake_anthropic.message_requests) == 1
    assert ObjectionCheck.objects.get(post=earlier).status == CheckStatus.FAILED
    assert '<li class="error">' in page


def test_it_checks_only_the_authors_own_objection(
    discussion: Any, classmate: Any, teacher: Any, objection: Any, fake_anthropic: Any
) -> None:
    for user in (classmate, teacher):
        page = _check(user, discussion, objection).content.decode()
        assert "Only its author can ask for a check" in page
    assert fake_anthropic.message_requests == []
    assert not ObjectionCheck.objects.exists()


def test_it_says_only_the_structural_checks_apply_without_a_key(
    discussion: Any, student: Any, objection: Any, no_anthropic_key: None
) -> None:
    page = _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "AI checking is off on this site: only the structural checks apply" in page
    form = _client(student).get(f"/discussions/{discussion.pk}/posts/{objection.target_id}/object/")
    assert "only the structural checks apply" in form.content.decode()
    page = _check(student, discussion, objection).content.decode()
    assert "AI checking is off on this site" in page
    assert not ObjectionCheck.objects.exists()
