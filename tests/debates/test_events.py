"""The event log: numbered in its transaction, published on Redis after commit."""

import json
import time

import pytest
import redis
from django.db import transaction

from debates import events
from engine import events as engine_events
from engine.models import DebateEvent
from tests.debates.factories import make_debate


@pytest.mark.django_db
def test_it_numbers_events_from_one_without_gaps():
    debate = make_debate()
    with transaction.atomic():
        for _ in range(3):
            engine_events.record_event(
                debate=debate, type=events.GRAPH_UPDATE, payload={"round": 0}
            )
    assert list(debate.events.values_list("seq", flat=True)) == [1, 2, 3]


@pytest.mark.django_db
def test_it_rolls_back_events_with_their_stage():
    debate = make_debate()
    with transaction.atomic():
        engine_events.record_event(debate=debate, type=engine_events.DEBATE_START, payload={})
    with pytest.raises(RuntimeError), transaction.atomic():
        engine_events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload={})
        raise RuntimeError("the stage failed")
    with transaction.atomic():
        event = engine_events.record_event(debate=debate, type=events.GRAPH_UPDATE, payload={})
    assert event.seq == 2


@pytest.mark.django_db(transaction=True)
def test_it_refuses_events_outside_a_transaction_and_unknown_types():
    debate = make_debate()
    with pytest.raises(RuntimeError):
        engine_events.record_event(debate=debate, type=engine_events.DEBATE_START, payload={})
    with pytest.raises(ValueError), transaction.atomic():
        engine_events.record_event(debate=debate, type="debate_paused", payload={})
    assert not DebateEvent.objects.exists()


def test_it_names_one_channel_per_debate(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert engine_events.events_channel(42) == "db0:debate:42:events"
    assert {
        engine_events.DEBATE_COMPLETE,
        engine_events.DEBATE_ERROR,
    } == engine_events.TERMINAL_EVENTS


def test_it_names_the_channel_by_the_redis_database(settings):
    """Pub/sub ignores the database number: two sites on databases 3 and 4 of one
    Redis server must not share run 42's channel."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    on_three = engine_events.events_channel(42)
    settings.REDIS_URL = "redis://127.0.0.1:6379?db=4"
    assert engine_events.events_channel(42) == "db4:debate:42:events" != on_three
    settings.REDIS_URL = "redis://127.0.0.1:6379"
    assert engine_events.events_channel(42) == "db0:debate:42:events"


@pytest.mark.django_db
def test_it_publishes_nothing_without_redis(settings):
    settings.REDIS_URL = ""
    debate = make_debate()
    with transaction.atomic():
        event = engine_events.record_event(
            debate=debate, type=engine_events.DEBATE_START, payload={}
        )
    engine_events.publish_event(event)  # no server to talk to, and no error either


@pytest.mark.django_db(transaction=True)
def test_it_publishes_on_redis_only_after_commit(redis_url, settings):
    settings.REDIS_URL = redis_url
    debate = make_debate()
    client = redis.Redis.from_url(redis_url)
    pubsub = client.pubsub()
    pubsub.subscribe(engine_events.events_channel(debate.id))
    pubsub.get_message(timeout=2)  # the subscription confirmation

    with transaction.atomic():
        engine_events.record_event(
            debate=debate, type=engine_events.DEBATE_START, payload={"topic": "t"}
        )
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
