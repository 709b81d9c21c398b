"""A match's disputed and forfeit notices and convergence methods, in the page's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.models import Match, Tournament
from tournaments.notices import disputed_notice, failure_notice, method_name


def _match(**fields) -> Match:
    tournament = Tournament(convergence_threshold=80)
    return Match(tournament=tournament, model_a="alpha-1", model_b="beta-1", **fields)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "The models did not converge (3 rounds; final convergence 40, threshold 80). "
            "The arbiter's pick advances; the ratings count a draw.",
        ),
        (
            "es",
            "Los modelos no convergieron (3 rondas; convergencia final 40, umbral 80). "
            "Avanza el elegido por el árbitro; las puntuaciones cuentan un empate.",
        ),
    ],
)
def test_it_words_a_disputed_match_in_the_pages_language(language: str, expected: str) -> None:
    match = _match(is_disputed=True, rounds=3, convergence_scores=[{"round": 3, "score": 40}])
    with translation.override(language):
        assert disputed_notice(match) == expected


def test_it_words_a_forfeit_and_names_the_methods_in_spanish() -> None:
    match = _match(
        failure_reason="stored English",
        failure_detail={"model": "beta-1", "other": "alpha-1", "stage": "defend", "service": True},
    )
    with translation.override("es"):
        said = failure_notice(match)
        assert said.startswith("beta-1 no pudo participar en la fase de defensa")
        assert "alpha-1 avanza" in said
        assert method_name("structural") == "similitud del texto"


def test_it_falls_back_to_the_stored_sentence_for_older_rows() -> None:
    match = _match(failure_reason="beta-1 forfeits (stored)", disputed_reason="")
    assert failure_notice(match) == "beta-1 forfeits (stored)"
    assert disputed_notice(match) == ""
