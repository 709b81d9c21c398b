"""Seeding, byes, round order and family diversity for a bracket of 2-5 models."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.bracket import (
    DiversityImpossible,
    Pairing,
    bracket_order,
    check_diversity,
    first_round,
    model_family,
    next_round,
    round_count,
    seed_models,
    select_diverse,
)
from tournaments.services import DEFAULT_MODELS

RATINGS = {"e": Decimal("1100"), "a": Decimal("1400"), "b": Decimal("1350"), "c": Decimal("1300")}


def test_it_seeds_by_rating_with_newcomers_at_1200_and_ties_by_id():
    # d has no rating (1200); e is below it.
    assert seed_models(["e", "d", "c", "b", "a"], RATINGS) == ["a", "b", "c", "d", "e"]
    assert seed_models(["y", "x"], {}) == ["x", "y"]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, [Pairing("s1", "s2")]),
        (3, [Pairing("s1", None), Pairing("s2", "s3")]),
        (4, [Pairing("s1", "s4"), Pairing("s2", "s3")]),
        (
            5,
            [Pairing("s1", None), Pairing("s4", "s5"), Pairing("s2", None), Pairing("s3", None)],
        ),
    ],
)
def test_it_pairs_the_first_round_with_byes_for_the_top_seeds(n, expected):
    seeded = [f"s{i}" for i in range(1, n + 1)]
    assert first_round(seeded) == expected


@pytest.mark.parametrize(("n", "rounds"), [(2, 1), (3, 2), (4, 2), (5, 3)])
def test_it_counts_the_bracket_rounds(n, rounds):
    assert round_count(n) == rounds


def test_it_uses_the_standard_bracket_order():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_it_plays_five_models_through_to_a_final_of_the_top_seeds():
    seeded = ["s1", "s2", "s3", "s4", "s5"]
    round1 = first_round(seeded)
    # The favourites win every match: winners of round 1 in bracket order.
    winners = [p.a for p in round1]
    round2 = next_round(winners)
    assert round2 == [Pairing("s1", "s4"), Pairing("s2", "s3")]
    final = next_round([p.a for p in round2])
    assert final == [Pairing("s1", "s2")]
    assert sum(not p.is_bye for p in round1) == 1


def test_it_refuses_too_few_or_too_many_models_and_repeats():
    with pytest.raises(ValueError, match="2 to 5"):
        seed_models(["a"], {})
    with pytest.raises(ValueError, match="2 to 5"):
        seed_models(list("abcdef"), {})
    with pytest.raises(ValueError, match="only once"):
        seed_models(["a", "a"], {})
    with pytest.raises(ValueError):
        next_round(["a", "b", "c"])


@pytest.mark.parametrize(
    ("model_id", "family"),
    [
        # Anthropic: one family per tier, whatever the version or where the tier stands.
        ("claude-opus-5-5", "opus"),
        ("claude-sonnet-5-5", "sonnet"),
        ("claude-haiku-5-5", "haiku"),
        ("claude-haiku-4-5", "haiku"),
        ("Claude-Opus-4", "opus"),
        ("claude-3-5-sonnet-20241022", "sonnet"),
        ("claude-3-opus-20240229", "opus"),
        ("anthropic/claude-3-haiku-20240307", "haiku"),
        ("claude-2", "claude"),
        # Other vendors: the part before the first hyphen.
        ("gpt-4o", "gpt"),
        ("openai/gpt-4o-mini", "gpt"),
        ("gemini-2-pro", "gemini"),
        ("mistral", "mistral"),
        # Not a Claude id, so a tier word later on does not matter.
        ("notclaude-sonnet", "notclaude"),
    ],
)
def test_it_derives_the_family_from_the_model_id(model_id, family):
    assert model_family(model_id) == family


@pytest.mark.parametrize("model_id", ["", "  ", "vendor/", "---"])
def test_it_refuses_an_empty_model_id(model_id):
    with pytest.raises(ValueError, match="empty"):
        model_family(model_id)


_ID_PART = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.", min_size=1, max_size=8)
_MODEL_IDS = st.builds(
    lambda head, rest: "-".join([head, *rest]),
    st.sampled_from(["claude", "gpt", "gemini", "opus", "sonnet"]) | _ID_PART,
    st.lists(st.sampled_from(["opus", "sonnet", "haiku", "3", "5"]) | _ID_PART, max_size=4),
)


@given(model_id=_MODEL_IDS, vendor=_ID_PART)
def test_it_keeps_the_family_under_case_and_a_vendor_prefix(model_id, vendor):
    family = model_family(model_id)
    assert model_family(model_id.upper()) == family
    assert model_family(f"{vendor}/{model_id}") == family
    assert model_family(f"{vendor.upper()}/{model_id.title()}") == family


def test_the_default_models_are_three_families():
    assert [model_family(m) for m in DEFAULT_MODELS] == ["opus", "sonnet", "haiku"]
    check_diversity(DEFAULT_MODELS)
    assert select_diverse(DEFAULT_MODELS, 3) == list(DEFAULT_MODELS)


def test_it_picks_one_model_per_family_in_preference_order():
    candidates = ["claude-sonnet-5-5", "claude-sonnet-4-5", "gpt-4o", "gemini-2", "gpt-5"]
    assert select_diverse(candidates, 3) == ["claude-sonnet-5-5", "gpt-4o", "gemini-2"]


def test_it_says_plainly_when_diversity_is_impossible():
    with pytest.raises(DiversityImpossible) as caught:
        select_diverse(["claude-sonnet-5-5", "claude-3-5-sonnet-20241022", "gpt-4o"], 3)
    message = str(caught.value)
    assert "3 models from different families" in message
    assert "only 2 (gpt, sonnet)" in message
    assert "turn off the diversity option" in message


def test_it_names_the_two_models_of_one_family():
    check_diversity(["claude-sonnet-5-5", "claude-haiku-4-5", "gpt-4o"])
    with pytest.raises(DiversityImpossible, match="claude-haiku-5-5 and claude-haiku-4-5"):
        check_diversity(["claude-haiku-5-5", "gpt-4o", "claude-haiku-4-5"])


def test_it_explains_a_diversity_refusal_in_the_pages_language() -> None:
    from django.utils import translation

    from tournaments.services import ModelSelectionError, pick_models

    with translation.override("es"), pytest.raises(ModelSelectionError) as caught:
        pick_models(
            models=["claude-haiku-5-5", "claude-haiku-5-5-fast"],
            tournament_size=None,
            force_diversity=True,
        )
    assert caught.value.messages == [
        "claude-haiku-5-5 y claude-haiku-5-5-fast son ambos modelos haiku, y este torneo pide modelos "
        "de familias distintas. Elige uno de ellos o desactiva la opción de diversidad."
    ]
