"""How far two models' current recommendations agree, measured cheapest first.

Three methods, tried in order, each stopping the cascade when it is sure:

1. **structural**: text similarity of the two recommendations with
   rapidfuzz's ``token_sort_ratio`` after its default processing
   (lowercase, punctuation dropped), so word order, case and punctuation do
   not count but every word does. (``token_set_ratio`` was rejected: it
   scores 100 when one text merely contains the other, so "PostgreSQL" and
   "PostgreSQL, sharded by course" would settle as identical.) At or above
   ``STRUCTURAL_SETTLES`` (95) its score is the result.
2. **semantic**: cosine similarity of sentence embeddings, a callable
   plugged in by the app (the model is optional). Its cosine (-1 to 1) is
   read as a score of ``100 * max(0, cosine)``. At or above
   ``SEMANTIC_SETTLES`` (90) that score is the result. When the callable is
   missing, or raises ``SemanticUnavailable``, the cascade goes on to the
   arbiter and reports that semantic convergence was skipped and why.
3. **arbiter**: a model judges four alignments and lists the key
   disagreements; its ``ConvergenceResult`` is the result.

Also here: ``composite_score``, the arbiter's weighting of a match
(initial response 0.4, challenge quality 0.3, defence adaptation 0.3).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from rapidfuzz import fuzz, utils

__all__ = [
    "DEFAULT_THRESHOLD",
    "SEMANTIC_SETTLES",
    "STRUCTURAL_SETTLES",
    "CascadeResult",
    "ConvergenceResult",
    "Method",
    "SemanticUnavailable",
    "composite_score",
    "measure_convergence",
    "semantic_result",
    "structural_result",
]

DEFAULT_THRESHOLD = 80.0
STRUCTURAL_SETTLES = 95.0
SEMANTIC_SETTLES = 90.0
STRONG_AGREEMENT = 90.0
MOSTLY_AGREE = 70.0

COMPOSITE_WEIGHTS = {"initial": 0.4, "challenge": 0.3, "defence": 0.3}


class Method(enum.StrEnum):
    STRUCTURAL = "structural"
    SEMANTIC = "semantic"
    ARBITER = "arbiter"


class SemanticUnavailable(Exception):
    """The embedding model cannot be used here (not installed, failed to load)."""


def _check_score(name: str, value: float | None) -> None:
    if value is not None and not 0 <= value <= 100:
        raise ValueError(f"{name} must be between 0 and 100, not {value}.")


@dataclass(frozen=True)
class ConvergenceResult:
    """How far two recommendations agree, 0-100, and by which method.

    The four alignment sub-scores (0-100) are there only when the arbiter
    judged.
    """

    score: float
    method: Method
    core_recommendation_alignment: float | None = None
    reasoning_alignment: float | None = None
    trade_off_alignment: float | None = None
    implementation_alignment: float | None = None
    key_disagreements: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_score("A convergence score", self.score)
        for name in (
            "core_recommendation_alignment",
            "reasoning_alignment",
            "trade_off_alignment",
            "implementation_alignment",
        ):
            _check_score(name, getattr(self, name))
        object.__setattr__(self, "method", Method(self.method))
        object.__setattr__(self, "key_disagreements", tuple(self.key_disagreements))

    def is_converged(self, threshold: float = DEFAULT_THRESHOLD) -> bool:
        """Whether the two agree at least ``threshold`` (inclusive)."""
        return self.score >= threshold

    def get_disagreement_summary(self) -> str:
        """One sentence for people: above 90 strong agreement, above 70 mostly, else not.

        The boundaries are strict as the design states them: exactly 90 is
        "mostly agree", exactly 70 is "fundamental disagreement".
        """
        points = "; ".join(self.key_disagreements) or "details not named"
        if self.score > STRONG_AGREEMENT:
            return "The models strongly agree."
        if self.score > MOSTLY_AGREE:
            return f"The models mostly agree, but differ on: {points}."
        return f"The models have a fundamental disagreement on: {points}."


def structural_result(recommendation_a: str, recommendation_b: str) -> ConvergenceResult:
    """Text similarity of the two recommendations (see the module docstring)."""
    score = fuzz.token_sort_ratio(
        recommendation_a, recommendation_b, processor=utils.default_process
    )
    return ConvergenceResult(score=round(score, 2), method=Method.STRUCTURAL)


def semantic_result(cosine: float) -> ConvergenceResult:
    """A semantic result from an embedding cosine similarity (-1 to 1)."""
    if not -1.0001 <= cosine <= 1.0001:  # float noise can put a cosine a hair past 1
        raise ValueError(f"A cosine similarity is between -1 and 1, not {cosine}.")
    score = round(100 * min(1.0, max(0.0, cosine)), 2)
    return ConvergenceResult(score=score, method=Method.SEMANTIC)


@dataclass(frozen=True)
class CascadeResult:
    """The settled result, the methods actually run, and why semantic was skipped, if it was."""

    result: ConvergenceResult
    methods_run: tuple[Method, ...]
    semantic_skipped_reason: str | None = None
    earlier: tuple[ConvergenceResult, ...] = field(default=())

    @property
    def semantic_skipped(self) -> bool:
        return self.semantic_skipped_reason is not None


SemanticFn = Callable[[str, str], float]
ArbiterFn = Callable[[str, str], ConvergenceResult]


def measure_convergence(
    recommendation_a: str,
    recommendation_b: str,
    *,
    semantic: SemanticFn | None,
    arbiter: ArbiterFn,
) -> CascadeResult:
    """Run structural, then semantic, then the arbiter, stopping at the first that settles.

    ``semantic(a, b)`` returns the cosine similarity of the two texts'
    embeddings; pass None when no embedding model is installed.
    ``arbiter(a, b)`` returns the arbiter's ``ConvergenceResult`` and is
    only called when neither cheaper method settled.
    """
    structural = structural_result(recommendation_a, recommendation_b)
    if structural.score >= STRUCTURAL_SETTLES:
        return CascadeResult(result=structural, methods_run=(Method.STRUCTURAL,))

    earlier = [structural]
    methods = [Method.STRUCTURAL]
    skipped: str | None = None
    if semantic is None:
        skipped = "Semantic convergence was skipped: no embedding model is installed."
    else:
        try:
            cosine = semantic(recommendation_a, recommendation_b)
        except SemanticUnavailable as exc:
            skipped = f"Semantic convergence was skipped: {exc}"
        else:
            result = semantic_result(cosine)
            methods.append(Method.SEMANTIC)
            if result.score >= SEMANTIC_SETTLES:
                return CascadeResult(
                    result=result, methods_run=tuple(methods), earlier=tuple(earlier)
                )
            earlier.append(result)

    judged = arbiter(recommendation_a, recommendation_b)
    if judged.method is not Method.ARBITER:
        raise ValueError("The arbiter callable must return an arbiter result.")
    methods.append(Method.ARBITER)
    return CascadeResult(
        result=judged,
        methods_run=tuple(methods),
        semantic_skipped_reason=skipped,
        earlier=tuple(earlier),
    )


def composite_score(*, initial: float, challenge: float, defence: float) -> float:
    """The arbiter's score for one side of a match, 0-100.

    Initial response quality 0.4, challenge quality 0.3, defence adaptation
    0.3; each part is scored 0-100 by the arbiter.
    """
    parts = {"initial": initial, "challenge": challenge, "defence": defence}
    for name, value in parts.items():
        _check_score(f"The {name} score", value)
    return round(sum(COMPOSITE_WEIGHTS[name] * value for name, value in parts.items()), 2)
