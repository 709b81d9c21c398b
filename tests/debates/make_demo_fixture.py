"""Record the demo debate that ships in debates/fixtures/demo_debate.json.

The words are scripted (``DemoModel`` below: hand-written arguments and
attacks on one topic); everything else is the real thing: the orchestrator
runs the debate through the real SDK against the fake Anthropic server, the
semantics, the stop check and the output are computed by the pipeline, and
the file is the debate's own JSON export (debates/exports.py). Re-record it
after a change to the pipeline's output shape:

    SECRET_KEY=dev .venv/bin/python -m tests.debates.make_demo_fixture

It works in a throw-away SQLite database and never touches the project's.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.fakes.debate_model import FakeDebateModel, ParsedRequest

TOPIC = "Should cities ban private cars from their centres?"
PERSONAS = ("The Empiricist", "The Guardian", "The Innovator")
ROUNDS = 2
OUTPUT = Path(__file__).resolve().parents[2] / "debates" / "fixtures" / "demo_debate.json"

# Shared assumptions: the camps split over these, so they become the cruxes.
FREEDOM = "People should be free to choose how they travel"
TRANSIT = "Public transport can absorb the trips cars make today"
EVIDENCE = "Results from pilot cities transfer to other cities"
TRADE = "City-centre shops depend on customers who arrive by car"
HEALTH = "Cleaner air is worth some loss of convenience"

CLAIMS = [
    "A ban would make city centres healthier and safer.",
    "A ban would hurt people and businesses who depend on cars.",
    "Cheaper measures could get most of the benefit without a ban.",
]

OPENINGS: dict[str, list[dict[str, Any]]] = {
    "The Empiricist": [
        {
            "claim": "Car-free centres cut air pollution where people breathe it most.",
            "premises": [
                "Roadside nitrogen dioxide falls sharply where through-traffic stops.",
                "Pilot car-free zones measured fewer asthma admissions nearby.",
            ],
            "assumptions": [EVIDENCE, HEALTH],
            "evidence": ["Air-quality monitoring before and after pilot closures"],
        },
        {
            "claim": "Footfall in pedestrianised streets usually rises, not falls.",
            "premises": [
                "Shop takings rose in most pedestrianised high streets studied.",
                "Pedestrians visit more often and stay longer than drivers.",
            ],
            "assumptions": [EVIDENCE, TRANSIT],
            "evidence": ["Retail footfall counts from pedestrianised streets"],
        },
    ],
    "The Guardian": [
        {
            "claim": "A ban strands disabled and elderly residents who cannot walk far.",
            "premises": [
                "Many people with limited mobility rely on door-to-door car trips.",
                "Buses and trams do not reach every doorstep.",
            ],
            "assumptions": [FREEDOM, TRADE],
            "evidence": ["Mobility survey of residents over seventy"],
        },
        {
            "claim": "Sudden bans push traffic and danger onto the surrounding streets.",
            "premises": [
                "Drivers reroute around a closed zone rather than leave the car at home.",
                "Residential streets at the edge were not built for that traffic.",
            ],
            "assumptions": [TRANSIT, FREEDOM],
            "evidence": ["Traffic counts on boundary roads after a closure"],
        },
    ],
    "The Innovator": [
        {
            "claim": "Freed road space lets cities try better uses: cycle lanes, markets, trees.",
            "premises": [
                "A traffic lane carries fewer people than the same width as a cycle lane.",
                "Temporary street experiments can be tried and reversed cheaply.",
            ],
            "assumptions": [HEALTH, EVIDENCE],
            "evidence": ["Trial street conversions with movable planters"],
        },
        {
            "claim": "Pricing congestion beats a ban: drivers who really need the road keep it.",
            "premises": [
                "A charge lets each driver weigh the trip against its cost.",
                "Congestion charges cut traffic in the cities that tried them.",
            ],
            "assumptions": [FREEDOM, TRADE],
            "evidence": ["Traffic volumes before and after a congestion charge"],
        },
    ],
}

# What each attack says, by (speaker, target argument): counter-proposition,
# rationale, assumptions. Written after a dry run showed which targets the
# scripted attack choice picks (A1-A2 Empiricist, A3-A4 Guardian, A5-A6
# Innovator, then counter-arguments from A7 on).
COUNTERS: dict[tuple[str, str], tuple[str, str, list[str]]] = {
    ("The Empiricist", "A3"): (
        "Exemptions and door-to-door shuttles keep a car-free centre reachable for "
        "people who cannot walk far.",
        "Every scheme studied kept access for blue-badge holders; the claim attacks "
        "a ban nobody proposes.",
        [EVIDENCE],
    ),
    ("The Empiricist", "A4"): (
        "After road closures a share of the traffic disappears instead of rerouting.",
        "Before-and-after counts show fewer car trips in total, not the same trips "
        "moved to the edge.",
        [EVIDENCE, TRANSIT],
    ),
    ("The Guardian", "A1"): (
        "The pollution only moves to the ring roads around the car-free zone.",
        "Cleaner air inside the zone is bought with dirtier air where poorer residents live.",
        [TRADE],
    ),
    ("The Guardian", "A2"): (
        "The pedestrianised streets that were studied were thriving already.",
        "Successful schemes get studied; failed ones quietly reopen to cars.",
        [TRADE],
    ),
    ("The Innovator", "A1"): (
        "Electric cars will clean the air without banning anyone.",
        "Exhaust is a problem of engines, not of cars; it is fading as fleets change.",
        [FREEDOM],
    ),
    ("The Innovator", "A2"): (
        "Takings rose during a boom: they would have risen without the ban.",
        "Without comparison streets that kept their cars, the rise says nothing about the ban.",
        [EVIDENCE],
    ),
    ("The Empiricist", "A5"): (
        "A cycle lane carries more people only once it joins a network; a lone lane stays empty.",
        "Counts on isolated lanes are low; the capacity argument needs the whole "
        "network built first.",
        [TRANSIT],
    ),
    ("The Empiricist", "A6"): (
        "A congestion charge lets the well-off keep driving while everyone breathes the same air.",
        "Pricing rations road space by income, so the health benefit is smaller than a ban's.",
        [HEALTH],
    ),
    ("The Guardian", "A5"): (
        "Road capacity matters less than who can use it: cycle lanes serve the young and fit.",
        "Counting people per metre ignores those who cannot cycle at all.",
        [FREEDOM],
    ),
    ("The Guardian", "A6"): (
        "A charge is a ban for the poor that the rich can buy their way out of.",
        "A flat fee weighs far more on a care worker than on a consultant.",
        [FREEDOM],
    ),
    ("The Innovator", "A8"): (
        "Traffic that 'disappears' has often moved to other times and other towns.",
        "Counts inside one city cannot see trips that went elsewhere or later.",
        [FREEDOM, TRADE],
    ),
}


class DemoModel(FakeDebateModel):
    """FakeDebateModel's choices (targets, types, verdicts), with hand-written words."""

    def decompose(self, request: ParsedRequest) -> dict[str, Any]:
        return {"claims": CLAIMS}

    def open(self, request: ParsedRequest) -> dict[str, Any]:
        return {"arguments": OPENINGS[request.speaker]}

    @staticmethod
    def _attack(*, target: str, kind: str, component: str, me: str, round_: int, **rest) -> dict:
        attack = FakeDebateModel._attack(
            target=target, kind=kind, component=component, me=me, round_=round_, **rest
        )
        words = COUNTERS.get((me, target))
        if words is None:
            raise LookupError(f"unscripted attack: {me} {kind}s {target}'s {component}")
        attack["counter_proposition"], attack["rationale"], attack["assumptions"] = words
        attack["evidence"] = []
        return attack


def record() -> dict[str, Any]:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from debates.exports import debate_json
    from engine.models import Debate, Persona
    from engine.orchestrator import run_debate
    from tests.fakes.anthropic_server import FakeAnthropicServer

    server = FakeAnthropicServer().start()
    server.responder = DemoModel(invalid_every=4)
    os.environ["ANTHROPIC_BASE_URL"] = server.base_url
    os.environ["ANTHROPIC_API_KEY"] = "sk-ant-demo-recording"
    try:
        debate = Debate.objects.create(topic=TOPIC, max_rounds=ROUNDS, is_demo=True)
        debate.personas.set(Persona.objects.filter(name__in=PERSONAS))
        run_debate(debate_id=debate.pk)
        debate.refresh_from_db()
        return debate_json(debate=debate)
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
    debate = data["debate"]
    print(
        f"wrote {OUTPUT}: {debate['status']} {debate['stop_reason']}, "
        f"{len(data['arguments'])} arguments, {len(data['attacks'])} attacks"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
