"""A failed model call: plain words for the student, everything computed so far kept, Retry."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from engine.models import DebateFailure, DebateStatus
from stresstests import services
from stresstests.models import Defence, DefenceStatus
from tests.fakes.anthropic_server import Reply
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_keeps_the_objections_and_offers_retry_when_the_service_fails(
    client, ada, finished_argument, personas, stress_model, fake_anthropic
) -> None:
    stress = settle(
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
        )
    )
    key = stress.debate.output["deciding"][0]

    def down_for_defences(body):
        if "The student's answer:" in str(body.get("messages")):
            return Reply.error(500, should_retry=False)
        return stress_model(body)

    fake_anthropic.responder = down_for_defences
    client.post(reverse("stresstests:defend", args=[stress.pk]), {"attack": key, "answer": "No."})
    stress = settle(stress)

    assert stress.debate.status == DebateStatus.FAILED
    assert stress.debate.failure == DebateFailure.SERVICE_UNAVAILABLE
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "Everything computed so far is kept." in page
    assert "Your claim is defeated as it stands" in page  # the opening's result is still there
    # A word of its own: a CSRF token on the page may hold the digits 500.
    assert not re.search(r"\b500\b", page.split("<main", 1)[-1].split("</main>")[0])
    assert Defence.objects.get().status == DefenceStatus.PENDING

    fake_anthropic.responder = stress_model
    client.post(reverse("stresstests:retry", args=[stress.pk]))
    stress = settle(stress)

    assert stress.debate.status == DebateStatus.DONE
    assert Defence.objects.get().status == DefenceStatus.ACCEPTED
