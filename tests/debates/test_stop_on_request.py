"""A run stops when its owner asks: before its next stage, paying for nothing more.

The engine's own stop reason (``STOPPED_ON_REQUEST``), not a format's: the
stage under way finishes and is kept, the next is never asked of the model.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from engine import events as engine_events
from engine import orchestrator
from engine.models import Debate, DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from engine.services import StopRefused, request_stop
from engine.stop_messages import stop_sentence
from engine.stop_reasons import StopReason
from engine.stopping import stop_request_decision
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


def _owned_debate(user, **kwargs) -> Debate:
    debate = make_debate(**kwargs)
    Debate.objects.filter(pk=debate.pk).update(creator=user)
    debate.refresh_from_db()
    return debate


def test_it_decides_nothing_until_asked() -> None:
    assert stop_request_decision(requested=False, next_stage="attacks", round=1) is None
    decision = stop_request_decision(requested=True, next_stage="attacks", round=2)
    assert decision.reason == StopReason.STOPPED_ON_REQUEST
    assert (decision.code, decision.params) == (
        "stopped_on_request",
        {"stage": "attacks", "round": 2},
    )


def test_it_stops_a_queued_run_before_any_call(ada, fake_anthropic) -> None:
    fake_anthropic.responder = FakeDebateModel()
    debate = _owned_debate(ada)
    request_stop(debate_id=debate.pk, user=ada)

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, "STOPPED_ON_REQUEST")
    assert debate.stop_code == "stopped_on_request"
    assert LLMCall.objects.filter(debate=debate).count() == 0
    assert not StageRun.objects.filter(debate=debate).exists()
    last = debate.events.order_by("-seq").first()
    assert last.type == engine_events.DEBATE_COMPLETE
    assert last.payload["stop_reason"] == "STOPPED_ON_REQUEST"


def test_it_finishes_the_stage_under_way_and_pays_for_no_other(
    ada, fake_anthropic, monkeypatch
) -> None:
    fake_anthropic.responder = FakeDebateModel()
    debate = _owned_debate(ada, personas=2, rounds=2)
    commit = orchestrator._Run._commit

    def commit_then_ask_to_stop(fmt, stage, locked, name, round, state, specs, results):
        # The owner presses Stop while the first stage is under way.
        if not StageRun.objects.filter(debate=locked).exists():
            request_stop(debate_id=locked.pk, user=ada)
        return commit(fmt, stage, locked, name, round, state, specs, results)

    monkeypatch.setattr(orchestrator._Run, "_commit", staticmethod(commit_then_ask_to_stop))

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    stages = list(StageRun.objects.filter(debate=debate).values_list("name", flat=True))
    assert stages == ["decompose"]
    assert debate.status == DebateStatus.STOPPED
    assert debate.stop_params == {"stage": "arguments", "round": 0}
    # Only the first stage's call was paid for.
    assert LLMCall.objects.filter(debate=debate).count() == 1


def test_it_says_why_in_the_readers_language() -> None:
    with translation.override("es"):
        spanish = stop_sentence("stopped_on_request", {"stage": "attacks", "round": 2})
    with translation.override("en"):
        english = stop_sentence("stopped_on_request", {"stage": "attacks", "round": 2})
    assert english.startswith("Its owner stopped it before the next stage")
    assert spanish.startswith("Su dueño la detuvo antes de la siguiente etapa")
    assert "ronda 2" in spanish


def test_it_refuses_another_users_run_and_a_finished_one(ada) -> None:
    other = get_user_model().objects.create_user("grace", password="a-long-enough-pass")
    debate = _owned_debate(other)
    with pytest.raises(StopRefused):
        request_stop(debate_id=debate.pk, user=ada)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.DONE)
    with pytest.raises(StopRefused):
        request_stop(debate_id=debate.pk, user=other)
    assert Debate.objects.get(pk=debate.pk).stop_requested_at is None


def test_it_stops_from_the_page_and_offers_it_only_to_the_owner(client, ada) -> None:
    debate = _owned_debate(ada)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.RUNNING)
    page = client.get(reverse("debates:live", args=[debate.pk]))
    assert b'action="%s"' % reverse("engine:stop", args=[debate.pk]).encode() in page.content

    answer = client.post(reverse("engine:stop", args=[debate.pk]), follow=True)

    assert answer.redirect_chain[0] == (reverse("debates:live", args=[debate.pk]), 302)
    assert Debate.objects.get(pk=debate.pk).stop_requested_at is not None
    assert b"Stopping: it ends before its next stage." in answer.content
    assert b'class="stop-form"' not in answer.content


def test_it_is_a_404_for_a_run_the_user_cannot_see(client, ada) -> None:
    other = get_user_model().objects.create_user("grace", password="a-long-enough-pass")
    debate = _owned_debate(other)
    assert client.post(reverse("engine:stop", args=[debate.pk])).status_code == 404
    assert client.get(reverse("engine:stop", args=[debate.pk])).status_code == 405


def test_a_retry_voids_an_older_request_to_stop(ada, settings, monkeypatch) -> None:
    from engine import services

    monkeypatch.setattr(services, "debates_available", lambda: True)
    monkeypatch.setattr(services, "launch", lambda debate_id: None)
    debate = _owned_debate(ada)
    request_stop(debate_id=debate.pk, user=ada)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.FAILED, failure="internal")

    services.retry_debate(debate_id=debate.pk, user=ada)

    assert Debate.objects.get(pk=debate.pk).stop_requested_at is None


def test_it_needs_the_csrf_token(ada) -> None:
    from django.test import Client

    debate = _owned_debate(ada)
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    assert client.post(reverse("engine:stop", args=[debate.pk])).status_code == 403
    assert Debate.objects.get(pk=debate.pk).stop_requested_at is None


def test_it_stores_the_stop_as_a_code_and_words_it_when_exported(client, ada, fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = _owned_debate(ada)
    request_stop(debate_id=debate.pk, user=ada)
    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    # No sentence is stored, on the row or in its last event: only the code and its numbers.
    assert debate.stop_detail == ""
    complete = debate.events.get(type=engine_events.DEBATE_COMPLETE)
    assert "detail" not in complete.payload
    assert complete.payload["params"] == {"stage": "decompose", "round": 0}
    english = debate.stop_in_english
    assert english.startswith("Its owner stopped it before the next stage (")
    assert english.endswith(", round 0).")
    exported = client.get(reverse("debates:export_json", args=[debate.pk])).json()
    assert english in json.dumps(exported)
    with translation.override("es"):
        assert stop_sentence(debate.stop_code, debate.stop_params).startswith("Su dueño")


def test_it_ends_a_queued_run_at_once_when_no_worker_takes_it(client, ada, fake_anthropic) -> None:
    # Queued, and no worker here to take it (a site with Redis but no Celery worker):
    # the owner must not read "Stopping" until one comes.
    fake_anthropic.responder = FakeDebateModel()
    debate = _owned_debate(ada)
    assert debate.status == DebateStatus.QUEUED

    answer = client.post(reverse("engine:stop", args=[debate.pk]), follow=True)

    debate.refresh_from_db()
    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, "STOPPED_ON_REQUEST")
    assert fake_anthropic.requests == []
    assert not LLMCall.objects.filter(debate=debate).exists()
    assert b"Stopping: it ends before its next stage." not in answer.content
    assert b'class="stop-form"' not in answer.content
    assert b"Stopped before it began: nothing was paid for." in answer.content
    # A worker that gets the task later finds nothing to do.
    assert run_debate(debate_id=debate.pk).outcome == "finished"
