"""Starting a tournament, and its cost estimate.

A tournament is a ``debates.Debate`` row of ``format="tournament"`` plus its
``Tournament`` row; it runs on the shared engine (``debates.services.launch``:
a Celery worker with a broker, a background thread without), so status,
events, SSE, the ledger, Retry and the limits are the debates' own.

Errors, each a plain sentence for people:
``ModelSelectionError`` (wrong count, duplicates, unknown models, diversity
impossible),
``BudgetExceeded`` (tournaments/budget.py: estimated, limit, overage),
``limits.services.LimitReached`` (rate, quota, running cap), and
``django.core.exceptions.ValidationError`` for other bad input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_CEILING, Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.admission import admit_run
from engine.models import Debate
from engine.services import NO_KEY_MESSAGE, debates_available, launch
from llm import PriceTable, Usage, cost_usd
from tournaments.bracket import (
    MAX_MODELS,
    MIN_MODELS,
    DiversityImpossible,
    check_diversity,
    seed_models,
    select_diverse,
)
from tournaments.budget import BudgetExceeded, check_estimate
from tournaments.elo import DecisionType
from tournaments.format import FORMAT_NAME
from tournaments.models import Rating, Tournament
from tournaments.turns import EXPECTED_TOKENS

__all__ = [
    "DEFAULT_MODELS",
    "BudgetExceeded",
    "ModelSelectionError",
    "create_tournament",
    "default_tournament_size",
    "estimate_tournament_cost",
    "check_known",
    "known_models",
    "pick_models",
]

# The models a tournament picks from when none are named (settings.TOURNAMENT_MODELS).
DEFAULT_MODELS = ("claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5")
# Prompt sizes: the system prompt and instructions, plus what grows per round.
BASE_PROMPT_TOKENS = 450
TRANSCRIPT_TOKENS_PER_ROUND = 900
CHARS_PER_TOKEN = 4
SCHEMA_TOKENS = 350


class ModelSelectionError(ValidationError):
    """The models asked for cannot make a tournament; the message says why."""


def _candidates() -> list[str]:
    return list(getattr(settings, "TOURNAMENT_MODELS", DEFAULT_MODELS))


def default_tournament_size() -> int:
    """How many models compete when none are named: 4, or fewer if fewer are configured."""
    return min(4, len(_candidates()))


def known_models() -> list[str]:
    """The model ids with a price of their own in ``settings.LLM_PRICES``.

    Known means priced: the budget check can only refuse what it can price
    (``llm.cost_usd`` counts an unpriced model as $0, and its ``"default"``
    entry, if any, would price a misspelling too), and a misspelt id would
    only fail mid-run, as a forfeit.
    """
    return sorted(key for key in settings.LLM_PRICES if key != "default")


def _is_known(model: str, known: Sequence[str]) -> bool:
    # A suffixed variant of a priced id (a dated snapshot: claude-haiku-5-5-20261001)
    # is priced as that id by llm.price_for, so it is known too.
    return any(model == key or model.startswith(f"{key}-") for key in known)


def check_known(models: Sequence[str]) -> None:
    """Raise ``ModelSelectionError`` naming the unknown ids and the known ones."""
    known = known_models()
    unknown = [m for m in models if not _is_known(m, known)]
    if unknown:
        raise ModelSelectionError(
            ngettext(
                "Unknown model: %(unknown)s. The models known here are: %(known)s. "
                "Check the spelling, or choose among them.",
                "Unknown models: %(unknown)s. The models known here are: %(known)s. "
                "Check the spelling, or choose among them.",
                len(unknown),
            )
            % {"unknown": ", ".join(unknown), "known": ", ".join(known) or _("none")},
            code="unknown_model",
        )


def pick_models(
    *, models: Sequence[str] | None, tournament_size: int | None, force_diversity: bool
) -> list[str]:
    """The competing models: those named, else the first ``tournament_size`` candidates."""
    try:
        if models:
            chosen = [m.strip() for m in models if m and m.strip()]
            if len(set(chosen)) != len(chosen):
                raise ModelSelectionError(_("A model can enter a tournament only once."))
            if not MIN_MODELS <= len(chosen) <= MAX_MODELS:
                raise ModelSelectionError(_count_message(len(chosen)))
            check_known(chosen)
            if force_diversity:
                check_diversity(chosen)
            return chosen
        size = tournament_size or default_tournament_size()
        if not MIN_MODELS <= size <= MAX_MODELS:
            raise ModelSelectionError(_count_message(size))
        if force_diversity:
            chosen = select_diverse(_candidates(), size)
        elif size > len(_candidates()):
            raise ModelSelectionError(
                _(
                    "Only %(available)s models are available, not %(size)s. "
                    "Name the models, or choose a smaller tournament."
                )
                % {"available": len(_candidates()), "size": size}
            )
        else:
            chosen = _candidates()[:size]
        check_known(chosen)
        return chosen
    except DiversityImpossible as exc:
        raise ModelSelectionError(_diversity_message(exc), code="diversity") from exc


def _count_message(count: int) -> str:
    return _("A tournament needs %(low)s to %(high)s models, not %(count)s.") % {
        "low": MIN_MODELS,
        "high": MAX_MODELS,
        "count": count,
    }


def _diversity_message(exc: DiversityImpossible) -> str:
    """The pure bracket's refusal, in the page's language."""
    details = exc.details
    if "pair" in details:
        first, second = details["pair"]
        return _(
            "%(first)s and %(second)s are both %(family)s models, and this tournament asks "
            "for models from different families. Pick one of them, or turn off the "
            "diversity option."
        ) % {"first": first, "second": second, "family": details["family"]}
    families = ", ".join(details.get("families", ())) or _("none")
    return _(
        "This tournament needs %(size)s models from different families, but the models "
        "available come from only %(count)s (%(families)s). Choose a smaller tournament, "
        "add models from other families, or turn off the diversity option."
    ) % {
        "size": details.get("size", "?"),
        "count": len(details.get("families", ())),
        "families": families,
    }


def _price(model: str, input_tokens: int, output_tokens: int, prices: PriceTable) -> Decimal:
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return cost_usd(model=model, usage=usage, prices=prices)


def estimate_tournament_cost(
    *,
    models: Sequence[str],
    max_rounds: int,
    cheap_model: str,
    prices: PriceTable,
    context: str = "",
) -> Decimal:
    """What the whole tournament would cost if every match ran all its rounds.

    A bracket of n models plays n - 1 matches. Each match: 2 initial
    recommendations, then per round 2 challenges, 2 defences and 1 arbiter
    convergence check, then 1 verdict. Which models meet after round 1 is
    unknown, so every match is priced as if the two most expensive models
    played it: an upper bound, as a budget check wants. Research queries and
    sent-back challenges are covered by the margin of the round estimate.
    """
    if not models:
        return Decimal(0)
    by_price = sorted(models, key=lambda m: -_price(m, 1000, 1000, prices))
    pair = by_price[:2]
    base = BASE_PROMPT_TOKENS + SCHEMA_TOKENS + math.ceil(len(context) / CHARS_PER_TOKEN)
    per_match = Decimal(0)
    for model in pair:
        per_match += _price(model, base, EXPECTED_TOKENS["initial"], prices)
        for r in range(1, max_rounds + 1):
            grown = base + TRANSCRIPT_TOKENS_PER_ROUND * r
            per_match += _price(model, grown, EXPECTED_TOKENS["challenge"], prices)
            per_match += _price(model, grown, EXPECTED_TOKENS["defence"], prices)
    arbiter = _price(cheap_model, base + 600, EXPECTED_TOKENS["arbiter"], prices)
    per_match += arbiter * max_rounds
    transcript = base + TRANSCRIPT_TOKENS_PER_ROUND * (2 * max_rounds + 1)
    per_match += _price(cheap_model, transcript, EXPECTED_TOKENS["verdict"], prices)
    return (per_match * (len(models) - 1)).quantize(Decimal("0.000001"), rounding=ROUND_CEILING)


def create_tournament(
    *,
    user,
    question: str,
    decision_type: str,
    models: Sequence[str] | None = None,
    tournament_size: int | None = None,
    budget_usd: Decimal = Decimal("1.00"),
    max_rounds: int = 3,
    convergence_threshold: float = 80.0,
    force_diversity: bool = False,
    no_cache: bool = False,
    context: str = "",
    case_file=None,
    launch_now: bool = True,
) -> Tournament:
    """Validate, estimate, admit, save a queued tournament and have it run after commit.

    Raises ``BudgetExceeded`` when the estimate is above the budget, before
    anything is saved or counted.
    """
    if not debates_available():
        raise ValidationError(NO_KEY_MESSAGE, code="no_api_key")
    question = (question or "").strip()
    if not question:
        raise ValidationError("A tournament needs a decision question.", code="question")
    try:
        decision = DecisionType(decision_type)
    except ValueError as exc:
        choices = ", ".join(d.value for d in DecisionType)
        raise ValidationError(
            f"Choose a decision type among: {choices}.", code="decision_type"
        ) from exc
    if not 1 <= int(max_rounds) <= 5:
        raise ValidationError("Rounds per match must be between 1 and 5.", code="rounds")
    if not 0 <= float(convergence_threshold) <= 100:
        raise ValidationError("The convergence threshold is between 0 and 100.", code="threshold")
    budget = Decimal(budget_usd)
    if budget <= 0:
        raise ValidationError("The budget must be positive.", code="budget")
    chosen = pick_models(
        models=models, tournament_size=tournament_size, force_diversity=force_diversity
    )
    ratings = dict(
        Rating.objects.filter(model__in=chosen, decision_type=decision).values_list(
            "model", "rating"
        )
    )
    seeded = seed_models(chosen, ratings)
    estimate = estimate_tournament_cost(
        models=seeded,
        max_rounds=int(max_rounds),
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
        context=context,
    )
    check_estimate(estimated=estimate, limit=budget)
    authenticated = getattr(user, "is_authenticated", False)
    with transaction.atomic():
        if authenticated:
            admit_run(user=user, action="tournament", reserve_usd=budget)
        debate = Debate.objects.create(
            format=FORMAT_NAME,
            topic=question,
            budget_usd=budget,
            creator=user if authenticated else None,
        )
        tournament = Tournament.objects.create(
            debate=debate,
            decision_type=decision.value,
            model_ids=seeded,
            tournament_size=len(seeded),
            max_rounds=int(max_rounds),
            convergence_threshold=float(convergence_threshold),
            force_diversity=force_diversity,
            no_cache=no_cache,
            context=(context or "").strip(),
            case_file=case_file,
            estimated_cost_usd=estimate,
        )
        if launch_now:
            launch(debate.pk)
    return tournament
