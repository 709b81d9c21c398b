"""What one coach turn costs the server: a budget of queries, and work that must not grow
with the transcript.

The turn runs end to end (real SDK, the fake Anthropic server on loopback);
queries are counted at the cursor, in whichever thread runs them. The budget is
what a turn needs (the session and its user, the argument, its class's rules, the
student's message, the transcript's two reads, the reply and its record) with room
for how the session is read; a query per message or per turn of the transcript (an
N+1) goes over it, and the same turn on a transcript ten times as long costs the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import AsyncClient

from coach import intents
from coach.models import Argument, CoachMessage, Role
from limits.services import _snapshot_key, local_now
from tests.coach.support import _post_turn, class_work, coach_result, run, say_earlier
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

REPLY = coach_result(text="Which cities do you have in mind?", confidence=0.5)

# Queries a turn may run: the session and its user (at most two), the argument, its
# policy's rules (one query, in a class or not), the student's message, the transcript's
# latest messages and the student's words on the step, the reply and its record; SQLite
# adds the BEGIN of the transaction around the last two. A new one must be argued for here.
TURN_BUDGET = 10
# Transactions a turn without a proposal commits: the reply with its record.
TURN_COMMITS = 1


def _signed_in(student: Any) -> AsyncClient:
    client = AsyncClient()
    client.force_login(student)  # the sign-in's own statements are not the turn's
    return client


def _turn(
    client: AsyncClient, statements: list[str], argument: Argument, message: str
) -> list[str]:
    """The statements of one successful turn of `client` on `argument`."""
    statements.clear()
    payload = {"argument_id": argument.pk, "message": message, "step": argument.current_step}
    status, _, lines = run(_post_turn(client, payload))
    assert status == 200 and lines[-1]["type"] == "result", lines
    return list(statements)


def test_it_reads_the_argument_and_its_rules_once_per_turn(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    django_user_model: Any,
    statements: list[str],
) -> None:
    work = class_work(student=student, teacher=django_user_model.objects.create_user("teacher"))
    fake_anthropic.enqueue(Reply.json(REPLY))
    seen = _turn(_signed_in(student), statements, work, "Cities should ban cars.")
    selects = [sql for sql in seen if sql.lstrip().upper().startswith("SELECT")]
    # The policy check and the turn used to read both twice: now once each.
    assert sum('FROM "coach_argument"' in sql for sql in selects) == 1, "\n".join(selects)
    assert sum('FROM "classroom_submission"' in sql for sql in selects) == 1, "\n".join(selects)


def test_it_keeps_a_turn_within_its_query_budget(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    statements: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    say_earlier(argument, 30)
    fake_anthropic.enqueue(Reply.json(REPLY), Reply.json(REPLY), Reply.json(REPLY))
    client = _signed_in(student)
    # The first turn also reads the spend ledgers (then kept for limits.services.SNAPSHOT_SECONDS).
    _turn(client, statements, argument, "Cities should ban cars.")
    commits: list[str] = []
    commit = BaseDatabaseWrapper.commit

    def counting_commit(self: BaseDatabaseWrapper) -> None:
        commits.append(self.alias)
        commit(self)

    monkeypatch.setattr(BaseDatabaseWrapper, "commit", counting_commit)
    seen = _turn(client, statements, argument, "Only in the centre.")
    # Counted at the cursor, in every thread (the turn's ORM work runs in asgiref's).
    assert len(seen) <= TURN_BUDGET, "\n".join(seen)
    assert len(commits) <= TURN_COMMITS

    # A student who thinks for longer than the spend snapshot lasts: the turn reads every
    # ledger again, in one statement (limits.ledgers), not one per ledger.
    cache.delete(_snapshot_key(student.pk, local_now()))
    seen = _turn(client, statements, argument, "And in the suburbs.")
    assert len(seen) <= TURN_BUDGET + 1, "\n".join(seen)
    assert sum('"debates_debate"' in sql for sql in seen) == 1


def test_it_costs_a_turn_on_a_long_transcript_what_it_costs_on_a_short_one(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    django_user_model: Any,
    statements: list[str],
) -> None:
    # Two class arguments alike but for their transcripts: 3 earlier exchanges and 30
    # (30 turns counted against the quota). A query per message or per turn would show.
    teacher = django_user_model.objects.create_user("teacher")
    short = class_work(student=student, teacher=teacher)
    long = class_work(student=student, teacher=teacher, class_name="Rhetoric 102")
    say_earlier(short, 3)
    say_earlier(long, 30)
    fake_anthropic.enqueue(*[Reply.json(REPLY)] * 3)
    client = _signed_in(student)
    _turn(client, statements, short, "Cities should ban cars.")  # reads the ledgers

    on_short = _turn(client, statements, short, "Only in the centre.")
    on_long = _turn(client, statements, long, "Only in the centre.")

    assert len(on_long) == len(on_short), "\n".join(on_long)
    assert len(on_long) <= TURN_BUDGET


def test_it_does_not_reclassify_the_steps_earlier_messages_every_turn(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    statements: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    CoachMessage.objects.bulk_create(
        CoachMessage(argument=argument, role=Role.USER, text=f"Cars out, take {n}.", step="claim")
        for n in range(40)
    )
    calls: list[str] = []
    uncached = intents.classify.__wrapped__

    def counting(message: str, step: str) -> intents.Intent:
        calls.append(message)
        return uncached(message, step)

    monkeypatch.setattr("coach.turn_store.classify", counting)
    fake_anthropic.enqueue(Reply.json(REPLY))
    _turn(_signed_in(student), statements, argument, "Cities should ban cars.")
    # Whether this is a first attempt is settled by the first earlier attempt, not all 40.
    assert len(calls) <= 3, calls
