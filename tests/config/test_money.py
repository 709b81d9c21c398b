"""config.money: one way to write an amount of dollars, in the reader's language."""

from __future__ import annotations

from decimal import Decimal

from django.template import Context, Template
from django.utils import translation

from config.money import format_money


def test_it_rounds_half_up_with_a_decimal_point_or_comma() -> None:
    with translation.override("en"):
        assert format_money(Decimal("0.123456"), 4) == "$0.1235"
        assert format_money(Decimal("0.125")) == "$0.13"
        assert format_money(3) == "$3.00"
    with translation.override("es"):
        assert format_money(Decimal("0.123456"), 4) == "0,1235\xa0US$"
        assert format_money("1.5") == "1,50\xa0US$"


def test_it_shows_nothing_for_what_is_not_an_amount() -> None:
    assert [format_money(v) for v in (None, "", "n/a", float("nan"))] == ["", "", "", ""]


def test_it_is_the_money_filter_of_the_templates() -> None:
    template = Template("{% load money %}{{ cost|money:4 }} / {{ budget|money }}")
    with translation.override("es"):
        text = template.render(Context({"cost": Decimal("0.0421"), "budget": Decimal("5")}))
    assert text == "0,0421\xa0US$ / 5,00\xa0US$"
