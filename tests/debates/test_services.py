"""create_debate: checks its input, needs a key, and runs the debate after commit."""

import time
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from debates.services import create_debate
from engine.models import Debate, DebateStatus
from tests.debates.factories import default_personas
from tests.fakes.debate_model import FakeDebateModel


def _create(**overrides):
    values = {
        "topic": "Homework should be abolished",
        "persona_ids": [p.id for p in default_personas(2)],
        "max_rounds": 1,
        "budget_usd": Decimal("1"),
        "creator": None,
    }
    values.update(overrides)
    return create_debate(**values)


@pytest.mark.django_db
def test_it_says_a_key_is_needed(no_anthropic_key):
    with pytest.raises(ValidationError) as error:
        _create()
    assert error.value.code == "no_api_key"
    assert not Debate.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("topic", "  ", "topic"),
        ("persona_ids", [], "personas"),
        ("max_rounds", 6, "rounds"),
        ("max_rounds", 0, "rounds"),
        ("budget_usd", Decimal("0"), "budget"),
    ],
)
def test_it_refuses_bad_input(fake_anthropic, field, value, code):
    with pytest.raises(ValidationError) as error:
        _create(**{field: value})
    assert error.value.code == code


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_debate_in_a_thread_without_a_broker(fake_anthropic, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    fake_anthropic.responder = FakeDebateModel()
    fake_anthropic.latency_ms = 200  # four stages: the debate takes at least 0.8 s

    debate = _create()
    # The request that creates it does not wait for the debate.
    assert Debate.objects.get(pk=debate.pk).status in {DebateStatus.QUEUED, DebateStatus.RUNNING}

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        debate.refresh_from_db()
        if debate.is_finished:
            break
        time.sleep(0.1)
    assert debate.status == DebateStatus.DONE
    assert [p.name for p in debate.personas.order_by("id")] == [p.name for p in default_personas(2)]
