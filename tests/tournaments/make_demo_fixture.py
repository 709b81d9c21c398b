"""Record the demo tournament that ships in tournaments/fixtures/demo_tournament.json.

The words are scripted (``DemoTournamentModel``, tests/fakes/tournament_demo_script.py:
each model recommends its own database with a plan a team would recognise,
challenges with three real weaknesses and their evidence, answers them, and
from round 2 adopts the common answer, except one stubborn model); everything else is the real
thing: the shared engine runs the tournament through the real SDK against
the fake Anthropic server, and the bracket, the convergence cascade, the
verdicts and the Elo ratings are computed by the pipeline. Re-record it after
a change to the stored shape:

    SECRET_KEY=dev .venv/bin/python -m tests.tournaments.make_demo_fixture

It works in a throw-away SQLite database and never touches the project's.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.fakes.tournament_demo_script import DemoTournamentModel

QUESTION = "Which database for a 10,000-student course platform?"
MODELS = ["scripted-atlas", "scripted-birch", "scripted-cedar", "scripted-dune"]
PRICE = {"input": Decimal("3"), "output": Decimal("15")}
OUTPUT = Path(__file__).resolve().parents[2] / "tournaments" / "fixtures" / "demo_tournament.json"


def record() -> dict[str, Any]:
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from engine.models import Debate
    from engine.orchestrator import run_debate
    from tests.fakes.anthropic_server import FakeAnthropicServer
    from tournaments.demo import tournament_json
    from tournaments.services import create_tournament

    settings.LLM_PRICES = {**settings.LLM_PRICES, **{m: PRICE for m in MODELS}}
    settings.TOURNAMENT_SEMANTIC = ""  # the recording must not depend on the optional model
    server = FakeAnthropicServer().start()
    server.responder = DemoTournamentModel(
        converge_at=2,
        stubborn={"scripted-dune"},
        strength={"scripted-cedar": 85, "scripted-atlas": 75, "scripted-birch": 62},
    )
    os.environ["ANTHROPIC_BASE_URL"] = server.base_url
    os.environ["ANTHROPIC_API_KEY"] = "sk-ant-demo-recording"
    try:
        tournament = create_tournament(
            user=None,
            question=QUESTION,
            decision_type="database",
            models=MODELS,
            budget_usd=Decimal("5"),
            max_rounds=3,
            launch_now=False,
        )
        run_debate(debate_id=tournament.debate_id)
        return tournament_json(Debate.objects.get(pk=tournament.debate_id))
    finally:
        server.stop()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SQLITE_PATH"] = str(Path(folder) / "demo.sqlite3")
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        data = record()
    OUTPUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}: {data['debate']['status']}, {len(data['matches'])} matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
