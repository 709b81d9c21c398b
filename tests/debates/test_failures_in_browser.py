"""A debate the AI service could not serve, in Chromium: the plain sentence, then Retry.

The debate first runs against an overloaded fake server (529 for every
attack call) and fails; the live page says so and offers Retry. Once the
fake answers again, Retry resumes the debate in the server's background
thread and the same page follows it to its end; so does a second tab on the
live page, open since before the retry, without a reload.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from engine.models import Debate, DebateStatus
from engine.orchestrator import run_debate
from tests.browser import sign_in
from tests.debates.factories import make_debate
from tests.debates.pages_support import ensure_default_personas
from tests.debates.test_failures import OverloadedFor
from tests.fakes.anthropic_wire import Reply
from tests.fakes.debate_model import FakeDebateModel, parse_request

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"


def run_in_thread(debate_id: int) -> None:
    def run() -> None:
        try:
            run_debate(debate_id=debate_id)
        finally:
            connections.close_all()

    runner = threading.Thread(target=run)
    runner.start()
    runner.join()


def test_it_shows_the_failure_in_words_and_resumes_on_retry(
    live_asgi, page, fake_anthropic, settings
) -> None:
    # The embedded mode: a thread runs the retried debate (CI sets REDIS_URL,
    # and with a broker the retry would wait for a worker this test has not got).
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    settings.LLM_MAX_RETRIES = 0
    settings.LIVE_REOPEN_SECONDS = 0.3  # a failed debate's page asks again this soon
    ensure_default_personas()
    ada = get_user_model().objects.create_user("ada", password=PASSWORD)
    responder = OverloadedFor("PersonaAttacks")
    fake_anthropic.responder = responder
    debate = make_debate(personas=2, rounds=1)
    Debate.objects.filter(pk=debate.pk).update(creator=ada)
    run_in_thread(debate.pk)
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.FAILED

    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/live/")
    outcome = page.locator("[data-field=outcome]")
    outcome.wait_for()
    assert "The AI service was unavailable" in outcome.inner_text()
    assert "529" not in page.locator("main").inner_text()
    retry = page.get_by_role("button", name="Retry the debate")
    assert retry.is_visible()
    # Another tab on the same live page: its stream was ended by the failure (204).
    other = page.context.new_page()
    other.goto(f"{live_asgi.url}/debates/{debate.pk}/live/")
    other.locator("[data-field=outcome]").wait_for()
    other.wait_for_function(
        "() => document.querySelector('[data-debate-live]').dataset.connection === 'closed'"
    )

    # Back up, but one persona's attacks come back cut off: that persona sits the round out.
    silent = debate.personas.order_by("id").last().name
    model = FakeDebateModel()

    def answer(body) -> Reply:
        request = parse_request(body)
        if request.title == "PersonaAttacks" and request.speaker == silent:
            return Reply.json('{"attacks": [{"target_id": ')
        return model(body)

    responder.model = answer
    responder.down = False
    retry.click()
    page.wait_for_url(f"**/debates/{debate.pk}/live/")
    page.wait_for_function(
        "() => document.querySelector('[data-field=status]').textContent.trim() === 'done'",
        timeout=30_000,
    )
    assert outcome.is_visible() and not retry.is_visible()
    assert "failed" not in (outcome.get_attribute("class") or "")
    notices = page.locator("[data-field=persona-failures]")
    assert notices.inner_text().strip() == f"{silent}'s reply could not be used in round 1."
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.DONE
    # The other tab asked again after the end and followed the retry to its end too.
    other.wait_for_function(
        "() => document.querySelector('[data-field=status]').textContent.trim() === 'done'",
        timeout=30_000,
    )
    assert not other.get_by_role("button", name="Retry the debate").is_visible()
    other.close()
