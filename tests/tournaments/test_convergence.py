"""The convergence cascade, its thresholds, the summary wording and the composite score."""

import pytest

from tournaments.convergence import (
    ConvergenceResult,
    Method,
    SemanticUnavailable,
    composite_score,
    measure_convergence,
    semantic_result,
    structural_result,
)

POSTGRES = "Use PostgreSQL with read replicas and connection pooling."
MONGO = "Use MongoDB, sharded by course, with a cache in front."


class Calls:
    """Records which later methods the cascade called, so a skip is observable."""

    def __init__(self, cosine=None, arbiter_score=55.0, semantic_error=None):
        self.cosine = cosine
        self.arbiter_score = arbiter_score
        self.semantic_error = semantic_error
        self.semantic_calls = []
        self.arbiter_calls = []

    def semantic(self, a, b):
        self.semantic_calls.append((a, b))
        if self.semantic_error:
            raise self.semantic_error
        return self.cosine

    def arbiter(self, a, b):
        self.arbiter_calls.append((a, b))
        return ConvergenceResult(
            score=self.arbiter_score,
            method=Method.ARBITER,
            core_recommendation_alignment=40,
            reasoning_alignment=60,
            trade_off_alignment=50,
            implementation_alignment=70,
            key_disagreements=("the database engine",),
        )


def test_it_scores_identical_wording_100_whatever_the_case_and_punctuation():
    assert structural_result(POSTGRES, POSTGRES.upper().rstrip(".") + "!").score == 100


def test_it_scores_different_recommendations_low_structurally():
    assert structural_result(POSTGRES, MONGO).score < 60


def test_it_does_not_treat_a_contained_recommendation_as_identical():
    assert structural_result("Use PostgreSQL.", POSTGRES).score < 95


def test_it_settles_at_95_structural_and_skips_the_rest():
    calls = Calls(cosine=0.99)
    cascade = measure_convergence(
        POSTGRES, POSTGRES.lower(), semantic=calls.semantic, arbiter=calls.arbiter
    )
    assert cascade.result.method is Method.STRUCTURAL
    assert cascade.result.score >= 95
    assert cascade.methods_run == (Method.STRUCTURAL,)
    assert calls.semantic_calls == [] and calls.arbiter_calls == []
    assert not cascade.semantic_skipped


def test_it_settles_at_90_semantic_without_asking_the_arbiter():
    calls = Calls(cosine=0.90)
    cascade = measure_convergence(POSTGRES, MONGO, semantic=calls.semantic, arbiter=calls.arbiter)
    assert cascade.result.method is Method.SEMANTIC
    assert cascade.result.score == 90
    assert cascade.methods_run == (Method.STRUCTURAL, Method.SEMANTIC)
    assert calls.semantic_calls == [(POSTGRES, MONGO)]
    assert calls.arbiter_calls == []
    assert [r.method for r in cascade.earlier] == [Method.STRUCTURAL]


def test_it_asks_the_arbiter_when_semantic_is_just_below_90():
    calls = Calls(cosine=0.8999)
    cascade = measure_convergence(POSTGRES, MONGO, semantic=calls.semantic, arbiter=calls.arbiter)
    assert cascade.result.method is Method.ARBITER
    assert cascade.result.score == 55
    assert cascade.result.key_disagreements == ("the database engine",)
    assert cascade.methods_run == (Method.STRUCTURAL, Method.SEMANTIC, Method.ARBITER)
    assert [r.method for r in cascade.earlier] == [Method.STRUCTURAL, Method.SEMANTIC]
    assert not cascade.semantic_skipped


def test_it_reports_semantic_skipped_when_no_embedding_model_is_installed():
    calls = Calls()
    cascade = measure_convergence(POSTGRES, MONGO, semantic=None, arbiter=calls.arbiter)
    assert cascade.result.method is Method.ARBITER
    assert cascade.methods_run == (Method.STRUCTURAL, Method.ARBITER)
    assert cascade.semantic_skipped
    assert cascade.semantic_skipped_reason == (
        "Semantic convergence was skipped: no embedding model is installed."
    )


def test_it_reports_semantic_skipped_when_the_embedding_model_fails_to_load():
    calls = Calls(semantic_error=SemanticUnavailable("the embedding model could not be loaded."))
    cascade = measure_convergence(POSTGRES, MONGO, semantic=calls.semantic, arbiter=calls.arbiter)
    assert cascade.methods_run == (Method.STRUCTURAL, Method.ARBITER)
    assert "could not be loaded" in cascade.semantic_skipped_reason
    assert len(calls.arbiter_calls) == 1


def test_it_lets_other_semantic_errors_through():
    calls = Calls(semantic_error=RuntimeError("bug"))
    with pytest.raises(RuntimeError):
        measure_convergence(POSTGRES, MONGO, semantic=calls.semantic, arbiter=calls.arbiter)


def test_it_refuses_an_arbiter_that_returns_another_method():
    def arbiter(a, b):
        return ConvergenceResult(score=50, method=Method.SEMANTIC)

    with pytest.raises(ValueError):
        measure_convergence(POSTGRES, MONGO, semantic=None, arbiter=arbiter)


def test_it_reads_a_cosine_as_a_score_and_floors_negative_ones():
    assert semantic_result(0.93).score == 93
    assert semantic_result(-0.4).score == 0
    assert semantic_result(1.00000001).score == 100
    with pytest.raises(ValueError):
        semantic_result(1.5)


@pytest.mark.parametrize(("score", "converged"), [(80, True), (79.99, False), (100, True)])
def test_it_converges_at_the_default_threshold_of_80(score, converged):
    assert ConvergenceResult(score=score, method="arbiter").is_converged() is converged


def test_it_takes_another_threshold():
    result = ConvergenceResult(score=85, method="arbiter")
    assert result.is_converged(threshold=85)
    assert not result.is_converged(threshold=90)


def test_it_refuses_scores_outside_0_to_100():
    with pytest.raises(ValueError):
        ConvergenceResult(score=101, method="structural")
    with pytest.raises(ValueError):
        ConvergenceResult(score=50, method="arbiter", reasoning_alignment=-1)


@pytest.mark.parametrize(
    ("score", "summary"),
    [
        (90.01, "The models strongly agree."),
        (90, "The models mostly agree, but differ on: caching; cost."),
        (70.01, "The models mostly agree, but differ on: caching; cost."),
        (70, "The models have a fundamental disagreement on: caching; cost."),
        (0, "The models have a fundamental disagreement on: caching; cost."),
    ],
)
def test_it_summarises_with_the_design_boundaries(score, summary):
    result = ConvergenceResult(score=score, method="arbiter", key_disagreements=["caching", "cost"])
    assert result.get_disagreement_summary() == summary


def test_it_says_so_when_no_disagreement_was_named():
    result = ConvergenceResult(score=75, method="semantic")
    assert result.get_disagreement_summary() == (
        "The models mostly agree, but differ on: details not named."
    )


def test_it_weights_the_composite_score_04_03_03():
    assert composite_score(initial=100, challenge=0, defence=0) == 40
    assert composite_score(initial=0, challenge=100, defence=0) == 30
    assert composite_score(initial=0, challenge=0, defence=100) == 30
    # 0.4 * 80 + 0.3 * 60 + 0.3 * 50 = 32 + 18 + 15
    assert composite_score(initial=80, challenge=60, defence=50) == 65
    with pytest.raises(ValueError):
        composite_score(initial=120, challenge=0, defence=0)
