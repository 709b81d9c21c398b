"""A failed inquiry offers its owner a Retry (the engine's, shared with debates) and nobody else."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.fakes.anthropic_wire import Reply
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)


class FailsAfter:
    """The scripted inquiry model until ``n`` answers were given; then the service is down."""

    def __init__(self, n: int) -> None:
        self.model, self.left = FakeInquiryModel(), n

    def __call__(self, body):
        self.left -= 1
        if self.left < 0:
            return Reply.error(400, error_type="invalid_request_error", message="no")
        return self.model(body)


def test_it_offers_the_owner_a_retry_of_a_failed_inquiry(
    client, start, fake_anthropic, monkeypatch
) -> None:
    failed = start(FailsAfter(2))
    assert failed.status == "failed" and failed.can_retry
    url = reverse("inquiries:detail", args=[failed.pk])
    retry = reverse("engine:retry", args=[failed.pk])

    client.force_login(get_user_model().objects.create_user("eve"))
    assert client.get(url).status_code == 404

    client.force_login(failed.creator)
    page = client.get(url).content.decode()
    assert "the AI service failed" in page and f'action="{retry}"' in page

    launched = []
    monkeypatch.setattr("engine.services.launch", launched.append)
    response = client.post(retry, follow=True)
    assert response.redirect_chain[-1][0] == url
    failed.refresh_from_db()
    assert failed.status == "queued" and launched == [failed.pk]
    assert failed.events.filter(type="debate_resumed").exists()
