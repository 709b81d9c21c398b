"""The stress test without a model: the critical questions of the warrant's scheme attack
the student's argument, the rules check the answers, and the solver says where it stands."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.models import DebateStatus, LLMCall
from stresstests.models import Defence, StressTest
from stresstests.offline import judge_answer

pytestmark = pytest.mark.django_db


def _start(client, argument) -> StressTest:
    response = client.post(reverse("stresstests:start", args=[argument.pk]), {"offline": "1"})
    stress = StressTest.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("stresstests:detail", args=[stress.pk])
    return stress


def test_it_runs_without_a_key_and_the_critical_questions_defeat_the_claim(
    no_anthropic_key, client, finished_argument
) -> None:
    start = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content
    assert b"argument from cause to effect" in start  # "What lowers deaths ... makes"

    stress = _start(client, finished_argument)

    debate = stress.debate
    assert stress.offline and debate.status == DebateStatus.DONE
    assert not LLMCall.objects.exists()
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "Could something else have caused the effect?" in page
    assert "Your claim is defeated as it stands" in page
    assert 'name="answer"' in page  # the student can answer each question
    # The exception question is answered by the rebuttal the student already wrote.
    assert len(debate.output["answered_by_rebuttal"]) == 1


def test_it_accepts_an_answer_in_the_students_own_words_and_the_claim_stands(
    no_anthropic_key, client, finished_argument
) -> None:
    stress = _start(client, finished_argument)
    keys = [a.from_argument.key for a in stress.debate.attacks.filter(round=1).order_by("id")]
    answers = {
        keys[0]: "Deaths were counted by hospitals, not estimated, in every city studied.",
        keys[1]: "The same streets were compared before and after, so little else changed.",
    }
    for key, text in answers.items():
        response = client.post(
            reverse("stresstests:defend", args=[stress.pk]),
            {"attack": key, "answer": text},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200

    assert list(Defence.objects.values_list("status", flat=True)) == ["accepted", "accepted"]
    stress.debate.refresh_from_db()
    assert stress.debate.output["status"] == "grounded_in"
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "Your claim stands against every objection raised" in page


def test_it_refuses_a_restatement_and_a_one_word_answer(
    no_anthropic_key, client, finished_argument
) -> None:
    stress = _start(client, finished_argument)
    undercut = stress.debate.attacks.get(type="undercut").from_argument.key

    for text in (finished_argument.warrant, "No."):
        client.post(
            reverse("stresstests:defend", args=[stress.pk]), {"attack": undercut, "answer": text}
        )

    assert list(Defence.objects.values_list("status", "reason")) == [
        ("refused", "restatement"),
        ("refused", "irrelevant"),
    ]
    stress.debate.refresh_from_db()
    assert stress.debate.output["status"] == "defeated"


def test_it_keeps_another_students_offline_test_from_them(
    no_anthropic_key, client, finished_argument
) -> None:
    stress = _start(client, finished_argument)
    client.force_login(get_user_model().objects.create_user("bo"))

    assert client.get(reverse("stresstests:detail", args=[stress.pk])).status_code == 404
    response = client.post(
        reverse("stresstests:start", args=[finished_argument.pk]), {"offline": "1"}
    )
    assert response.status_code == 404 and StressTest.objects.count() == 1


def test_it_words_the_questions_in_the_arguments_language(
    no_anthropic_key, client, finished_argument
) -> None:
    finished_argument.language = "es"
    finished_argument.warrant = "Según un estudio de expertos, los carriles reducen muertes."
    finished_argument.save()

    stress = _start(client, finished_argument)

    texts = list(stress.debate.attacks.values_list("counter_proposition", flat=True))
    assert any("expertos" in t for t in texts), texts


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("No.", "short"),
        ("What lowers deaths per trip makes streets safer.", "restatement"),
        ("What lowers the deaths per trip makes the streets safer!", "restatement"),
        ("Total injuries fell too, so the streets are safer overall.", None),
    ],
)
def test_it_judges_an_answer_by_its_words(answer, verdict) -> None:
    element = "What lowers deaths per trip makes streets safer."
    assert judge_answer(answer, element_text=element, objection_text="x") == verdict


SLEEP = {
    "claim": "Our school should start at 9 a.m. instead of 8 a.m.",
    "grounds": "A study of 9,000 students found that those who started after 8:30 got better grades.",
    "warrant": "Sleep researchers are experts on how sleep affects learning, so their finding "
    "should guide the school.",
    "qualifier": "",
    "rebuttal": "",
}
PEER_REVIEWED = (
    "The study was peer reviewed and published in the Journal of Clinical Sleep Medicine "
    "by sleep researchers."
)


def _answer(client, stress, key: str, text: str, **headers) -> str:
    return client.post(
        reverse("stresstests:defend", args=[stress.pk]),
        {"attack": key, "answer": text},
        HTTP_HX_REQUEST="true",
        **headers,
    ).content.decode()


def _keys(stress) -> dict[str, str]:
    """The objections' attack type -> the key to answer it by."""
    return {
        a.type: a.from_argument.key for a in stress.debate.attacks.filter(round=1).order_by("id")
    }


