"""The demo inquiry reads like real work: each agent makes its own point and cites it,
and loading it prints no model-call log line."""

from __future__ import annotations

import logging

import pytest
from django.core.management import call_command

from engine.models import Debate
from inquiries.models import AgentOutput, Calc, RegisteredClaim

pytestmark = pytest.mark.django_db


def test_it_loads_without_printing_a_model_call(no_anthropic_key, caplog, capsys) -> None:
    with caplog.at_level(logging.DEBUG):
        call_command("load_demo_inquiry")

    printed = capsys.readouterr()
    logged = [r.getMessage() for r in caplog.records if r.name.startswith(("httpx", "anthropic"))]
    assert logged == []
    assert "HTTP Request" not in printed.out + printed.err
    # The loggers are as they were once the demo is loaded.
    assert logging.getLogger("httpx2").level == logging.NOTSET


def test_it_says_something_different_each_time_and_cites_it(no_anthropic_key) -> None:
    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    said = list(
        AgentOutput.objects.filter(inquiry_id=demo.pk, accepted=True).exclude(agent="arbiter")
    )

    contents = [o.content for o in said]
    assert len(said) >= 10 and len(set(contents)) >= len(contents) - 2
    assert all("[C-" in c or "[K-" in c for c in contents)
    assert not any("my position holds" in c or "supports the thesis" in c for c in contents)
    claims = RegisteredClaim.objects.filter(inquiry_id=demo.pk)
    assert not any(c.text.startswith("The passage") for c in claims)
    # Two newspapers report the institute's figure: one line of evidence, graded C.
    assert claims.get(text__contains="fell by 22%").grade == "C"
    assert Calc.objects.get(inquiry_id=demo.pk).result == "13"
