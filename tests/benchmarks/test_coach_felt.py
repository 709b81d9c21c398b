"""bench_coach's felt phase: the turn's wall time judged against the model's time."""

from __future__ import annotations

from benchmarks.bench_coach import Figures, report_felt


def _felt(client_ms: list[float]) -> Figures:
    return Figures(
        ok=len(client_ms),
        failed=0,
        errors=[],
        elapsed_s=10.0,
        own_ms=[],
        whole_ms=list(client_ms),
        model_ms=[1000.0] * len(client_ms),
        client_ms=client_ms,
        deltas=[],
        server_cpu_s=0.2,
    )


def _report(client_ms: list[float]) -> bool:
    return report_felt(_felt(client_ms), model_ms=1000.0, students=20, think_s=3.0, load=(1.0, 1.0))


def test_it_meets_the_goals_within_20_ms_at_the_median_and_50_ms_at_p95(capsys) -> None:
    assert _report([1010.0] * 19 + [1049.0])
    out = capsys.readouterr().out
    assert "p50 <= model 1000 + 20 ms (got 1010.0, +10.0): met" in out
    assert "server CPU per turn (all threads): 10.0 ms" in out


def test_it_misses_when_the_median_is_over_or_the_tail_is_long() -> None:
    assert not _report([1021.0] * 20)
    assert not _report([1010.0] * 18 + [1060.0] * 2)


def test_it_misses_with_no_measured_turn() -> None:
    assert not _report([])
