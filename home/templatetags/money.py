"""``{{ amount|money }}`` and ``{{ amount|money:4 }}``: every amount of money a page shows,
in the reader's language (config.money). ``{% spend amount 4 %}``: the amount for an
instructor, a plain level ("small") for a student (home/spend.py)."""

from __future__ import annotations

from django import template

from config.money import format_money
from home.spend import cost_level, sees_money

register = template.Library()


@register.filter
def money(amount: object, digits: int = 2) -> str:
    return format_money(amount, int(digits))


@register.filter(name="sees_money")
def sees_money_filter(user: object) -> bool:
    """``{% if request.user|sees_money %}``: amounts and model ids are for instructors."""
    return sees_money(user)


@register.simple_tag(takes_context=True)
def spend(context, amount: object, digits: int = 2) -> str:
    request = context.get("request")
    if sees_money(getattr(request, "user", None)):
        return format_money(amount, int(digits))
    return cost_level(amount)
