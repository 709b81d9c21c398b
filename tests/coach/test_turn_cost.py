"""What one coach turn costs the server: its queries, and work that must not grow with the transcript.

The turn runs end to end (real SDK, the fake Anthropic server on loopback);
queries are counted at the cursor, in whichever thread runs them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import AsyncClient

from coach import intents
from coach.models import Argument, CoachMessage, Role
from limits.services import _snapshot_key, local_now
from tests.coach.support import _post_turn, class_work, coach_result, post_turn, run
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

REPLY = coach_result(text="Which cities do you have in mind?", confidence=0.5)


def test_it_reads_the_argument_and_its_policy_once_per_turn(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument, statements: list[str]
) -> None:
    fake_anthropic.enqueue(Reply.json(REPLY))
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message="Cities should ban cars.", step="claim"
    )
    assert status == 200 and lines[-1]["type"] == "result"
    selects = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    # The policy check and the turn used to read both twice (13 statements a turn, then 11);
    # now the assignment's rules come in the argument's own statement (coach.policy.JoinedRead).
    (argument_read,) = [sql for sql in selects if 'FROM "coach_argument"' in sql]
    assert 'LEFT JOIN "classroom_submission"' in argument_read
    assert not any('FROM "classroom_submission"' in sql for sql in selects)


# Statements a turn may run: the session, its user, the argument with its class's rules, the
# student's message and the transcript (its latest messages and the step's; with the
# message, one statement on PostgreSQL); the reply and the turn record (one statement on
# PostgreSQL; SQLite: two, and the BEGIN of the transaction around them). A new one must be argued for here (docs/coach.md, "Speed").
MAX_STATEMENTS = {"sqlite": 8, "postgresql": 5}
# Transactions a turn without a proposal commits: on PostgreSQL none (each write is one
# statement; a BEGIN and a COMMIT are two more round trips); SQLite's around the two inserts.
MAX_COMMITS = {"sqlite": 1, "postgresql": 0}


def test_it_runs_no_more_statements_a_turn_than_it_did(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    statements: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    CoachMessage.objects.bulk_create(
        CoachMessage(argument=argument, role=Role.USER, text=f"Cars out, take {n}.", step="claim")
        for n in range(30)
    )
    fake_anthropic.enqueue(Reply.json(REPLY), Reply.json(REPLY), Reply.json(REPLY))
    client = AsyncClient()
    client.force_login(student)  # the sign-in's own statements are not the turn's
    payload = {"argument_id": argument.pk, "message": "Cities should ban cars.", "step": "claim"}
    # The first turn also reads the spend ledgers (then kept for limits.services.SNAPSHOT_SECONDS).
    run(_post_turn(client, payload))
    statements.clear()
    commits: list[str] = []
    commit = BaseDatabaseWrapper.commit

    def counting_commit(self: BaseDatabaseWrapper) -> None:
        commits.append(self.alias)
        commit(self)

    monkeypatch.setattr(BaseDatabaseWrapper, "commit", counting_commit)
    status, _, lines = run(_post_turn(client, {**payload, "message": "Only in the centre."}))
    assert status == 200 and lines[-1]["type"] == "result"
    # Counted at the cursor, in every thread (the turn's ORM work runs in asgiref's).
    assert len(statements) <= MAX_STATEMENTS[connection.vendor], "\n".join(statements)
    assert len(commits) <= MAX_COMMITS[connection.vendor]

    # A student who thinks for longer than the spend snapshot lasts: the turn reads every
    # ledger again, in one statement (limits.ledgers), not one per ledger.
    cache.delete(_snapshot_key(student.pk, local_now()))
    statements.clear()
    status, _, lines = run(_post_turn(client, {**payload, "message": "And in the suburbs."}))
    assert status == 200 and lines[-1]["type"] == "result"
    assert len(statements) <= MAX_STATEMENTS[connection.vendor] + 1, "\n".join(statements)
    assert sum('"debates_debate"' in sql for sql in statements) == 1


def test_it_reads_an_assignments_rules_in_the_statement_that_reads_the_argument(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    django_user_model: Any,
    statements: list[str],
) -> None:
    # The class's turn: an assignment with a due date, an extension table to look in, a
    # turn quota to count against and required criteria, as the coach's main journey has.
    work = class_work(student=student, teacher=django_user_model.objects.create_user("teacher"))
    fake_anthropic.enqueue(Reply.json(REPLY), Reply.json(REPLY))
    client = AsyncClient()
    client.force_login(student)
    payload = {"argument_id": work.pk, "message": "Cities should ban cars.", "step": "claim"}
    run(_post_turn(client, payload))
    statements.clear()

    status, _, lines = run(_post_turn(client, {**payload, "message": "Only in the centre."}))

    assert status == 200 and lines[-1]["type"] == "result"
    # As many as a turn outside any class: the submission, its assignment, this student's
    # extension and the turns counted against the quota come with the argument's row.
    assert len(statements) <= MAX_STATEMENTS[connection.vendor], "\n".join(statements)


def test_it_does_not_reclassify_the_steps_earlier_messages_every_turn(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
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
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message="Cities should ban cars.", step="claim"
    )
    assert status == 200 and lines[-1]["type"] == "result"
    # Whether this is a first attempt is settled by the first earlier attempt, not all 40.
    assert len(calls) <= 3, calls
