"""``manage.py tournament``: run a model tournament from the command line.

It creates the tournament (``tournaments.services.create_tournament``: the
same checks as the page, without a user's quota), runs it in this process on
the shared engine (``engine.orchestrator.run_debate``), prints one progress
line per live event on stderr, and writes the export on stdout.

Exit status: 0 when the tournament finished, 1 when it ran but failed or
stopped before its final, 2 with one line on stderr for bad options
(including a budget below the estimate, unknown model ids and models that
cannot make a bracket).
"""

from __future__ import annotations

import json
import sys
import time
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models.signals import post_save

from casefiles.models import CaseFile
from engine.models import Debate, DebateEvent, DebateStatus
from engine.orchestrator import run_debate
from engine.wording import failure_message
from tournaments import exports, reports
from tournaments.budget import BudgetExceeded
from tournaments.elo import DecisionType
from tournaments.models import Match, Rating, Turn
from tournaments.services import default_tournament_size


class OneLineParser(CommandParser):
    """Bad options: one line on stderr and exit status 2 (argparse prints the whole usage)."""

    def error(self, message: str):
        if self.called_from_command_line:
            self.exit(2, f"{self.prog}: error: {message} (see --help)\n")
        raise CommandError(f"Error: {message}", returncode=2)


def _usd(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite() or value <= 0:
        raise ValueError(text)
    return value


def _percent(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 100:
        raise ValueError(text)
    return value


def _id(text: str) -> int:
    value = int(text)
    if not 1 <= value < 2**63:
        raise ValueError(text)
    return value


_usd.__name__ = "amount in USD"
_id.__name__ = "case file id"
_percent.__name__ = "score between 0 and 100"


class Command(BaseCommand):
    help = (
        "Run a model tournament: models recommend, challenge and defend until they converge, "
        "an arbiter judges each match, winners advance, and Elo ratings per model and decision "
        "type are updated. Needs ANTHROPIC_API_KEY."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.__class__ = OneLineParser  # Django builds a CommandParser; only error() differs
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--decision-type",
            required=True,
            choices=[d.value for d in DecisionType],
            help="The kind of question; ratings are kept per kind.",
        )
        parser.add_argument(
            "--context",
            required=True,
            help="The decision question, with any context it needs; the models' research "
            "searches it when no --case-file is given.",
        )
        parser.add_argument(
            "--models",
            nargs="+",
            metavar="M",
            help="The competing model ids (2 to 5), strongest seed first after rating. "
            "Default: the first --tournament-size of the configured models.",
        )
        parser.add_argument(
            "--tournament-size",
            type=int,
            metavar="N",
            help="How many models compete when --models is not given (2 to 5; default 4, or "
            "the number of configured models if fewer: "
            f"{default_tournament_size()} here).",
        )
        parser.add_argument(
            "--case-file",
            type=_id,
            metavar="ID",
            help="The id of a case file the models' research queries search. Without it, "
            "they search the text of --context.",
        )
        parser.add_argument(
            "--budget",
            type=_usd,
            default=Decimal("1.00"),
            metavar="USD",
            help="The most the tournament may spend; refused before starting when the "
            "estimate is above it (default 1.00).",
        )
        parser.add_argument(
            "--max-rounds",
            type=int,
            default=3,
            metavar="N",
            help="Challenge/defence rounds per match at most (1 to 5; default 3).",
        )
        parser.add_argument(
            "--convergence-threshold",
            type=_percent,
            default=80.0,
            metavar="P",
            help="The convergence score (0-100) at which a match stops early (default 80).",
        )
        parser.add_argument(
            "--force-diversity",
            action="store_true",
            help="No two models of the same family.",
        )
        parser.add_argument(
            "--show-debate",
            action="store_true",
            help="Print each match's challenge/defence transcript (on stderr).",
        )
        parser.add_argument(
            "--show-selection",
            action="store_true",
            help="Print the models chosen, in seed order, with their current ratings (on stderr).",
        )
        parser.add_argument(
            "--export-format",
            choices=reports.EXPORT_FORMATS,
            default="summary",
            help="What is printed on stdout at the end: a short summary (default), "
            "a Markdown report, or JSON.",
        )
        parser.add_argument(
            "--no-cache",
            action="store_true",
            help="Ask the models again even when an identical request was answered recently.",
        )

    def handle(self, *args, **options) -> None:
        from tournaments.services import create_tournament

        for name, low, high in (("max_rounds", 1, 5), ("tournament_size", 2, 5)):
            value = options.get(name)
            if value is not None and not low <= value <= high:
                flag = "--" + name.replace("_", "-")
                raise CommandError(f"{flag} must be between {low} and {high}.", returncode=2)
        case_file = self._case_file(options.get("case_file"))
        try:
            tournament = create_tournament(
                user=None,
                question=options["context"],
                decision_type=options["decision_type"],
                models=options.get("models"),
                tournament_size=options.get("tournament_size"),
                budget_usd=options["budget"],
                max_rounds=options["max_rounds"],
                convergence_threshold=options["convergence_threshold"],
                force_diversity=options["force_diversity"],
                no_cache=options["no_cache"],
                # As on the page, research searches the case file or the context given;
                # here the question and its context are one text (see docs/tournaments.md).
                context="" if case_file else options["context"],
                case_file=case_file,
                launch_now=False,
            )
        except BudgetExceeded as exc:
            raise CommandError(str(exc), returncode=2) from exc
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages), returncode=2) from exc

        if options["show_selection"]:
            self._selection(tournament)
        self._run(tournament.debate_id)
        debate = Debate.objects.get(pk=tournament.debate_id)
        if options["show_debate"]:
            self._transcripts(tournament)
        self.stdout.write(self._export(debate, tournament, options["export_format"]))
        if debate.status != DebateStatus.DONE or not (debate.output or {}).get("complete"):
            why = debate.stop_in_english or debate.status
            if debate.status == DebateStatus.FAILED:
                why = failure_message(debate=debate)
            raise CommandError(f"The tournament did not finish: {why}", returncode=1)

    def _case_file(self, pk: int | None) -> CaseFile | None:
        """The case file asked for; the command line is the operator's, so any id may be used."""
        if pk is None:
            return None
        case_file = CaseFile.objects.filter(pk=pk).first()
        if case_file is None:
            raise CommandError(
                f"No case file has the id {pk}. Check the id on its page, or leave out "
                "--case-file to search the question's own text.",
                returncode=2,
            )
        return case_file

    def _note(self, text: str) -> None:
        self.stderr.write(text)

    def _selection(self, tournament) -> None:
        ratings = dict(
            Rating.objects.filter(
                model__in=tournament.model_ids, decision_type=tournament.decision_type
            ).values_list("model", "rating")
        )
        self._note("Models in seed order:")
        for seed, model in enumerate(tournament.model_ids, start=1):
            self._note(f"  {seed}. {model} (rating {ratings.get(model, '1200 (new)')})")
        self._note(f"Estimated cost: {tournament.estimated_cost_usd} USD")

    def _run(self, debate_id: int) -> None:
        started = time.monotonic()

        def show(sender, instance: DebateEvent, created: bool, **kwargs) -> None:
            if not created or instance.debate_id != debate_id:
                return
            line = reports.progress_line(instance.type, instance.payload or {})
            if line:
                self._note(f"[{time.monotonic() - started:6.1f}s] {line}")

        post_save.connect(show, sender=DebateEvent, weak=False)
        try:
            run_debate(debate_id=debate_id)
        finally:
            post_save.disconnect(show, sender=DebateEvent)

    def _transcripts(self, tournament) -> None:
        for match in Match.objects.filter(tournament=tournament):
            self._note(f"Match {match.pk}: {match.model_a} v {match.model_b}")
            turns = Turn.objects.filter(match=match).values("round", "kind", "model", "content")
            for line in reports.transcript_lines(turns):
                self._note(line)

    def _export(self, debate: Debate, tournament, kind: str) -> str:
        header = {
            "tournament": debate.pk,
            "question": debate.topic,
            "decisionType": tournament.decision_type,
            "models": list(tournament.model_ids),
            "status": debate.status,
            "estimatedCost": str(tournament.estimated_cost_usd),
        }
        result = debate.output or {}
        if kind == "json":
            # The page's download, word for word: format, version, budget, ratings moved.
            document = exports.tournament_json(debate=debate)
            return json.dumps(document, indent=2, ensure_ascii=False)
        if kind == "markdown":
            return reports.export_markdown(header, result)
        return reports.export_summary(header, result)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("Run it as: python manage.py tournament --help")
