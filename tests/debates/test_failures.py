"""Failures in plain words: a debate the AI service could not serve, its Retry, unusable replies.

Real parts throughout: the orchestrator calls the fake Anthropic server
through the real SDK (which retries a 529 itself before giving up), and the
pages are read through Django's test client.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from debates import events
from engine import events as engine_events
from engine.models import Debate, DebateFailure, DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.anthropic_wire import Reply
from tests.fakes.debate_model import FakeDebateModel, parse_request

pytestmark = pytest.mark.django_db

RETRIES = 1
UNAVAILABLE = "The AI service was unavailable"


@pytest.fixture(autouse=True)
def few_retries(settings):
    settings.LLM_MAX_RETRIES = RETRIES


@pytest.fixture
def ada():
    return get_user_model().objects.create_user("ada")


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def overloaded(body) -> Reply:
    return Reply.error(529, error_type="overloaded_error", message="Overloaded")


class OverloadedFor:
    """The debate model, except that requests for some schemas get 529 while ``down``."""

    def __init__(self, *titles: str) -> None:
        self.titles = set(titles)
        self.down = True
        self.model = FakeDebateModel()

    def __call__(self, body) -> Reply:
        if self.down and (not self.titles or parse_request(body).title in self.titles):
            return overloaded(body)
        return self.model(body)


def owned_debate(user, **kwargs) -> Debate:
    debate = make_debate(**kwargs)
    Debate.objects.filter(pk=debate.pk).update(creator=user)
    debate.refresh_from_db()
    return debate


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_it_fails_in_plain_words_when_the_service_is_overloaded(fake_anthropic, ada) -> None:
    fake_anthropic.responder = overloaded
    debate = owned_debate(ada, personas=2, rounds=1)

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert (debate.status, debate.failure) == (
        DebateStatus.FAILED,
        DebateFailure.SERVICE_UNAVAILABLE,
    )
    assert debate.stop_reason == "" and debate.output is None
    # The first stage asked, the SDK retried, then the debate stopped: nothing committed.
    assert len(fake_anthropic.message_requests) == 1 + RETRIES
    assert not StageRun.objects.filter(debate=debate).exists()
    last = debate.events.order_by("seq").last()
    assert last.type == engine_events.DEBATE_ERROR
    assert last.payload["failure"] == "service_unavailable"
    assert (last.payload["stage"], last.payload["round"]) == ("decompose", 0)

    text = page(signed_in(ada), f"/debates/{debate.pk}/")
    assert UNAVAILABLE in text
    assert f'action="/debates/{debate.pk}/retry/"' in text and "csrfmiddlewaretoken" in text
    for internal in ("529", "Overloaded", "CRITICAL", "call_failed", "produced no argument"):
        assert internal not in text


def test_it_resumes_a_failed_debate_from_its_last_saved_stage_on_retry(
    fake_anthropic, ada, django_capture_on_commit_callbacks
) -> None:
    # Round 1's attacks hit an overloaded service; everything before them is saved.
    responder = OverloadedFor("PersonaAttacks")
    fake_anthropic.responder = responder
    debate = owned_debate(ada, personas=2, rounds=1)
    run_debate(debate_id=debate.pk)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    saved = list(StageRun.objects.filter(debate=debate).values_list("name", "round"))
    assert saved == [("decompose", 0), ("arguments", 0)]
    before = [parse_request(r.body).title for r in fake_anthropic.message_requests]

    responder.down = False
    with django_capture_on_commit_callbacks(execute=False) as launched:
        response = signed_in(ada).post(f"/debates/{debate.pk}/retry/")
    assert response.status_code == 302 and response["Location"] == f"/debates/{debate.pk}/live/"
    # On commit the run is handed to the background (not executed here: the test
    # runs it below, in this thread).
    assert any(c.__qualname__.startswith("run_in_background_on_commit") for c in launched)
    debate.refresh_from_db()
    assert (debate.status, debate.failure) == (DebateStatus.QUEUED, "")
    assert debate.events.order_by("seq").last().type == engine_events.DEBATE_RESUMED

    run_debate(debate_id=debate.pk)  # what the background would run

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE and debate.output is not None
    after = [parse_request(r.body).title for r in fake_anthropic.message_requests][len(before) :]
    # Only what was never answered is asked again: no second decomposition or opening.
    assert sorted(set(after)) == ["AttackValidations", "PersonaAttacks"]
    assert after.count("PersonaAttacks") == 2
    attacks = LLMCall.objects.filter(debate=debate, stage="attacks")
    assert attacks.count() == 2 and all(call.status == "ok" for call in attacks)
    # The running total still equals the ledger.
    assert debate.cost_usd == sum(call.cost_usd for call in LLMCall.objects.filter(debate=debate))
    types = list(debate.events.order_by("seq").values_list("type", flat=True))
    assert types.index(engine_events.DEBATE_RESUMED) == types.index(engine_events.DEBATE_ERROR) + 1
    assert types[-1] == engine_events.DEBATE_COMPLETE


def test_it_lets_only_the_owner_retry_and_only_a_failed_debate(fake_anthropic, ada) -> None:
    fake_anthropic.responder = overloaded
    debate = owned_debate(ada, personas=2, rounds=1)
    run_debate(debate_id=debate.pk)
    url = f"/debates/{debate.pk}/retry/"

    grace = get_user_model().objects.create_user("grace")
    assert signed_in(grace).post(url).status_code == 404
    assert signed_in(ada).get(url).status_code == 405
    assert signed_in(ada, enforce_csrf_checks=True).post(url).status_code == 403
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.FAILED

    done = owned_debate(ada, personas=2, rounds=1)
    Debate.objects.filter(pk=done.pk).update(status=DebateStatus.DONE)
    response = signed_in(ada).post(f"/debates/{done.pk}/retry/", follow=True)
    assert response.redirect_chain[-1][0] == f"/debates/{done.pk}/"
    assert "Only a failed debate can be retried" in unescape(response.content.decode())
    assert Debate.objects.get(pk=done.pk).status == DebateStatus.DONE


def test_it_shows_a_persona_reply_that_could_not_be_used(fake_anthropic, ada) -> None:
    model = FakeDebateModel()
    debate = owned_debate(ada, personas=2, rounds=1)
    silent = debate.personas.order_by("id").last().name

    def responder(body) -> Reply:
        request = parse_request(body)
        if request.title == "PersonaArguments" and request.speaker == silent:
            return Reply.json('{"arguments": [{"claim": ')  # cut-off JSON: unusable
        return model(body)

    fake_anthropic.responder = responder
    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert debate.status in (DebateStatus.DONE, DebateStatus.STOPPED)
    failed = debate.events.get(type=events.PERSONA_FAILED)
    assert failed.payload == {
        "round": 0,
        "persona": silent,
        "persona_id": failed.payload["persona_id"],
        "reason": "unusable_reply",
    }
    text = page(signed_in(ada), f"/debates/{debate.pk}/")
    assert f"{silent}'s reply could not be used in the opening round." in text
    live = page(signed_in(ada), f"/debates/{debate.pk}/live/")
    assert "could not be used in round %(round)s" in live  # the live page's own sentence
