"""A process's main-thread call runner closes its model client as the process ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.anthropic_server import Reply

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

# What a Celery worker or a command does (calls in its main thread) and what the
# background pool does (calls in a daemon thread that lives on), then the process ends.
SCRIPT = """
import threading
import django
django.setup()
from engine.calls import thread_runner

def call():
    runner = thread_runner(timeout=5, max_retries=0)
    loop = runner._ensure_client()
    loop.run_until_complete(
        runner._client.post("/v1/messages", body={"model": "m", "max_tokens": 1,
        "messages": [{"role": "user", "content": "hi"}]}, cast_to=object)
    )
    print("answered")

call()
done = threading.Event()
threading.Thread(target=lambda: (call(), done.set(), threading.Event().wait()), daemon=True).start()
done.wait(30)
"""


def test_it_leaves_no_unclosed_session_at_exit(fake_anthropic) -> None:
    fake_anthropic.enqueue(Reply.json({"ok": True}), Reply.json({"ok": True}))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "insecure-test-only-key",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("answered") == 2
    assert "Unclosed" not in done.stderr, done.stderr[-2000:]
