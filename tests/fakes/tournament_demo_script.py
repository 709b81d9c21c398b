"""The demo tournament's words: plans, challenges and defences a team would recognise.

``DemoTournamentModel`` behaves as ``FakeTournamentModel`` (who recommends what,
when a model converges, who is stubborn, how the verdict scores each side), so
the bracket, convergence cascade, verdicts and Elo of the recorded demo are the
pipeline's; only the words are written here, for the demo's question (a
database for a 10,000-student course platform). Each option has its plan, three
weaknesses with their evidence, and the defence of each. Read by
tests/tournaments/make_demo_fixture.py. No Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.fakes.tournament_model import CONSENSUS, FakeTournamentModel, _option

__all__ = ["DemoTournamentModel"]

_YOU = re.compile(r"^You are: (.+)$", re.MULTILINE)
_ROUND = re.compile(r"^Round: (\d+)$", re.MULTILINE)
_MODEL_A = re.compile(r"^Model A: (.+)$", re.MULTILINE)
_MODEL_B = re.compile(r"^Model B: (.+)$", re.MULTILINE)
_WEAKNESS = re.compile(r"^- Weakness: (.+?) \(evidence: ", re.MULTILINE)

POSTGRES = "PostgreSQL"

PLANS: dict[str, tuple[str, str]] = {
    "MongoDB": (
        "Use MongoDB as the primary store: a course, its lessons and each student's "
        "submissions are nested documents, so a course page is one read.",
        "flexible documents, at the price of duplicated grades",
    ),
    "DynamoDB": (
        "Use DynamoDB on demand: a managed key-value store absorbs the start-of-term and "
        "deadline peaks with no servers to run.",
        "no operations, at the price of fixed access patterns and lock-in",
    ),
    "MySQL": (
        "Use MySQL 8 on a managed service, one primary and one read replica: enrolments, "
        "grades and submissions are relations, and 10,000 students is a modest load.",
        "a familiar relational store, at the price of one write primary",
    ),
    "SQLite": (
        "Use SQLite on the application server in WAL mode: even at a deadline the platform "
        "makes a few dozen writes a second, and there is nothing to operate.",
        "nothing to run, at the price of one writer and one machine",
    ),
}

# Three weaknesses of each plan, with the evidence a reviewer would give.
WEAKNESSES: dict[str, list[tuple[str, str]]] = {
    "MongoDB": [
        (
            "Grades and enrolments are relations; as documents they are copied into the "
            "student and the course, and a correction must find every copy",
            "the gradebook joins students, courses, assignments and grades",
        ),
        (
            "Releasing an assignment's grades updates many documents at once, which needs "
            "multi-document transactions the team would have to remember to use",
            "the vendor's own guidance is to model data so as to avoid them",
        ),
        (
            "Instructors ask for ad hoc reports by section and date range, which is what a "
            "relational query language is for",
            "the current support queue has weekly requests for custom exports",
        ),
    ],
    "DynamoDB": [
        (
            "Every query needs a key or an index designed in advance, and instructors' "
            "reports are not known in advance",
            "a new report means a new global secondary index and a backfill",
        ),
        (
            "The core store would be tied to one cloud vendor",
            "no other provider offers the same API, so leaving means a rewrite",
        ),
        (
            "On-demand pricing bills every read and write, so the deadline peak is the "
            "expensive hour",
            "a submission page reads course, assignment and rubric before one write",
        ),
    ],
    "MySQL": [
        (
            "Changing the schema of a large submissions table during term can block writes",
            "altering a big InnoDB table needs online DDL or an external tool",
        ),
        (
            "One primary takes every write, and deadlines pack submissions into minutes",
            "last term's logs show most submissions in the final hour",
        ),
        (
            "Searching submission text is weak in the built-in full-text index",
            "plagiarism checks and search need ranking the index does poorly",
        ),
    ],
    "SQLite": [
        (
            "One writer at a time: in a deadline rush every submission waits for the one before it",
            "even in WAL mode SQLite allows a single write transaction at a time",
        ),
        (
            "The database lives on one machine: no failover, and a second web server "
            "cannot share it",
            "a file on a network share is not safe to write from several servers",
        ),
        (
            "Growing out of it later means a migration in the middle of a term",
            "enrolment grew 30% in each of the last two years",
        ),
    ],
    POSTGRES: [
        (
            "Replicas lag, so a student may not see a grade just released",
            "asynchronous replication delays reads; read-your-writes must go to the primary",
        ),
        (
            "A pooler in transaction mode breaks session features some libraries rely on",
            "prepared statements and advisory locks need session pooling or care",
        ),
        (
            "The pooler is one more component to run and watch",
            "if it fails, every connection fails with it",
        ),
    ],
}

# How each plan's holder answers its weaknesses when it maintains the plan.
DEFENCES: dict[str, list[str]] = {
    "MongoDB": [
        "Grades live in one collection keyed by student and assignment; only summaries "
        "are copied, and they are rebuilt from it.",
        "A grade release is one bulk write to that collection, inside one transaction.",
        "Reports run on a nightly export to a warehouse, not on the live store.",
    ],
    "DynamoDB": [
        "The reports instructors ask for fit four indexes we can design now.",
        "The data layer is behind one interface, so the store can be swapped.",
        "Caching the course and rubric leaves one write per submission at the peak.",
    ],
    "MySQL": [
        "Schema changes go out between terms, or with online DDL on the replica first.",
        "A deadline's peak is a few hundred writes a minute, well within one primary.",
        "Search moves to a dedicated index fed from the database, as it would anyway.",
    ],
    "SQLite": [
        "Each write is a few milliseconds, so a queue of hundreds clears in seconds.",
        "One server with backups every five minutes is enough for a course platform.",
        "If enrolment keeps growing we move, but we do not pay for that scale today.",
    ],
    POSTGRES: [
        "Reads right after a student's own write go to the primary.",
        "The pooler runs in session mode for the few jobs that need it.",
        "The pooler is one small process with a health check and a restart policy.",
    ],
}


def _option_in(text: str) -> str:
    if POSTGRES in text:
        return POSTGRES
    return next((option for option in PLANS if option in text), POSTGRES)


@dataclass
class DemoTournamentModel(FakeTournamentModel):
    def _answer(self, task: str, text: str, model: str, evidence: str = "") -> dict[str, Any]:
        speaker = (_YOU.search(text) or [None, model])[1]
        round_ = int((_ROUND.search(text) or [None, "0"])[1])
        scripted = super()._answer(task, text, model, evidence)
        if task == "initial":
            option = _option(speaker)
            plan, trade_off = PLANS.get(option, (CONSENSUS, ""))
            return {
                **scripted,
                "recommendation": plan,
                "uncertainty_points": [
                    "How many submissions arrive in the last hour before a deadline",
                    "How many instructors run reports at the same time",
                ],
                "key_facts": [
                    "10,000 students in about 300 courses",
                    "Submissions cluster in the hour before each deadline",
                ],
                "trade_offs": {option: trade_off},
            }
        if task == "challenge":
            challenged = text.split("to challenge:\n<<<\n", 1)[-1].split("\n>>>", 1)[0]
            option = _option_in(challenged)
            weaknesses = [
                {"weakness": w, "evidence": evidence or e} for w, e in WEAKNESSES[option]
            ][: len(scripted["critical_weaknesses"])]
            return {
                **scripted,
                "strengths": [f"It names a concrete store and says why it fits ({option})"],
                "critical_weaknesses": weaknesses,
                "superior_alternative": "" if option == POSTGRES else CONSENSUS,
            }
        if task == "defence":
            mine = text.split("Your current recommendation:\n<<<\n", 1)[-1].split("\n>>>", 1)[0]
            option = _option_in(mine)
            asked = _WEAKNESS.findall(text)
            updating = scripted["stance"] == "updating"
            answers = DEFENCES[option]
            responses = [
                {
                    "challenge": weakness,
                    "response": (
                        "Granted: a relational store with replicas answers this better."
                        if updating and option != POSTGRES
                        else answers[i % len(answers)]
                    ),
                }
                for i, weakness in enumerate(asked)
            ]
            changed = (
                [
                    f"Moved from {option} to PostgreSQL with read replicas in round {round_}: "
                    "grades are relational and the deadline peak needs more than one reader"
                ]
                if updating and option != POSTGRES
                else scripted["what_changed"]
            )
            return {**scripted, "responses": responses, "what_changed": changed}
        if task == "convergence":
            return {
                **scripted,
                "key_disagreements": [
                    "Whether grades and enrolments need a relational store",
                    "How to absorb the write peak before a deadline",
                ],
            }
        if task == "verdict":
            a = (_MODEL_A.search(text) or [None, ""])[1]
            b = (_MODEL_B.search(text) or [None, ""])[1]
            sa, sb = self.strength.get(a, 60), self.strength.get(b, 60)
            winner, loser = (a, b) if sa >= sb else (b, a)
            return {
                **scripted,
                "reasoning": f"{winner} tied each choice to the platform's load and answered "
                f"the deadline peak with figures; {loser} defended its store in general terms.",
                "winner_strengths": [
                    "Tied the choice to grades and enrolments being relational",
                    "Answered the deadline write peak with figures",
                ],
                "loser_weaknesses": [
                    "Answered the challenges in general terms",
                    "Left the instructors' reports unaddressed",
                ],
            }
        return scripted
