"""Without an API key a newcomer still sees a whole inquiry: the demo, computed by the pipeline."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from engine.models import Debate
from inquiries.models import GateViolation, RegisteredClaim

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_loads_the_demo_once_and_shows_it_without_a_key(client, no_anthropic_key) -> None:
    call_command("load_demo_inquiry")
    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    assert demo.status == "done" and demo.stop_reason
    assert RegisteredClaim.objects.filter(inquiry_id=demo.pk).exists()
    assert GateViolation.objects.filter(inquiry_id=demo.pk, rule="NO_FREE_FACTS").exists()

    client.force_login(get_user_model().objects.create_user("newcomer"))
    page = client.get(reverse("inquiries:new")).content.decode()
    assert (
        "AI service is not set up yet" in page
        and reverse("inquiries:detail", args=[demo.pk]) in page
    )
    result = client.get(reverse("inquiries:detail", args=[demo.pk]))
    assert result.status_code == 200 and "What stands" in result.content.decode()
