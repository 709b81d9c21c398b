"""``manage.py tournament``: end to end through the real SDK and the fake server; bad options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from coach.exports import escape_markdown
from tests.fakes.tournament_model import CONSENSUS
from tests.schemas import schema_errors
from tests.tournaments.conftest import MODELS
from tournaments.models import Match, Rating, Tournament, Turn
from tournaments.services import DEFAULT_MODELS

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Which database for a 10,000-student course platform?"


def _cli(*args: str) -> tuple[dict, str]:
    out, err = StringIO(), StringIO()
    call_command("tournament", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_it_runs_a_tournament_and_exports_json(fake_model) -> None:
    fake_model.strength = {"gamma-1": 90}

    out, err = _cli(
        "--decision-type",
        "database",
        "--context",
        QUESTION,
        "--models",
        *MODELS,
        "--budget",
        "5",
        "--export-format",
        "json",
        "--show-selection",
        "--show-debate",
    )

    data = json.loads(out)
    assert data["question"] == QUESTION
    assert data["decisionType"] == "database"
    assert sorted(data["models"]) == sorted(MODELS)
    assert data["status"] == "done"
    result = data["result"]
    assert result["finalWinner"] == "gamma-1"
    assert result["finalRecommendation"] == CONSENSUS
    assert result["complete"] is True
    assert len(result["matches"]) == 3 == Match.objects.count()
    assert all(m["convergence"] == [100.0] for m in result["matches"])
    assert Rating.objects.filter(decision_type="database").count() == 4
    # The page's download, word for word: format, version, budget, the ratings it moved.
    assert schema_errors(data, "argue-tournament.v1") == []
    assert (data["format"], data["version"], data["budgetUsd"]) == ("argue-tournament", 1, "5.0000")
    assert {r["model"] for r in data["ratings"]} == set(MODELS)
    assert all(r["before"] == "1200.00" for r in data["ratings"])
    # Progress lines, the selection and the transcript go to stderr, not into the JSON.
    assert "Models in seed order:" in err
    assert "match_started" not in err and "started" in err
    assert "convergence 100" in err
    assert "(challenge): weaknesses:" in err


@pytest.mark.django_db(transaction=True)
def test_it_prints_a_markdown_report(fake_model) -> None:
    out, _ = _cli(
        "--decision-type", "database", "--context", QUESTION, "--models", *MODELS[:2],
        "--budget", "5", "--export-format", "markdown", "--no-cache",
    )  # fmt: skip

    # The question and the models' words are Markdown text (test_report_markdown.py).
    assert out.startswith(f"# Tournament: {escape_markdown(QUESTION)}\n")
    assert "## Recommendation" in out and escape_markdown(CONSENSUS) in out


@pytest.mark.django_db
def test_it_refuses_a_budget_below_the_estimate_with_status_2(tournament_prices, fake_anthropic):
    with pytest.raises(CommandError) as caught:
        _cli("--decision-type", "database", "--context", QUESTION, "--budget", "0.0001")

    assert caught.value.returncode == 2
    assert "over its budget" in str(caught.value)


# The command line as a user runs it (``manage.py tournament ...``), every case in ONE
# interpreter: starting Django once rather than once a case (each start costs seconds
# under load). Each case goes through execute_from_command_line, as manage.py does,
# with its own stdout, stderr and exit status.
_BATCH = r"""
import contextlib, io, json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.management import execute_from_command_line
results = []
for args in json.loads(sys.argv[1]):
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            execute_from_command_line(["manage.py", "tournament", *args])
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
    results.append([code, out.getvalue(), err.getvalue()])
