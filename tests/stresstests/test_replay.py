"""The replay of a stress test: every step in plain words, in order, escaped."""

from __future__ import annotations

import pytest
from django.urls import reverse

from debates.models import Attack
from engine.models import DebateEvent
from stresstests import services
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER = "Those cities were <b>matched</b> on income & density."
REPLY = "Matching on income <script>alert(1)</script> is not enough"


def _key(stress, persona_name: str) -> str:
    attack = Attack.objects.get(debate=stress.debate, speaker__name=persona_name, round=1)
    return attack.from_argument.key


@pytest.fixture
def answered(client, ada, finished_argument, personas, stress_model):
    """The Empiricist's objection answered (accepted), and the Empiricist answering back."""
    stress_model.replies["The Empiricist"] = REPLY
    stress = settle(
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
        )
    )
    client.post(
        reverse("stresstests:defend", args=[stress.pk]),
        {"attack": _key(stress, "The Empiricist"), "answer": ANSWER},
    )
    return settle(stress)


def test_it_records_the_student_s_words_and_the_answer_back_in_the_events(answered) -> None:
    events = DebateEvent.objects.filter(debate=answered.debate)
    judged = events.get(type="defence_judged").payload
    assert judged["text"] == ANSWER
    assert (judged["status"], judged["attack"]) == ("accepted", _key(answered, "The Empiricist"))
    replied = events.get(type="persona_replied").payload
    assert (replied["persona"], replied["text"]) == ("The Empiricist", REPLY)
    assert replied["argument"]


def test_it_replays_objections_concessions_answers_replies_and_status_in_order(
    client, answered
) -> None:
    response = client.get(reverse("stresstests:replay", args=[answered.pk]))
    assert response.status_code == 200
    page = response.content.decode()

    farmer = _key(answered, "The Farmer")
    in_order = [
        "were asked to attack your argument.",
        "Those cities differ in many other ways",  # the Empiricist's objection
        "The objections were checked:",
        "Your claim now: Your claim is defeated as it stands",
        f"Checked against your rebuttal: {farmer} raises an exception you already conceded.",
        f"Your answer to {_key(answered, 'The Empiricist')}:",
        "Those cities were &lt;b&gt;matched&lt;/b&gt; on income &amp; density.",
        "Accepted: your answer now attacks this objection.",
        "The Empiricist answers back",
        "Matching on income &lt;script&gt;alert(1)&lt;/script&gt; is not enough",
        "The answer back was checked:",
        "The stress test is finished.",
    ]
    positions = [page.find(text) for text in in_order]
    assert -1 not in positions, [t for t, p in zip(in_order, positions, strict=True) if p < 0]
    assert positions == sorted(positions)
    assert "<script>alert(1)</script>" not in page and "<b>matched</b>" not in page
    # One end only: the opening run's end is not news once the student answered.
    assert page.count("The stress test is finished.") == 1


def test_it_sends_the_debates_replay_of_a_stress_test_to_its_own(client, answered) -> None:
    response = client.get(reverse("debates:replay", args=[answered.debate_id]))

    assert response.status_code == 302
    assert response.url == reverse("stresstests:replay", args=[answered.pk])
