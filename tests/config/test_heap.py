"""What a server process loads at start-up is frozen out of the collector's way (config/heap.py)."""

from __future__ import annotations

import gc
import importlib
import sys

from celery.signals import worker_process_init, worker_ready

from config import heap


def test_it_freezes_the_view_modules_with_the_rest_of_start_up() -> None:
    # Counted when frozen (a frozen object freed since, by its reference count, is no
    # longer counted: the two need not be equal).
    assert heap.settle() > 0
    assert gc.get_freeze_count() > 0
    assert "coach.api" in sys.modules  # imported by the URLconf before the freeze


def test_it_is_done_by_the_asgi_entry_point() -> None:
    import config.asgi

    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    importlib.reload(config.asgi)  # start-up again: settle() runs at its end
    assert gc.get_freeze_count() > 0


def test_it_is_done_by_every_kind_of_celery_worker() -> None:
    from config import celery

    for signal in (worker_process_init, worker_ready):
        assert any(receiver() is celery._settle_heap for _, receiver in signal.receivers), (
            signal.name
        )
