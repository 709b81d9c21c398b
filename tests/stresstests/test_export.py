"""The stress test's JSON download: format and version, its schema, and what its page shows."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from stresstests.models import Defence, StressTest
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client: Client) -> StressTest:
    call_command("load_demo_stress_test", stdout=StringIO())
    client.force_login(get_user_model().objects.create_user("newcomer"))
    return StressTest.objects.select_related("debate").get()


def test_it_exports_what_the_page_shows_in_a_document_its_schema_accepts(client, demo) -> None:
    page = client.get(reverse("stresstests:detail", args=[demo.pk])).content.decode()
    url = reverse("stresstests:export", args=[demo.pk])
    assert f'href="{url}" download' in page
    response = client.get(url)
    assert response["Content-Disposition"] == f'attachment; filename="stress-test-{demo.pk}.json"'
    data = json.loads(response.content)
    assert schema_errors(data, "argue-stress-test.v1") == []
    assert (data["format"], data["version"]) == ("argue-stress-test", 1)
    run = data["stressTest"]
    assert run["isDemo"] is True and run["roundLimit"] == demo.round_limit
    assert run["costUsd"] == str(demo.debate.cost_usd) and run["status"] == demo.debate.status
    assert data["elements"] == demo.elements
    # Where the claim stands is the stored outcome the page shows.
    assert data["claim"]["status"] == demo.debate.output["status"] == "grounded_in"
    assert [o["answeredByRebuttal"] for o in data["objections"]].count(True) == 1
    assert [(d["seq"], d["status"], d["text"]) for d in data["defences"]] == list(
        Defence.objects.order_by("seq").values_list("seq", "status", "text")
    )
    for objection in data["objections"]:
        assert objection["counterProposition"] in page


def test_it_is_a_404_for_someone_elses_stress_test(client, demo) -> None:
    demo.debate.is_demo = False
    demo.debate.save(update_fields=["is_demo"])
    assert client.get(reverse("stresstests:export", args=[demo.pk])).status_code == 404
