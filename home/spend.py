"""What a run costs, as a student reads it: a plain level, not dollars.

Students are not the ones who pay, and a price per run ("$0.23", "$0.0000")
or a model's product name tells them nothing they can act on; instructors
(staff users: ``classroom.services.make_instructor``) see the amounts and the
model ids, because they set the budgets. Pure: the levels' words are lazy
translations, said in the reader's language where they are shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext_lazy as _

__all__ = ["COST_LEVELS", "cost_level", "model_levels", "sees_money"]

#: (below this many dollars, the level's words), cheapest first; above the last: "large".
COST_LEVELS: tuple[tuple[Decimal, object], ...] = (
    (Decimal("0.10"), _("small")),
    (Decimal("1.00"), _("medium")),
)
LARGE = _("large")


def sees_money(user: object) -> bool:
    """Instructors and admins (staff) see amounts and model ids; students see levels."""
    return bool(getattr(user, "is_staff", False))


def cost_level(amount: object) -> str:
    """ "small" / "medium" / "large" for an amount in dollars; "" for no amount."""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return ""
    for ceiling, words in COST_LEVELS:
        if value < ceiling:
            return str(words)
    return str(LARGE)


def model_levels(models: Sequence[str], prices: Mapping[str, Mapping[str, Decimal]]) -> dict:
    """Each model's plain name by its price among ``models``: the dearest "a thorough
    model", the cheapest "a quick model", any between "a balanced model"; models that
    share a level are numbered, so no two choices read the same."""

    def price(model: str) -> Decimal:
        rates = prices.get(model) or {}
        return Decimal(rates.get("input", 0)) + Decimal(rates.get("output", 0))

    ranked = sorted(set(price(m) for m in models))
    words = {}
    for model in models:
        rank = ranked.index(price(model))
        if len(ranked) > 1 and rank == len(ranked) - 1:
            words[model] = _("A thorough model")
        elif rank == 0:
            words[model] = _("A quick model")
        else:
            words[model] = _("A balanced model")
    shown: dict[str, str] = {}
    for model in models:
        same = [m for m in models if words[m] == words[model]]
        label = str(words[model])
        shown[model] = label if len(same) == 1 else f"{label} {same.index(model) + 1}"
    return shown
