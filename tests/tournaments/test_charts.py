"""tournaments.charts: known coordinates and properties of the line charts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.charts import HEIGHT, PAD, WIDTH, line_chart


def test_it_places_known_scores_on_a_0_to_100_scale() -> None:
    chart = line_chart({"c": [("1", 0.0), ("2", 50.0), ("3", 100.0)]}, low=0, high=100)

    points = chart.series[0].points
    assert [(p.x, p.y) for p in points] == [
        (PAD, HEIGHT - PAD),
        (WIDTH / 2, HEIGHT / 2),
        (WIDTH - PAD, PAD),
    ]
    assert chart.series[0].polyline == f"{PAD},{HEIGHT - PAD} 160,80 {WIDTH - PAD},{PAD}"
    assert [label for _, label in chart.ticks] == ["0", "50", "100"]


def test_it_centres_a_single_point_and_clamps_outliers() -> None:
    chart = line_chart({"c": [("1", 150.0)]}, low=0, high=100)

    point = chart.series[0].points[0]
    assert (point.x, point.y, point.value) == (WIDTH / 2, PAD, 150.0)


def test_it_widens_a_flat_series_so_it_is_not_drawn_on_the_frame() -> None:
    chart = line_chart({"a": [("0", 1200.0), ("1", 1200.0)]})

    assert chart.low < 1200 < chart.high
    assert all(PAD < p.y < HEIGHT - PAD for p in chart.series[0].points)


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=5),
        st.lists(st.floats(min_value=-1e6, max_value=1e6), min_size=1, max_size=20),
        min_size=1,
        max_size=6,
    )
)
def test_every_point_stays_inside_the_view_box(values) -> None:
    series = {name: [(str(i), v) for i, v in enumerate(vs)] for name, vs in values.items()}

    chart = line_chart(series)

    for drawn in chart.series:
        xs = [p.x for p in drawn.points]
        assert xs == sorted(xs)
        for p in drawn.points:
            assert PAD - 1e-6 <= p.y <= HEIGHT - PAD + 1e-6
            assert 0 <= p.x <= WIDTH
