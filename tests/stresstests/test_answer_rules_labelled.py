"""The offline stress test's answer rules against a labelled set of students' answers.

`cq_answers.json` (beside this file) holds arguments and answers to their critical
questions, in English and Spanish, labelled good, non_answer, restatement,
wrong_question (a good answer to another question of the same argument) or reused
(an answer already accepted for one question, offered again for another). The
thresholds are the issue's: flawed answers caught >= 90%, good ones accepted >= 90%,
in each language.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation import cq_answers
from argumentation.schemes import SCHEMES, objections

DATA = json.loads((Path(__file__).with_name("cq_answers.json")).read_text(encoding="utf-8"))


def _question(argument: dict, code: str):
    language = argument["language"]
    found = objections(argument, language=language)
    objection = next(o for o in found if o.question_code == code)
    questions = {q.code: q for scheme in SCHEMES for q in scheme.questions}
    return objection, questions[code]


def verdict(item: dict) -> str | None:
    """The rules' verdict on one labelled answer, given what the stress test knows then."""
    argument = DATA["arguments"][item["argument"]]
    language = argument["language"]
    objection, question = _question(argument, item["question"])
    accepted = []
    if item["label"] == "reused":
        accepted = [item["answer"]]  # it was accepted for ``accepted_for`` first
    return cq_answers.judge(
        item["answer"],
        asks=question.asks,
        element_text=argument.get(objection.element, ""),
        question_texts=(question.question[language], objection.counter_proposition),
        argument_texts=(argument["warrant"], argument["claim"], argument["grounds"]),
        accepted_elsewhere=accepted,
        language=language,
    )


def rates(judge=verdict) -> dict[str, dict[str, float]]:
    """Per language: the share of flawed answers refused and of good ones accepted."""
    caught, flawed, accepted, good = Counter(), Counter(), Counter(), Counter()
    for item in DATA["answers"]:
        language = DATA["arguments"][item["argument"]]["language"]
        refused = judge(item) is not None
        if item["label"] == "good":
            good[language] += 1
            accepted[language] += not refused
        else:
            flawed[language] += 1
            caught[language] += refused
    return {
        language: {
            "flawed_caught": caught[language] / flawed[language],
            "good_accepted": accepted[language] / good[language],
        }
        for language in good
    }


@pytest.mark.parametrize("language", ["en", "es"])
def test_it_catches_flawed_answers_and_accepts_good_ones_in_each_language(language) -> None:
    found = rates()[language]
    assert found["flawed_caught"] >= 0.9, found
    assert found["good_accepted"] >= 0.9, found


def test_it_holds_enough_labelled_answers_of_each_kind() -> None:
    kinds = Counter(
        (DATA["arguments"][i["argument"]]["language"], i["label"]) for i in DATA["answers"]
    )
    for language in ("en", "es"):
        assert kinds[(language, "good")] >= 15
        for label in ("non_answer", "restatement", "wrong_question", "reused"):
            assert kinds[(language, label)] >= 3, (language, label)


def test_it_refuses_one_answer_for_two_different_questions() -> None:
    # The sentence: it answers "is the source an expert?", not "do others agree?".
    argument = DATA["arguments"]["sleep_expert_en"]
    sentence = (
        "The study was peer reviewed and published in the Journal of Clinical Sleep "
        "Medicine by sleep researchers."
    )
    expertise = {"argument": "sleep_expert_en", "question": "expert.expertise", "label": "good"}
    consistency = {"argument": "sleep_expert_en", "question": "expert.consistency"}
    assert argument and verdict({**expertise, "answer": sentence}) is None
    assert verdict({**consistency, "label": "wrong_question", "answer": sentence}) == (
        "off_question"
    )
    assert verdict({**consistency, "label": "reused", "answer": sentence}) in (
        "reused",
        "off_question",
    )


@pytest.mark.parametrize(
    "answer", ["yes it is", "I disagree", "idk", "sí lo es", "No estoy de acuerdo", "ni idea"]
)
def test_it_refuses_a_non_answer_whatever_the_question(answer) -> None:
    for kind in cq_answers.ASKS:
        assert cq_answers.judge(answer, asks=kind) is not None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "yes",
                "no",
                "I",
                "agree",
                "disagree",
                "think",
                "it",
                "is",
                "right",
                "wrong",
                "sí",
                "creo",
                "que",
                "tengo",
                "razón",
                "obviously",
                "true",
                "the",
                "objection",
            ]
        ),
        min_size=1,
        max_size=12,
    )
)
def test_it_never_accepts_words_of_agreeing_and_disagreeing_alone(words) -> None:
    answer = " ".join(words)
    for kind in ("", *cq_answers.ASKS):
        assert cq_answers.judge(answer, asks=kind) is not None


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([i for i in DATA["answers"] if i["label"] == "good"]), st.integers(0, 3))
def test_it_treats_an_answer_the_same_whatever_its_case_and_spacing(item, variant) -> None:
    text = item["answer"]
    changed = [text, text.upper(), "  " + text.replace(" ", "   ") + " ", text.lower()][variant]
    if variant == 1:
        return  # capitals mark names (acronyms count as credentials): not case-blind
    assert verdict({**item, "answer": changed}) == verdict(item)


@pytest.mark.parametrize("code", sorted(cq_answers.SENTENCES))
def test_it_rewords_its_sentences_in_the_readers_language(code) -> None:
    english = cq_answers.sentence(code, "en", asks="consensus")
    spanish = cq_answers.sentence(code, "es", asks="consensus")
    assert english != spanish
    assert cq_answers.reword(english, "es") == spanish
    assert cq_answers.reword(spanish, "en") == english
    assert cq_answers.reword("A persona's own sentence.", "es") is None


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([i for i in DATA["answers"] if i["label"] == "good"]))
def test_it_accepts_a_good_answer_that_first_quotes_its_question(item) -> None:
    argument = DATA["arguments"][item["argument"]]
    _objection, question = _question(argument, item["question"])
    if verdict(item) is not None:
        return  # one the rules already miss: nothing to compare
    quoted = f"{question.question[argument['language']]} {item['answer']}"
    assert verdict({**item, "answer": quoted}) is None
