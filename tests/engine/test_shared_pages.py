"""The pages every format shares are the engine's, at the addresses they always had.

The runs history, a run's Retry and Stop and its event stream moved from the
graph debate's URLs to the engine's; bookmarks and links keep working. A
run's label and page come from the format registry (engine/formats.py), which
the run's model does not import.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.urls import resolve, reverse

from engine import views
from engine.formats import format_label, page_url
from engine.models import Debate, DebateStatus
from engine.sse import debate_events

pytestmark = pytest.mark.django_db


def test_it_keeps_the_shared_pages_at_their_addresses():
    addresses = {
        reverse("engine:runs"): views.run_list,
        reverse("engine:retry", args=[7]): views.run_retry,
        reverse("engine:stop", args=[7]): views.run_stop,
        reverse("engine:events", args=[7]): debate_events,
    }
    assert list(addresses) == [
        "/debates/",
        "/debates/7/retry/",
        "/debates/7/stop/",
        "/debates/7/events",
    ]
    assert {path: resolve(path).func for path in addresses} == addresses


def test_it_asks_the_registry_for_a_runs_label_and_page():
    running = Debate.objects.create(topic="Cities should ban cars", status=DebateStatus.RUNNING)
    finished = Debate.objects.create(topic="Cities should ban cars", status=DebateStatus.DONE)
    inquiry = Debate.objects.create(topic="Was the well poisoned?", format="inquiry")
    assert page_url(running) == reverse("debates:live", args=[running.pk])
    assert page_url(finished) == reverse("debates:result", args=[finished.pk])
    assert page_url(inquiry) == reverse("inquiries:detail", args=[inquiry.pk])
    assert format_label(inquiry) == "Inquiry"
    template = Template("{% load runs %}{{ run|format_label }} {{ run|page_url }}")
    rendered = template.render(Context({"run": inquiry}))
    assert rendered == f"Inquiry {reverse('inquiries:detail', args=[inquiry.pk])}"


def test_it_links_nowhere_for_a_run_whose_formats_row_is_missing():
    half_saved = Debate.objects.create(topic="A stress test without its row", format="stress")
    template = Template("{% load runs %}[{{ run|page_url }}]")
    assert template.render(Context({"run": half_saved})) == "[]"


def test_it_sends_a_run_of_an_unknown_format_to_the_history():
    orphan = Debate.objects.create(topic="From an app since removed", format="retired")
    assert format_label(orphan) == "retired"
    assert page_url(orphan) == "/debates/?format=retired"


def test_it_sends_the_owner_back_to_the_runs_own_page_after_a_refused_retry(client):
    owner = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    inquiry = Debate.objects.create(
        topic="Was the well poisoned?", format="inquiry", status=DebateStatus.DONE, creator=owner
    )
    client.force_login(owner)
    response = client.post(reverse("engine:retry", args=[inquiry.pk]))
    assert response.status_code == 302
    assert response.url == reverse("inquiries:detail", args=[inquiry.pk])
