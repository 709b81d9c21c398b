"""The debate pages in a real browser: the live page follows a running debate without reloads.

A real debate runs in a thread (the orchestrator, the real SDK, the fake
Anthropic server with a fixed latency per call) while Chromium has the live
page open; the page must show the debate progressing, then its end.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from engine import sse
from engine.models import Debate, Persona
from engine.orchestrator import run_debate
from engine.sse import event_stream
from tests.browser import sign_in
from tests.debates.factories import make_debate
from tests.debates.pages_support import ensure_default_personas, finished_debate
from tests.debates.sse_client import SSEClient, session_cookie
from tests.fakes.debate_model import FakeDebateModel
from tests.services import require_redis_url

pytestmark = pytest.mark.browser

PASSWORD = "a-long-enough-pass"


@pytest.fixture
def ada(live_asgi, page):
    ensure_default_personas()
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    return user


@pytest.fixture(params=["polling", "redis"])
def follow(request, settings) -> str:
    settings.REDIS_URL = require_redis_url() if request.param == "redis" else ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    return request.param


def text(page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def run_and_close(*, debate_id: int) -> None:
    try:
        run_debate(debate_id=debate_id)
    finally:
        connections.close_all()


def last_graph_update(debate: Debate) -> dict:
    return debate.events.filter(type="graph_update").order_by("-seq").first().payload


def test_it_updates_the_live_page_while_a_debate_runs(
    live_asgi, page, ada, follow, fake_anthropic, settings, monkeypatch
) -> None:
    fake_anthropic.responder = FakeDebateModel(invalid_every=3)
    fake_anthropic.latency_ms = 400
    # Streams live one second: the server ends each, and the page's EventSource
    # must reconnect with Last-Event-ID and miss or repeat nothing.
    settings.SSE_MAX_STREAM_SECONDS = 1
    monkeypatch.setattr(sse, "RETRY_MS", 100)  # so the page does not sit out the middle
    streams = []
    monkeypatch.setattr(sse, "event_stream", lambda **kw: streams.append(kw) or event_stream(**kw))
    debate = make_debate(personas=2, rounds=2)
    Debate.objects.filter(pk=debate.pk).update(creator=ada)

    page.goto(f"{live_asgi.url}/debates/{debate.pk}/live/")
    page.evaluate("window.sameDocument = true")  # gone if the page ever reloads
    assert text(page, "[data-field=timeline]") == ""

    runner = threading.Thread(target=run_and_close, kwargs={"debate_id": debate.pk})
    runner.start()
    try:
        # Mid-debate: events have arrived, the end has not.
        # A function, not an expression: the site's CSP refuses eval, which an expression needs.
        page.wait_for_function(
            "() => document.querySelectorAll('[data-field=timeline] li').length >= 3"
            " && document.querySelector('[data-field=outcome]').hidden"
        )
        assert int(text(page, "[data-field=arguments]")) > 0
        page.wait_for_selector("[data-field=outcome]:not([hidden])", timeout=30_000)
    finally:
        runner.join()

    debate.refresh_from_db()
    final = last_graph_update(debate)
    for label in ("IN", "OUT", "UNDEC"):
        assert text(page, f"[data-count={label}]") == str(final["counts"][label])
    assert text(page, "[data-field=camps]") == str(final["camps"])
    assert text(page, "[data-field=round]") == str(debate.rounds_completed)
    # A student follows the run without its money (instructors see the amount).
    assert page.locator("[data-field=cost]").count() == 0
    assert text(page, "[data-field=status]") == debate.get_status_display()
    assert debate.get_stop_reason_display() in text(page, "[data-field=outcome]")
    timeline = page.locator("[data-field=timeline] li")
    assert timeline.count() == debate.events.count()
    log = page.locator("[data-field=attack-log] li")
    assert log.count() == debate.attacks.count()
    statuses = log.locator(".vstatus").all_inner_texts()
    assert not any(status.startswith("awaiting") for status in statuses)
    assert (
        sum(status.startswith("invalid") for status in statuses)
        == debate.attacks.filter(status="invalid").count()
    )
    assert page.evaluate("window.sameDocument") is True
    assert page.evaluate("document.querySelector('[data-debate-live]').dataset.connection") == (
        "closed"
    )
    assert len(streams) >= 2 and streams[-1]["after_seq"] > 0  # it did resume


def test_it_says_so_when_the_account_has_too_many_live_pages_open(
    live_asgi, page, ada, settings
) -> None:
    settings.REDIS_URL = ""
    settings.SSE_MAX_STREAMS_PER_USER = 1
    debate = make_debate(personas=2, rounds=2)
    Debate.objects.filter(pk=debate.pk).update(creator=ada)
    other_tab = SSEClient(f"{live_asgi.url}/debates/{debate.pk}/events", cookie=session_cookie(ada))
    assert other_tab.status == 200

    page.goto(f"{live_asgi.url}/debates/{debate.pk}/live/")

    note = page.get_by_role("status").filter(has_text="Too many live pages are open")
    note.wait_for()
    assert "tries again in half a minute" in note.inner_text()
    assert page.evaluate("document.querySelector('[data-debate-live]').dataset.connection") in (
        "refused",
        "reconnecting",
    )
    other_tab.close()


def test_it_replays_a_finished_debate_from_its_stored_events(
    live_asgi, page, ada, fake_anthropic
) -> None:
    debate = finished_debate(fake_anthropic, creator=ada, in_thread=True)
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/replay/")
    page.get_by_role("button", name="Jump to the end").click()
    final = last_graph_update(debate)
    for label in ("IN", "OUT", "UNDEC"):
        assert text(page, f"[data-count={label}]") == str(final["counts"][label])
    assert page.locator("[data-field=timeline] li").count() == debate.events.count()
    assert page.locator("[data-field=outcome]").is_visible()
    assert text(page, "[data-field=position]") == str(debate.events.count())
    opening = len(debate.events.get(type="arguments_submitted").payload["arguments"])
    said = "1 argument" if opening == 1 else f"{opening} arguments"
    assert said in text(page, "[data-field=timeline]")

    # In Spanish the script names the built-in personas as the page does, from the
    # English names stored with the events.
    page.context.add_cookies([{"name": "django_language", "value": "es", "url": live_asgi.url}])
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/replay/")
    page.get_by_role("button", name="Ir al final").click()
    speakers = page.locator("[data-field=openings] .speaker").all_text_contents()
    assert speakers and not any(name.startswith("The ") for name in speakers)
    assert {"El Empirista", "El Guardián"} & set(speakers)


def test_it_recomputes_the_estimate_as_personas_are_picked(live_asgi, page, ada) -> None:
    # Staff see the estimate in dollars, which moves with every persona (a student's
    # small / medium / large may not).
    ada.is_staff = True
    ada.save(update_fields=["is_staff"])
    page.goto(f"{live_asgi.url}/debates/new/")
    before = text(page, ".estimate-cost")
    first = Persona.objects.filter(active=True).order_by("pk").first()
    with page.expect_response(lambda r: "/debates/new/estimate/" in r.url):
        page.get_by_label(first.name).uncheck()
    page.wait_for_function(
        "(before) => document.querySelector('.estimate-cost')?.textContent !== before", arg=before
    )
    assert text(page, ".estimate-cost") != before
