"""Seeding and pairing a single-elimination bracket of 2-5 models.

Standard seeding: models are ranked by their current rating for the
tournament's decision type (highest first; ties by model id, so the same
ratings always give the same bracket). The bracket has the next power of two
slots (2, 4 or 8) and the empty slots are byes that go to the top seeds: a
bye pairs seed *s* with the missing seed ``size + 1 - s``. Pairings follow
the usual bracket order (for 8: 1v8, 4v5, 2v7, 3v6), so seeds 1 and 2 can
only meet in the final.

Rounds are played in order (round 1 first); every match of one round is
independent of the others, so they may run concurrently. The winners of a
round, kept in bracket order, are paired neighbour with neighbour for the
next one.

Model families, for ``force_diversity``. After dropping any ``vendor/``
prefix and lowercasing:

- Anthropic models (``claude…``) are grouped by **tier**: the family is the
  first of ``opus``, ``sonnet`` or ``haiku`` among the id's hyphenated parts,
  wherever it stands, so ``claude-sonnet-5-5`` and the older
  ``claude-3-5-sonnet-20241022`` are both ``sonnet``, ``claude-opus-4-1`` is
  ``opus``. A Claude id naming no tier (``claude-2``) is ``claude``.
- Any other model's family is the part before the first hyphen: ``gpt-4o``
  and ``gpt-5`` are ``gpt``, ``gemini-2-pro`` is ``gemini``; an id without a
  hyphen is its own family.

Why tiers: the product has one vendor configured (Anthropic), so a rule of
"one per vendor" would make the option refuse every tournament of the
configured models. The tiers are different models, not sizes of one: they
differ in size and training, and argue differently, which is what a
diverse bracket wants. Versions of one tier (``claude-sonnet-4-5`` and
``claude-sonnet-5-5``) stay one family.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from tournaments.elo import INITIAL_RATING

__all__ = [
    "MAX_MODELS",
    "MIN_MODELS",
    "DiversityImpossible",
    "Pairing",
    "bracket_order",
    "bracket_size",
    "check_diversity",
    "first_round",
    "model_family",
    "next_round",
    "round_count",
    "seed_models",
    "select_diverse",
]

MIN_MODELS = 2
MAX_MODELS = 5
# Anthropic's tiers: each is its own family (see the module docstring).
CLAUDE_TIERS = ("opus", "sonnet", "haiku")


class DiversityImpossible(ValueError):
    """The models on offer do not cover enough families for the tournament.

    ``details`` names what went wrong (``pair`` and ``family`` when two chosen
    models share a family; ``size`` and ``families`` when too few families are
    on offer), so the site can say it in the page's language.
    """

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.details = details


@dataclass(frozen=True)
class Pairing:
    """One slot of a bracket round: two models, or one model and a bye (``b`` is None)."""

    a: str
    b: str | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


def _check_count(n: int) -> None:
    if not MIN_MODELS <= n <= MAX_MODELS:
        raise ValueError(f"A tournament needs {MIN_MODELS} to {MAX_MODELS} models, not {n}.")


def bracket_size(n: int) -> int:
    """Slots in the first round: the smallest power of two holding ``n`` models."""
    _check_count(n)
    size = 1
    while size < n:
        size *= 2
    return size


def round_count(n: int) -> int:
    """Bracket rounds for ``n`` models: 2 → 1, 3-4 → 2, 5 → 3."""
    return bracket_size(n).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """Seeds in slot order for a bracket of ``size`` (a power of two).

    Built by the usual doubling: each seed *s* of the smaller bracket is
    followed by its opponent ``2 * len + 1 - s``; for 8 this gives
    1, 8, 4, 5, 2, 7, 3, 6.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"A bracket size must be a power of two, not {size}.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def seed_models(models: Sequence[str], ratings: Mapping[str, Decimal]) -> list[str]:
    """The models from seed 1 down: highest rating first, ties by model id.

    ``ratings`` holds each model's rating for the tournament's decision type;
    a model without one counts as a newcomer at 1200.
    """
    _check_count(len(models))
    if len(set(models)) != len(models):
        raise ValueError("A model can enter a tournament only once.")
    return sorted(models, key=lambda m: (-ratings.get(m, INITIAL_RATING), m))


def first_round(seeded: Sequence[str]) -> list[Pairing]:
    """Round 1 in bracket order; the top seeds get the byes."""
    n = len(seeded)
    order = bracket_order(bracket_size(n))
    pairings = []
    for i in range(0, len(order), 2):
        high, low = sorted(order[i : i + 2])
        pairings.append(Pairing(seeded[high - 1], seeded[low - 1] if low <= n else None))
    return pairings


def next_round(winners: Sequence[str]) -> list[Pairing]:
    """The next round from the previous round's winners (and bye holders), in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError(f"A bracket round pairs an even number of models, not {len(winners)}.")
    return [Pairing(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def model_family(model_id: str) -> str:
    """The family a model belongs to; see the module docstring for the rule."""
    name = model_id.strip().rsplit("/", 1)[-1].strip().lower()
    parts = [part for part in name.split("-") if part]
    if not parts:
        raise ValueError("A model id cannot be empty.")
    if parts[0] == "claude":
        return next((part for part in parts if part in CLAUDE_TIERS), "claude")
    return parts[0]


def check_diversity(models: Sequence[str]) -> None:
    """Raise ``DiversityImpossible`` when two of ``models`` share a family."""
    seen: dict[str, str] = {}
    for model in models:
        family = model_family(model)
        if family in seen:
            raise DiversityImpossible(
                f"{seen[family]} and {model} are both {family} models, and this tournament "
                "asks for models from different families. Pick one of them, or turn off "
                "the diversity option.",
                pair=(seen[family], model),
                family=family,
            )
        seen[family] = model


def select_diverse(candidates: Sequence[str], size: int) -> list[str]:
    """The first ``size`` candidates (in the given preference order), one per family.

    Raises ``DiversityImpossible`` when the candidates cover fewer families
    than the tournament needs.
    """
    _check_count(size)
    chosen: list[str] = []
    families: set[str] = set()
    for model in candidates:
        family = model_family(model)
        if family not in families:
            families.add(family)
            chosen.append(model)
            if len(chosen) == size:
                return chosen
    raise DiversityImpossible(
        f"This tournament needs {size} models from different families, but the models "
        f"available come from only {len(families)} "
        f"({', '.join(sorted(families)) or 'none'}). Choose a smaller tournament, add models "
        "from other families, or turn off the diversity option.",
        size=size,
        families=tuple(sorted(families)),
    )
