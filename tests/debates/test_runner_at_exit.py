"""A call runner's model client is closed when its thread ends, or at the latest as the process ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.anthropic_server import Reply

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

CALL = """
import gc
import threading
import aiohttp
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

def open_sessions():
    return sum(isinstance(o, aiohttp.ClientSession) and not o.closed for o in gc.get_objects())
"""

# What a Celery worker or a command does (calls in its main thread) and what the
# background pool does (calls in a daemon thread that lives on), then the process ends.
AT_EXIT = (
    CALL
    + """
call()
done = threading.Event()
threading.Thread(target=lambda: (call(), done.set(), threading.Event().wait()), daemon=True).start()
done.wait(30)
"""
)

# A thread that calls and ends without close_thread_runner() (the tests' helper
# threads that run a debate did), then the garbage collection pytest runs as it ends.
THREAD_ENDS = (
    CALL
    + """
worker = threading.Thread(target=call)
worker.start()
worker.join()
gc.collect()
thread_runner(timeout=5, max_retries=0)  # the next runner handed out, in any thread
print("open sessions:", open_sessions())
"""
)


def run(script: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "insecure-test-only-key",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_leaves_no_unclosed_session_at_exit(fake_anthropic) -> None:
    fake_anthropic.enqueue(Reply.json({"ok": True}), Reply.json({"ok": True}))
    done = run(AT_EXIT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("answered") == 2
    assert "Unclosed" not in done.stderr, done.stderr[-2000:]


def test_it_closes_the_client_of_a_thread_that_ended_without_closing_its_runner(
    fake_anthropic,
) -> None:
    fake_anthropic.enqueue(Reply.json({"ok": True}))
    done = run(THREAD_ENDS)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "answered" in done.stdout
    # Closed when the next runner was handed out, not left open until the process ends.
    assert "open sessions: 0" in done.stdout, done.stdout
    assert "Unclosed" not in done.stderr, done.stderr[-2000:]
