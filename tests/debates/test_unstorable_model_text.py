"""A model reply with NUL or a lone surrogate in its JSON strings does not fail a debate."""

from __future__ import annotations

import dataclasses
import json

import pytest
from asgiref.sync import async_to_sync

from debates.models import DebateArgument
from engine.models import Debate, DebateStatus, LLMCall
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


def _spoil(value):
    # Only prose (ids and enum values stay usable): a NUL and a lone surrogate in each.
    if isinstance(value, str) and " " in value:
        return value + "\x00 \ud800"
    if isinstance(value, list):
        return [_spoil(item) for item in value]
    if isinstance(value, dict):
        return {key: _spoil(item) for key, item in value.items()}
    return value


class SpoilingModel:
    """FakeDebateModel whose every reply carries the escapes \\u0000 and \\ud800 in its prose."""

    def __init__(self) -> None:
        self.model = FakeDebateModel()

    def __call__(self, body):
        reply = self.model(body)
        if reply.text is None:
            return reply
        return dataclasses.replace(reply, text=json.dumps(_spoil(json.loads(reply.text))))


def test_it_finishes_a_debate_whose_model_sends_unstorable_text(fake_anthropic) -> None:
    fake_anthropic.responder = SpoilingModel()
    debate = make_debate(personas=2, rounds=1)

    run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status != DebateStatus.FAILED, debate.error
    claims = [a.claim for a in DebateArgument.objects.filter(debate=debate)]
    assert claims and all("\ufffd" in claim and "\x00" not in claim for claim in claims)
    for call in LLMCall.objects.filter(debate=debate):
        assert "\\u0000" not in call.raw_text and "\x00" not in call.raw_text


def test_it_never_shows_a_database_errors_text_to_the_student(
    fake_anthropic, client, monkeypatch
) -> None:
    # Nothing real still fails a write here (that is the point of this module), so the
    # failure is injected where the reply used to fail: the debate's own update.
    from django.contrib.auth import get_user_model
    from django.db import DataError

    from debates.graph_format import GRAPH
    from engine import formats

    def failing(debate):
        raise DataError('UPDATE "debates_debate" SET "claim" = \'\\x00\' WHERE id = 1')

    monkeypatch.setitem(formats._FORMATS, "graph", dataclasses.replace(GRAPH, load_state=failing))
    fake_anthropic.responder = FakeDebateModel()
    owner = get_user_model().objects.create_user("ada")
    debate = make_debate(personas=2, rounds=1)
    Debate.objects.filter(pk=debate.pk).update(creator=owner)

    run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED and "DataError" in debate.error  # instructors
    client.force_login(owner)
    for url in (f"/debates/{debate.pk}/", f"/debates/{debate.pk}/live/"):
        page = client.get(url).content.decode()
        for internal in ("UPDATE", "debates_debate", "DataError", "\\x00"):
            assert internal not in page, (url, internal)
    stream = client.get(f"/debates/{debate.pk}/events")

    async def read() -> str:
        return "".join([chunk.decode() async for chunk in stream.streaming_content])

    text = async_to_sync(read)()
    assert "debate_error" in text and "DataError" not in text and "UPDATE" not in text
