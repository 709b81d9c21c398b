"""The demo inquiry for newcomers without an API key: scripted words, the real pipeline.

It runs the inquiry format on the shared engine in this process against a
scripted model (inquiries/demo_script.py: words written for the demo, read
off the real prompts) served over loopback by the demo's own endpoint
(inquiries/demo_server.py), so the registry, the Sanad grades, the gates (one
agent states a free fact and is sent back), the stop check, the audit chain
and the final output are all computed by the product's own code. Only the
agents' words are scripted. Idempotent: an existing demo inquiry is left as it is.

Why it runs here rather than loading a recorded fixture, as the demo debate and
tournament do: an inquiry's claims, calculations and retrieved evidence name
the case file's spans and sources by their database ids (``S3.1``,
``SRC-3``), and the audit chain hashes states that hold those ids. The demo
case file gets whatever ids this site gives it, so a recording made elsewhere
would cite spans that are not there, or need its ids rewritten under hashes
no state of this site ever had. Run here, every id and hash is this site's.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from decimal import Decimal

from django.contrib.auth import get_user_model

from casefiles.demo import load_demo_case_file
from engine.models import Debate
from inquiries.demo_script import DemoInquiryScript
from inquiries.demo_server import ScriptedModelServer

__all__ = ["DEMO_QUESTION", "QUIET_LOGGERS", "load_demo_inquiry"]

DEMO_QUESTION = "Should our city adopt congestion pricing?"


# The HTTP client's and the SDK's loggers: each loopback call to the scripted model
# would print "HTTP Request: POST http://127.0.0.1:…/v1/messages", alarming on a site
# that says it has no AI service.
QUIET_LOGGERS = ("httpx", "httpx2", "httpcore", "anthropic")


@contextmanager
def _quiet_model_calls():
    loggers = [logging.getLogger(name) for name in QUIET_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def _scripted_model():
    server = ScriptedModelServer(DemoInquiryScript()).start()
    saved = {k: os.environ.get(k) for k in ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")}
    os.environ["ANTHROPIC_BASE_URL"] = server.base_url
    os.environ["ANTHROPIC_API_KEY"] = "sk-ant-demo-scripted"
    try:
        with _quiet_model_calls():
            yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.stop()


def load_demo_inquiry() -> Debate:
    existing = Debate.objects.filter(format="inquiry", is_demo=True).first()
    if existing is not None:
        return existing
    import inquiries.services as services
    from engine.orchestrator import run_debate

    owner, _ = get_user_model().objects.get_or_create(
        username="demo-inquiries", defaults={"is_active": False}
    )
    case_file = load_demo_case_file(owner=owner)
    launch = services.launch
    services.launch = lambda debate_id: None  # run here, now, not in a worker
    try:
        with _scripted_model():
            debate = services.create_inquiry(
                user=owner,
                question=DEMO_QUESTION,
                case_file_id=case_file.pk,
                max_rounds=3,
                budget_usd=Decimal("1"),
            )
            run_debate(debate_id=debate.pk)
    finally:
        services.launch = launch
    Debate.objects.filter(pk=debate.pk).update(is_demo=True)
    debate.refresh_from_db()
    return debate
