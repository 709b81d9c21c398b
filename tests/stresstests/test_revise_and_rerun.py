"""The student revises an element in the coach and runs the stress test again: the new
run attacks the revised argument, and the old one still shows what was tested then."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from coach.services import save_typed_field
from stresstests import services
from tests.stresstests.conftest import GROUNDS
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)

REVISED = "Cities that built protected lanes saw deaths per trip fall by a third (ITF, 2018)."


def test_it_reruns_on_the_revised_argument_and_keeps_the_old_run_as_it_was(
    client, ada, finished_argument, personas, stress_model, fake_anthropic
) -> None:
    ids = [p.pk for p in personas]
    first = settle(
        services.start_stress_test(argument=finished_argument, user=ada, persona_ids=ids)
    )
    page = client.get(reverse("stresstests:detail", args=[first.pk])).content.decode()
    assert f'href="/coach/{finished_argument.pk}/"' in page  # "Revise an element in the coach"

    finished_argument = save_typed_field(argument=finished_argument, step="grounds", value=REVISED)
    second = settle(
        services.start_stress_test(argument=finished_argument, user=ada, persona_ids=ids)
    )

    assert second.pk != first.pk and second.debate_id != first.debate_id
    assert second.elements["grounds"] == REVISED
    first.refresh_from_db()
    assert first.elements["grounds"] == GROUNDS
    old = client.get(reverse("stresstests:detail", args=[first.pk])).content.decode()
    new = client.get(reverse("stresstests:detail", args=[second.pk])).content.decode()
    assert GROUNDS in old and REVISED not in old
    assert REVISED in new
    # The personas were sent the revised grounds the second time.
    sent = [json.dumps(r.body) for r in fake_anthropic.message_requests]
    assert not any(REVISED in body for body in sent[:5])
    assert any(REVISED in body for body in sent[5:])
