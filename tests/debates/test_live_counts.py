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


def money(strings: dict, cost: float) -> str:
    # What debate_live.js's setCost does with them.
    amount = f"{cost:.4f}".replace(".", strings["money"]["decimal"])
    return strings["money"]["pattern"].replace("%(amount)s", amount)


def test_it_writes_the_cost_so_far_as_the_server_writes_money() -> None:
    from config.money import format_money

    for language in ("en", "es"):
        with translation.override(language):
            assert money(client_strings(), 0.0123) == format_money(0.0123, 4)
    with translation.override("es"):
        assert money(client_strings(), 0.5) == "0,5000\xa0US$"