sys.__stdout__.write(json.dumps(results))
"""

BAD_OPTIONS = [
    ["--context", "q"],  # no decision type
    ["--decision-type", "weather", "--context", "q"],
    ["--decision-type", "database", "--context", "q", "--max-rounds", "x"],
    ["--decision-type", "database", "--context", "q", "--budget", "-1"],
    ["--decision-type", "database", "--context", "q", "--convergence-threshold", "120"],
    ["--decision-type", "database", "--context", "q", "--export-format", "pdf"],
]


@pytest.fixture(scope="module")
def command_line() -> dict[tuple[str, ...], subprocess.CompletedProcess]:
    """What the command line answered to each case of this file, by its arguments."""
    cases = [*BAD_OPTIONS, ["--help"]]
    done = subprocess.run(
        [sys.executable, "-c", _BATCH, json.dumps(cases)],
        cwd=ROOT,
        env={**os.environ, "SECRET_KEY": "x"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        tuple(args): subprocess.CompletedProcess(args, code, out, err)
        for args, (code, out, err) in zip(cases, json.loads(done.stdout), strict=True)
    }


@pytest.mark.parametrize("args", BAD_OPTIONS)
def test_it_exits_2_with_one_line_for_bad_options(args, command_line) -> None:
    done = command_line[tuple(args)]

    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_it_explains_each_option_in_help(command_line) -> None:
    done = command_line[("--help",)]

    assert done.returncode == 0
    for option in (
        "--decision-type", "--context", "--models", "--tournament-size", "--budget",
        "--max-rounds", "--convergence-threshold", "--force-diversity", "--show-debate",
        "--show-selection", "--export-format", "--no-cache",
    ):  # fmt: skip
        assert option in done.stdout
    assert "The most the tournament may spend" in done.stdout


@pytest.mark.django_db(transaction=True)
def test_it_exits_1_in_plain_words_when_the_tournament_fails(fake_model) -> None:
    fake_model.failing = set(MODELS[:2])

    with pytest.raises(CommandError) as caught:
        _cli("--decision-type", "database", "--context", QUESTION, "--models", *MODELS[:2])

    assert caught.value.returncode == 1
    assert "The AI service was unavailable" in str(caught.value)
    assert "529" not in str(caught.value)


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_configured_models_with_force_diversity(fake_model, settings) -> None:
    del settings.TOURNAMENT_MODELS  # the product's own default: Opus, Sonnet and Haiku

    out, _ = _cli(
        "--decision-type", "database", "--context", QUESTION, "--force-diversity",
        "--budget", "5", "--export-format", "json",
    )  # fmt: skip

    data = json.loads(out)
    assert sorted(data["models"]) == sorted(DEFAULT_MODELS)
    assert data["status"] == "done" and data["result"]["complete"] is True


@pytest.mark.django_db
def test_it_refuses_an_unknown_model_with_status_2(tournament_prices, fake_anthropic) -> None:
    with pytest.raises(CommandError) as caught:
        _cli("--decision-type", "database", "--context", QUESTION, "--models", "alpha-1", "alpah-2")

    assert caught.value.returncode == 2
    assert str(caught.value).startswith("Unknown model: alpah-2. The models known here are: ")
    assert "alpha-1" in str(caught.value) and "\n" not in str(caught.value)
    assert not Match.objects.exists()


def test_it_says_the_default_tournament_size_in_help(command_line) -> None:
    done = command_line[("--help",)]

    # The configured models are Opus, Sonnet and Haiku: three, so the default is 3.
    assert "default 4, or the number of configured models if fewer: 3 here" in " ".join(
        done.stdout.split()
    )
    assert "--case-file" in done.stdout


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_configured_models_without_a_size(fake_model, settings) -> None:
    del settings.TOURNAMENT_MODELS

    out, _ = _cli(
        "--decision-type", "database", "--context", QUESTION, "--max-rounds", "1",
        "--budget", "5", "--export-format", "json",
    )  # fmt: skip

    assert sorted(json.loads(out)["models"]) == sorted(DEFAULT_MODELS)


WITH_FACTS = (
    "Which database for a 10,000-student course platform? Read replicas absorb the "
    "read-heavy course pages. A connection pooler keeps exam week within its connections."
)


@pytest.mark.django_db(transaction=True)
def test_research_searches_the_context_text_without_a_case_file(fake_model, fake_anthropic):
    fake_model.research = True

    _cli("--decision-type", "database", "--context", WITH_FACTS, "--models", *MODELS[:2])

    tournament = Tournament.objects.get()
    assert tournament.context == WITH_FACTS and tournament.case_file is None
    turn = Turn.objects.get(match__tournament=tournament, kind="challenge", model="alpha-1")
    [record] = turn.tool_calls
    assert any("Read replicas" in r["text"] for r in record["results"])
    # The question is not repeated as its own context in the prompts.
    sent = [str(r.body) for r in fake_anthropic.requests]
    assert sent and not any("Context: " in body for body in sent)


@pytest.mark.django_db(transaction=True)
def test_research_searches_the_case_file_given(fake_model, scaling_notes) -> None:
    fake_model.research = True

    _cli(
        "--decision-type", "database", "--context", QUESTION, "--models", *MODELS[:2],
        "--case-file", str(scaling_notes.pk),
    )  # fmt: skip

    tournament = Tournament.objects.get()
    assert tournament.case_file == scaling_notes and tournament.context == ""
    turn = Turn.objects.get(match__tournament=tournament, kind="defence", model="beta-1")
    assert turn.tool_calls[0]["results"][0]["source"] == "Ops review"


@pytest.mark.django_db
@pytest.mark.parametrize("case_file", ["999", "0", "x"])
def test_it_refuses_an_unknown_case_file_with_status_2(
    tournament_prices, fake_anthropic, case_file
) -> None:
    with pytest.raises(CommandError) as caught:
        _cli("--decision-type", "database", "--context", QUESTION, "--case-file", case_file)

    assert caught.value.returncode == 2
    assert "case file" in str(caught.value) and "\n" not in str(caught.value)
    assert not Tournament.objects.exists()
