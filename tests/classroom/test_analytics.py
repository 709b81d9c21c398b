"""Known answers and properties of the class analytics' arithmetic and its bar charts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from classroom.analytics import Work, summarize
from classroom.charts import bar_chart
from classroom.criteria import STEP_IDS
from classroom.grid import PROVENANCES

ANA = Work(
    current_step="warrant",
    texts={"claim": "Cars out.", "grounds": "40% of trips are short.", "warrant": "dr"},
    provenance={"claim": "typed", "grounds": "accepted", "warrant": "typed"},
    turns={"claim": 2, "grounds": 5, "warrant": 1},
    guard_changes={"no_proposals": 2, "advance_gating": 1},
    verdict="",
)
BEA = Work(
    current_step="rebuttal",
    complete=True,
    texts={step: f"text of {step}" for step in STEP_IDS},
    provenance={step: "edited" if step == "claim" else "student_words" for step in STEP_IDS},
    turns={"claim": 4, "grounds": 1},
    guard_changes={"advance_gating": 3},
    schema_rejections=1,
    verdict="sustained",
)


def test_it_counts_completion_over_the_seats_not_the_starters() -> None:
    summary = summarize([ANA, BEA], seats=4)
    done = {c.step: (c.done, c.seats) for c in summary.completion}
    assert done["claim"] == (2, 4)
    assert done["grounds"] == (2, 4)
    assert done["warrant"] == (1, 4)  # Ana is still on it: in progress, not done
    assert done["rebuttal"] == (1, 4)
    assert summary.completion[0].percent == 50.0
    assert (summary.works, summary.complete, summary.seats) == (2, 1, 4)


def test_it_takes_medians_over_students_who_used_the_coach_there() -> None:
    medians = {t.step: (t.median, t.works) for t in summarize([ANA, BEA], seats=2).turn_medians}
    assert medians["claim"] == (3.0, 2)  # (2 + 4) / 2
    assert medians["grounds"] == (3.0, 2)
    assert medians["warrant"] == (1, 1)
    assert medians["qualifier"] == (None, 0)


def test_it_puts_the_step_with_most_turns_spent_on_it_first() -> None:
    stuck = summarize([ANA, BEA], seats=2).stuck
    assert stuck[0].step == "claim"  # (2 + 4) / 2 = 3 ties grounds (5 + 1) / 2: order decides
    by_step = {s.step: s for s in stuck}
    assert by_step["grounds"].mean_turns == 3.0
    # Ana is on the warrant now: her turn there counts (so far), with Bea's none.
    assert by_step["warrant"].mean_turns == 0.5
    assert (by_step["warrant"].advanced, by_step["warrant"].here_now) == (1, 1)
    assert by_step["rebuttal"].here_now == 0  # Bea is complete, not stuck there
    # Nobody has reached the qualifier but Bea, who spent no turn on it.
    assert by_step["qualifier"].mean_turns == 0.0


def test_it_shows_a_student_stuck_now_before_they_move_on() -> None:
    stuck_now = Work(
        current_step="warrant", texts={"claim": "c", "grounds": "g"}, turns={"warrant": 9}
    )
    assert summarize([stuck_now, BEA], seats=2).stuck[0].step == "warrant"


def test_it_counts_guard_interventions_and_schema_refusals() -> None:
    guards = dict(
        summarize([ANA, BEA], seats=2, guard_order=("advance_gating", "no_proposals")).guards
    )
    assert guards == {"advance_gating": 4, "no_proposals": 2, "schema": 1}


def test_it_counts_who_wrote_each_written_element() -> None:
    provenance = dict(summarize([ANA, BEA], seats=2).provenance)
    assert provenance["claim"] == {"typed": 1, "student_words": 0, "accepted": 0, "edited": 1}
    assert provenance["grounds"] == {"typed": 0, "student_words": 1, "accepted": 1, "edited": 0}
    assert sum(provenance["qualifier"].values()) == 1


def test_it_counts_the_latest_verdicts_and_the_untried() -> None:
    summary = summarize([ANA, BEA], seats=2, verdict_order=("sustained", "overruled"))
    assert summary.verdicts == (("sustained", 1), ("overruled", 0))
    assert summary.untried == 1


def test_it_summarises_an_empty_class_without_dividing_by_zero() -> None:
    summary = summarize([], seats=0)
    assert all(c.percent == 0.0 for c in summary.completion)
    assert all(t.median is None for t in summary.turn_medians)
    assert all(s.mean_turns is None for s in summary.stuck)


works = st.builds(
    Work,
    current_step=st.sampled_from(STEP_IDS),
    complete=st.booleans(),
    texts=st.dictionaries(st.sampled_from(STEP_IDS), st.sampled_from(["", " ", "x", "words"])),
    provenance=st.dictionaries(st.sampled_from(STEP_IDS), st.sampled_from([*PROVENANCES, ""])),
    turns=st.dictionaries(st.sampled_from(STEP_IDS), st.integers(0, 30)),
)


def _naive_median(values: list[int]) -> float | None:
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return None
    return float(ordered[n // 2]) if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


@given(st.lists(works, max_size=12), st.integers(0, 20))
def test_it_agrees_with_a_naive_count(sample: list[Work], extra_seats: int) -> None:
    summary = summarize(sample, seats=len(sample) + extra_seats)
    for c, t in zip(summary.completion, summary.turn_medians, strict=True):
        assert 0 <= c.done <= c.seats and 0.0 <= c.percent <= 100.0
        used = [w.turns.get(t.step, 0) for w in sample if w.turns.get(t.step, 0) > 0]
        assert t.median == _naive_median(used)
    for step, counts in summary.provenance:
        written = [w for w in sample if w.texts.get(step, "").strip()]
        assert sum(counts.values()) == sum(w.provenance.get(step) in PROVENANCES for w in written)
    means = [s.mean_turns or 0.0 for s in summary.stuck]
    assert means == sorted(means, reverse=True)


@given(st.lists(works, max_size=8), works)
def test_it_never_lowers_completion_when_a_finished_argument_joins(
    sample: list[Work], other: Work
) -> None:
    finished = Work(current_step="rebuttal", complete=True, texts={s: "t" for s in STEP_IDS})
    before = summarize([*sample, other], seats=20)
    after = summarize([*sample, other, finished], seats=20)
    for b, a in zip(before.completion, after.completion, strict=True):
        assert a.done == b.done + 1


def test_it_scales_bars_to_the_top_value_and_stacks_shares() -> None:
    chart = bar_chart([("a", [50.0], "50"), ("b", [100.0], "100"), ("c", [0.0], "0")], high=100)
    a, b, c = chart.bars
    assert b.parts[0].width == chart.plot_width
    assert a.parts[0].width == chart.plot_width / 2
    assert c.parts[0].width == 0.0
    assert a.y < b.y < c.y
    stacked = bar_chart([("s", [25.0, 25.0, 50.0], "4")], high=100).bars[0]
    assert [p.x for p in stacked.parts][1] == stacked.parts[0].x + stacked.parts[0].width
    assert sum(p.width for p in stacked.parts) == chart.plot_width


@given(
    st.lists(st.lists(st.floats(-5, 1e6, allow_nan=False), min_size=1, max_size=4), max_size=10),
    st.one_of(st.none(), st.floats(0, 1e6, allow_nan=False)),
)
def test_it_keeps_every_bar_inside_the_plot(rows: list[list[float]], high: float | None) -> None:
    chart = bar_chart([(str(i), values, "") for i, values in enumerate(rows)], high=high)
    right = chart.plot_left + chart.plot_width + 1e-6
    for bar in chart.bars:
        for part in bar.parts:
            assert part.width >= 0 and chart.plot_left <= part.x and part.x + part.width <= right


def test_it_names_every_guard_once_with_a_label() -> None:
    from classroom.analytics_data import GUARD_ORDER
    from classroom.analytics_page import GUARD_LABELS
    from coach.guards import GUARDS

    assert len(set(GUARD_ORDER)) == len(GUARD_ORDER) == len(GUARDS)
    assert set(GUARD_ORDER) == set(GUARD_LABELS)
