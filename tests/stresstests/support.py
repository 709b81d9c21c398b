from __future__ import annotations

from config.background import wait_for_background
from stresstests.models import StressTest


def settle(stress: StressTest) -> StressTest:
    """Wait for the background run (a thread without a broker), then reload."""
    assert wait_for_background(timeout=20)
    stress.refresh_from_db()
    stress.debate.refresh_from_db()
    return stress
