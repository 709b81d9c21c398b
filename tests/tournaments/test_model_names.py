"""tournaments.model_names: the readable names of model ids, known answers."""

from __future__ import annotations

import pytest

from tournaments.model_names import model_display_name


@pytest.mark.parametrize(
    ("model_id", "name"),
    [
        ("claude-opus-5-5", "Claude Opus 5.5"),
        ("claude-haiku-5-5", "Claude Haiku 5.5"),
        ("claude-sonnet-4-5-20250929", "Claude Sonnet 4.5"),
        ("claude-3-5-haiku-20241022", "Claude Haiku 3.5"),
        ("claude-opus-4-20250514", "Claude Opus 4"),
        ("claude-3-opus-20240229", "Claude Opus 3"),
    ],
)
def test_it_names_a_model_as_its_makers_pages_do(model_id: str, name: str) -> None:
    assert model_display_name(model_id) == name


@pytest.mark.parametrize(
    "model_id", ["alpha-1", "claude-instant-1", "claude-5-opus-sonnet", "claude-opus-x", "gpt-5"]
)
def test_it_keeps_an_id_it_does_not_know_as_its_name(model_id: str) -> None:
    assert model_display_name(model_id) == model_id
