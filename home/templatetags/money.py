"""``{{ amount|money }}`` and ``{{ amount|money:4 }}``: every amount of money a page shows,
in the reader's language (config.money)."""

from __future__ import annotations

from django import template

from config.money import format_money

register = template.Library()


@register.filter
def money(amount: object, digits: int = 2) -> str:
    return format_money(amount, int(digits))
