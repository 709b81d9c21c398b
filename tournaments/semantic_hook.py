"""Where the tournament finds its semantic convergence method.

The embedding model is optional. A module ``tournaments.semantic`` that
defines ``cosine(text_a, text_b) -> float`` (raising
``tournaments.convergence.SemanticUnavailable`` when its model cannot be
loaded) plugs it in; without that module the convergence cascade skips the
semantic step and says so. ``settings.TOURNAMENT_SEMANTIC`` (a dotted path,
optional) names another function; an empty string turns the method off.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

__all__ = ["DEFAULT_PATH", "semantic_function"]

DEFAULT_PATH = "tournaments.semantic.cosine"


def semantic_function() -> Callable[[str, str], float] | None:
    path = getattr(settings, "TOURNAMENT_SEMANTIC", DEFAULT_PATH)
    if not path:
        return None
    try:
        return import_string(path)
    except ImportError:
        return None
