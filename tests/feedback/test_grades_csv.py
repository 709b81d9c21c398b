"""The grades CSV: the header (criterion names) is neutralised like every other cell."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from feedback.services import default_rubric, grades_csv

pytestmark = pytest.mark.django_db


def test_it_neutralises_formulas_in_the_header_and_the_rows(
    assignment: Any, classroom: Any, django_user_model: Any
) -> None:
    criteria = list(default_rubric(assignment=assignment).criteria.all())
    criteria[0].name = '=HYPERLINK("http://evil.example","Warrant")'
    criteria[1].name = " \u200b+SUM(A1:A9)"
    for criterion in criteria[:2]:
        criterion.save(update_fields=["name"])
    classroom.memberships.create(student=django_user_model.objects.create_user("\u200b@cmd"))

    rows = list(csv.reader(io.StringIO(grades_csv(assignment=assignment))))

    assert rows[0][1] == """'=HYPERLINK("http://evil.example","Warrant")"""
    assert rows[0][2] == "' \u200b+SUM(A1:A9)"
    assert rows[0][3] == criteria[2].name  # plain names stay as they are
    assert "'\u200b@cmd" in {row[0] for row in rows[1:]}
