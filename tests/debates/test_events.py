"""The event log: numbered in its transaction, published on Redis after commit."""

import json
import time

import pytest
import redis
from django.db import transaction

from debates import events
from debates.models import DebateEvent
from tests.debates.factories import make_debate


@pytest.mark.django_db
def test_it_numbers_events_from_one_without_gaps():
    debate = make_debate()
    with transaction.atomic():
        for _ in range(3):
            events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload={"round": 0})
    assert list(debate.events.values_list("seq", flat=True)) == [1, 2, 3]


@pytest.mark.django_db
def test_it_rolls_back_events_with_their_stage():
    debate = make_debate()
    with transaction.atomic():
        events.record_event(debate=debate, type=events.DEBATE_START, payload={})
    with pytest.raises(RuntimeError), transaction.atomic():
        events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload={})
        raise RuntimeError("the stage failed")
    with transaction.atomic():
        event = events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload={})
    assert event.seq == 2


@pytest.mark.django_db(transaction=True)
def test_it_refuses_events_outside_a_transaction_and_unknown_types():
    debate = make_debate()
    with pytest.raises(RuntimeError):
        events.record_event(debate=debate, type=events.DEBATE_START, payload={})
    with pytest.raises(ValueError), transaction.atomic():
        events.record_event(debate=debate, type="debate_paused", payload={})
    assert not DebateEvent.objects.exists()


def test_it_names_one_channel_per_debate():
    assert events.events_channel(42) == "debate:42:events"
    assert {events.DEBATE_COMPLETE, events.DEBATE_ERROR} == events.TERMINAL_EVENTS


@pytest.mark.django_db
def test_it_publishes_nothing_without_redis(settings):
    settings.REDIS_URL = ""
    debate = make_debate()
    with transaction.atomic():
        event = events.record_event(debate=debate, type=events.DEBATE_START, payload={})
    events.publish_event(event)  # no server to talk to, and no error either


@pytest.mark.django_db(transaction=True)
def test_it_publishes_on_redis_only_after_commit(redis_url, settings):
    settings.REDIS_URL = redis_url
    debate = make_debate()
    client = redis.Redis.from_url(redis_url)
    pubsub = client.pubsub()
    pubsub.subscribe(events.events_channel(debate.id))
    pubsub.get_message(timeout=2)  # the subscription confirmation

    with transaction.atomic():
        events.record_event(debate=debate, type=events.DEBATE_START, payload={"topic": "t"})
        assert pubsub.get_message(timeout=0.2) is None  # not before commit
    received = None
    deadline = time.monotonic() + 5
    while received is None and time.monotonic() < deadline:
        received = pubsub.get_message(timeout=1)
    pubsub.close()
    assert received is not None
    assert json.loads(received["data"]) == {
        "seq": 1,
        "type": "debate_start",
        "payload": {"topic": "t"},
    }