def test_it_does_not_accept_one_answer_for_two_different_questions(
    no_anthropic_key, client, finished_argument
) -> None:
    for name, text in SLEEP.items():
        setattr(finished_argument, name, text)
    finished_argument.save()
    stress = _start(client, finished_argument)
    keys = _keys(stress)  # undermine: is the source an expert? undercut: do others agree?

    _answer(client, stress, keys["undermine"], PEER_REVIEWED)
    page = _answer(client, stress, keys["undercut"], PEER_REVIEWED)

    assert list(Defence.objects.order_by("seq").values_list("status", flat=True)) == [
        "accepted",
        "refused",
    ]
    assert "Name other experts or sources that say the same" in page
    stress.debate.refresh_from_db()
    assert stress.debate.output["status"] == "defeated"

    _answer(
        client,
        stress,
        keys["undercut"],
        "Other experts agree: the American Academy of "
        "Pediatrics also recommends starting after 8:30.",
    )
    _answer(
        client,
        stress,
        keys["rebut"],
        "The students studied were teenagers of the same age as ours, in ordinary public schools.",
    )
    stress.debate.refresh_from_db()
    assert stress.debate.output["status"] == "grounded_in"


@pytest.mark.parametrize(
    "answer",
    [
        "yes it is",
        "I disagree.",
        "idk",
        "I disagree, my argument is right and the objection is wrong.",
    ],
)
def test_it_refuses_a_non_answer(no_anthropic_key, client, finished_argument, answer) -> None:
    stress = _start(client, finished_argument)

    _answer(client, stress, _keys(stress)["undercut"], answer)

    assert Defence.objects.get().status == "refused"


def test_it_shows_the_scheme_and_its_questions_in_the_readers_language(
    no_anthropic_key, client, finished_argument
) -> None:
    # An English argument on a Spanish page: the critical questions are the site's voice.
    spanish = {"HTTP_ACCEPT_LANGUAGE": "es"}
    start = client.get(reverse("stresstests:start", args=[finished_argument.pk]), **spanish)
    assert "argumento de causa a efecto" in start.content.decode()
    stress = _start(client, finished_argument)

    page = _answer(client, stress, _keys(stress)["undercut"], finished_argument.warrant, **spanish)
    page = client.get(reverse("stresstests:detail", args=[stress.pk]), **spanish).content.decode()

    assert "¿Pudo causar el efecto otra cosa?" in page
    assert "Could something else have caused the effect?" not in page
    assert "Tu respuesta repite tu argumento o la pregunta" in page
    assert "Your answer repeats" not in page
    english = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "Could something else have caused the effect?" in english
    replay = client.get(reverse("stresstests:replay", args=[stress.pk]), **spanish)
    assert "Tu respuesta repite tu argumento" in replay.content.decode()
