"""Money as a reader reads it: one format for every amount the pages show.

Amounts are US dollars (the model provider bills in them). The number is
written by Django's localisation (``django.utils.formats.number_format``: a
decimal point in English, a decimal comma in Spanish) and the currency's
place comes from the catalogue: "$0.0123" in English, "0,0123 US$" in
Spanish, where a bare "$" would read as the local peso (the ISO 4217 code's
prefix, as Spanish style guides advise for the US dollar, Fundéu "dólar").
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext as _

__all__ = ["format_money"]


def format_money(amount: object, digits: int = 2) -> str:
    """``amount`` (a Decimal, float, int or numeric string) with ``digits`` decimals, in the
    active language; "" for something that is not a number (a template shows nothing)."""
    if amount is None or amount == "":
        return ""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return ""
    if not value.is_finite():
        return ""
    # Rounded half up, as floatformat did: number_format cuts the extra digits off.
    value = value.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    number = number_format(value, digits, use_l10n=True)
    # Translators: an amount of US dollars; %(amount)s is the number, already localised.
    return _("$%(amount)s") % {"amount": number}
