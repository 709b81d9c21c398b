"""The inquiry pages in a real browser: the live page follows a running inquiry node by node,
then the result's claim table leads to a claim's chains with its span marked in the source;
a failed inquiry's page follows a retry started elsewhere.

A real inquiry runs in a thread (the shared engine, the real SDK, the fake
Anthropic server playing the scripted inquiry model with a fixed latency per
call) while Chromium has the page open.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connections, transaction

from casefiles.demo import load_demo_case_file
from casefiles.models import Span
from engine.events import record_event
from engine.models import Debate, DebateStatus
from engine.orchestrator import run_debate
from inquiries.models import RegisteredClaim
from inquiries.services import create_inquiry
from tests.browser import sign_in
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.browser

PASSWORD = "a-long-enough-pass"


def _run_and_close(*, debate_id: int) -> None:
    try:
        run_debate(debate_id=debate_id)
    finally:
        connections.close_all()


def test_it_highlights_the_current_node_then_shows_a_claim_s_chains(
    live_asgi, page, fake_anthropic, settings, monkeypatch
) -> None:
    settings.REDIS_URL = ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    settings.LIMITS_EXEMPT_STAFF = True
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    fake_anthropic.responder = FakeInquiryModel(dissent=True)
    fake_anthropic.latency_ms = 300
    user = get_user_model().objects.create_user("ada", password=PASSWORD, is_staff=True)
    case_file = load_demo_case_file(owner=user)
    debate = create_inquiry(
        user=user,
        question="Should our city adopt congestion pricing?",
        case_file_id=case_file.pk,
        max_rounds=3,
        budget_usd=Decimal("5"),
    )
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_asgi.url}/inquiries/{debate.pk}/")
    current = page.locator(".node-list li.current")
    assert current.count() == 1 and "Advocate" in current.inner_text()

    runner = threading.Thread(target=_run_and_close, kwargs={"debate_id": debate.pk})
    runner.start()
    try:
        # Mid-run, pushed by the stream: a later node is current, the earlier ones done,
        # and the SVG marks the same node as the text list.
        page.wait_for_function(
            "() => document.querySelectorAll('.node-list li.done').length >= 2"
            " && document.querySelectorAll('.node-list li.current').length === 1"
        )
        assert page.locator(".inquiry-graph svg g.node.current").count() == 1
        assert page.locator("#result-heading").count() == 0
        # The end reloads the page into the result.
        page.wait_for_selector("#result-heading", timeout=60_000)
    finally:
        runner.join()

    assert page.locator(".node-list li.current").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    first = RegisteredClaim.objects.filter(inquiry_id=debate.pk).order_by("id").first()
    row = page.locator("table.claims tbody tr").first
    assert row.locator(f".grade-{first.grade}").count() == 1
    row.get_by_role("link", name=first.key).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".claim-chains")
    assert first.key in page.locator(".claim-chains h1").inner_text()
    chains = page.locator("ol.chains > li")
    assert chains.count() == len(first.chains)
    source_id, ordinal = first.chains[0]["span"][1:].split(".")
    span = Span.objects.get(source_id=int(source_id), ordinal=int(ordinal))
    # The marked text is the source's characters at the span's offsets.
    assert chains.first.locator("mark").inner_text() == span.source.text[span.start : span.end]
    assert f"{span.start}–{span.end}" in chains.first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _record(debate_id: int, event_type: str, *, status: str | None = None) -> None:
    """An event of the run, as the engine records it (and a new status with it)."""
    with transaction.atomic():
        debate = Debate.objects.select_for_update().get(pk=debate_id)
        record_event(debate=debate, type=event_type, payload={})
        debate.status = status or debate.status
        debate.save(update_fields=["event_seq", "status"])


def test_a_failed_inquiry_s_page_follows_a_retry_started_elsewhere(
    live_asgi, page, fake_anthropic, settings, monkeypatch
) -> None:
    settings.REDIS_URL = ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    settings.LIVE_REOPEN_SECONDS = 0.3  # after the failed run's stream ends, ask again this soon
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    user = get_user_model().objects.create_user("bo", password=PASSWORD, is_staff=True)
    debate = create_inquiry(
        user=user,
        question="Should our city adopt congestion pricing?",
        case_file_id=load_demo_case_file(owner=user).pk,
        max_rounds=1,
        budget_usd=Decimal("1"),
    )
    _record(debate.pk, "debate_start", status=DebateStatus.RUNNING)
    _record(debate.pk, "debate_error", status=DebateStatus.FAILED)
    sign_in(page, live_asgi, "bo", PASSWORD)
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.goto(f"{live_asgi.url}/inquiries/{debate.pk}/")
    live = page.locator("[data-inquiry-live]")
    page.wait_for_function(
        "() => document.querySelector('[data-inquiry-live]').dataset.connection === 'closed'"
    )
    # Several rounds of asking again: the failure the page already shows does not reload it.
    page.wait_for_timeout(1200)
    assert len(loads) == 1
    assert live.locator(".badge.status-failed").count() == 1

    _record(debate.pk, "debate_resumed", status=DebateStatus.RUNNING)  # a retry, from elsewhere
    live.locator(".badge.status-running").wait_for()
    assert len(loads) == 1, "followed in place, not reloaded"
    _record(debate.pk, "debate_complete", status=DebateStatus.DONE)
    page.locator(".badge.status-done").wait_for()
    assert len(loads) == 2, "the end reloads the page for the result"
