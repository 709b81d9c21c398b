"""The live page's counted phrases: both forms, in the page's language."""

from django.utils import translation

from debates.presenters import client_strings


def fill(forms: dict[str, str], n: int) -> str:
    # What debate_live.js does with them.
    return (forms["one"] if n == 1 else forms["other"]).replace("%(count)s", str(n))


def test_it_says_one_argument_and_three_arguments() -> None:
    with translation.override("en"):
        counted = client_strings()["counted"]
    assert fill(counted["arguments"], 1) == "1 argument"
    assert fill(counted["arguments"], 3) == "3 arguments"
    assert fill(counted["attacks"], 1) == "1 attack"
    assert fill(counted["valid"], 2) == "2 valid"


def test_it_agrees_in_number_in_spanish() -> None:
    with translation.override("es"):
        counted = client_strings()["counted"]
    assert fill(counted["valid"], 1) == "1 válido"
    assert fill(counted["valid"], 4) == "4 válidos"
    assert fill(counted["arguments"], 1) == "1 argumento"
    assert fill(counted["attacks"], 0) == "0 ataques"
