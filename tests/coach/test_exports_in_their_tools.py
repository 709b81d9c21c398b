"""Each argument export read by the tool its format is for, compared with the student's text.

Argdown by the `argdown` command line, AIF by `arguebuf`, Markdown by a CommonMark
parser (markdown-it-py); the comparisons are in tests/coach/export_checks.py and the
mapping they hold the exports to is docs/exports.md. The arguments are the thirteen
fixed ones in tests/coach/student_text.py and hypothesis's student-like text.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.exports import ToulminExport, to_aif, to_argdown, to_markdown
from coach.models import Argument
from tests.coach.export_checks import aif_problems, argdown_problems, markdown_problems
from tests.coach.real_tools import argdown_json, markdown_blocks
from tests.coach.student_text import ARGUMENTS, FIELDS, student_arguments


def _argdown_problems(arguments: list[ToulminExport]) -> list[tuple[str, list[str]]]:
    run = argdown_json([to_argdown(argument) for argument in arguments])
    found = [
        (argument.title, problems)
        for argument, read in zip(arguments, run.results, strict=True)
        if (problems := argdown_problems(argument, read))
    ]
    assert not found, (found, run.output[-2000:])
    return found


@pytest.mark.slow
def test_it_reads_the_thirteen_arguments_back_from_argdown_exactly() -> None:
    _argdown_problems(ARGUMENTS)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(student_arguments(), min_size=25, max_size=25))
def test_it_reads_student_text_back_from_argdown_exactly(arguments: list[ToulminExport]) -> None:
    # One run of the command line for 25 documents: Node takes a second to start.
    _argdown_problems(arguments)


@pytest.mark.parametrize("argument", ARGUMENTS, ids=lambda argument: argument.title)
def test_it_loads_the_thirteen_arguments_in_arguebuf_as_documented(
    argument: ToulminExport,
) -> None:
    assert aif_problems(argument, to_aif(argument, timestamp="2026-11-25 12:00:00")) == []


@settings(max_examples=150, deadline=None)
@given(student_arguments())
def test_it_loads_student_text_in_arguebuf_as_documented(argument: ToulminExport) -> None:
    assert aif_problems(argument, to_aif(argument)) == []


@pytest.mark.parametrize("argument", ARGUMENTS, ids=lambda argument: argument.title)
def test_it_renders_the_thirteen_arguments_as_commonmark_text(argument: ToulminExport) -> None:
    assert markdown_problems(argument, markdown_blocks(to_markdown(argument))) == []


@settings(max_examples=200, deadline=None)
@given(student_arguments())
def test_it_renders_student_text_as_commonmark_text(argument: ToulminExport) -> None:
    assert markdown_problems(argument, markdown_blocks(to_markdown(argument))) == []


def test_it_keeps_a_students_line_breaks_in_markdown() -> None:
    argument = ARGUMENTS[6]  # "Summary\n---\nThe figures agree." as the warrant's backing
    blocks = markdown_blocks(to_markdown(argument))
    assert ("p", "Summary\n---\nThe figures agree.") in blocks
    assert not [kind for kind, _ in blocks if kind not in ("h1", "h2", "p")]


@pytest.mark.slow
@pytest.mark.django_db
def test_it_downloads_exports_that_the_tools_read_as_written(student: Any) -> None:
    """The downloads themselves (not only the pure exporters) go through the tools."""
    client = Client()
    client.force_login(student)
    arguments = []
    for fixed in ARGUMENTS[:6]:
        row = Argument.objects.create(
            owner=student, title=fixed.title, **{f: fixed.text(f) for f in FIELDS}
        )
        arguments.append((row, fixed.model_copy(update={"complete": False})))
    documents = []
    for row, fixed in arguments:
        get = client.get
        markdown = get(f"/coach/{row.pk}/export/markdown/").content.decode()
        assert markdown_problems(fixed, markdown_blocks(markdown)) == []
        aif = get(f"/coach/{row.pk}/export/aif/").content.decode()
        assert aif_problems(fixed, aif) == []
        documents.append(get(f"/coach/{row.pk}/export/argdown/").content.decode())
    run = argdown_json(documents)
    for (_, fixed), read in zip(arguments, run.results, strict=True):
        assert argdown_problems(fixed, read) == [], run.output[-2000:]
