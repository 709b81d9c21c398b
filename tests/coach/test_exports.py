"""The argument assembled: the diagram page and four exports, each read back after writing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.exports import (
    EXPORT_FORMATS,
    ToulminExport,
    escape_markdown,
    markdown_text,
    parse_argdown,
    parse_markdown,
    to_aif,
    to_argdown,
    to_json,
    to_markdown,
)
from coach.models import Argument
from coach.steps import STEPS, label_for
from tests.schemas import schema_errors

FIELDS = [step.field for step in STEPS]

CARS = ToulminExport(
    title="Car-free [city] centres",
    language="en",
    complete=True,
    claim="Cities should ban cars downtown.",
    grounds="In Madrid, pollution fell 30% <after> the 2018 ban.\n# not a heading",
    warrant="If banning cars cuts pollution, cities should ban them downtown.",
    grounds_backing="Madrid's air quality agency published the figures in 2019.",
    warrant_backing="Public health research {WHO, 2021} links car pollution to illness.",
    qualifier='Very likely, "in most cities"',
    rebuttal="Unless public transit cannot carry the extra riders \\ at rush hour.",
)
COCHES = CARS.model_copy(
    update={
        "title": "Centros sin coches",
        "language": "es",
        "claim": "Las ciudades deberían prohibir los coches en el centro.",
        "qualifier": "Muy probablemente",
        "rebuttal": "A menos que el transporte público no dé abasto.",
    }
)

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
DOCUMENTS = st.builds(
    ToulminExport,
    title=TEXT,
    language=st.sampled_from(["en", "es"]),
    complete=st.booleans(),
    **{field: TEXT for field in FIELDS},
)


def lines(text: str) -> str:
    """What Markdown keeps of a text: its paragraphs and their lines."""
    return markdown_text(text)


def one_line(text: str) -> str:
    """What Argdown and AIF keep: the words, single-spaced."""
    return " ".join(text.split())


# --- the exporters, read back ---------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS)
def test_json_reads_back_as_the_same_document(document: ToulminExport) -> None:
    assert ToulminExport.model_validate_json(to_json(document)) == document
    assert json.loads(to_json(document))["format"] == "argue.toulmin"


@settings(max_examples=100, deadline=None)
@given(DOCUMENTS)
def test_it_writes_json_that_its_schema_accepts(document: ToulminExport) -> None:
    assert schema_errors(json.loads(to_json(document)), "argue.toulmin.v1") == []


def test_the_json_schema_refuses_what_the_format_is_not() -> None:
    data = json.loads(to_json(CARS))
    assert schema_errors({**data, "version": 2}, "argue.toulmin.v1") == ["version: 1 was expected"]
    assert schema_errors({**data, "stance": "x"}, "argue.toulmin.v1") != []


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS)
def test_markdown_reads_back_heading_by_heading(document: ToulminExport) -> None:
    back = parse_markdown(to_markdown(document), language=document.language)
    assert back.title == one_line(document.title)
    for field in FIELDS:
        assert back.text(field) == lines(document.text(field)), field


def test_markdown_has_one_heading_per_step_in_the_arguments_language() -> None:
    for document in (CARS, COCHES):
        text = to_markdown(document)
        headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
        assert headings == [label_for(step.id, document.language) for step in STEPS]
    assert to_markdown(CARS).startswith("# Car-free \\[city\\] centres\n")
    assert to_markdown(COCHES).startswith("# Centros sin coches\n")
    assert "\\\n\\# not a heading" in to_markdown(CARS)
    assert "fell 30% \\<after> the 2018 ban." in to_markdown(CARS)


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS)
def test_argdown_reads_back_statement_by_statement(document: ToulminExport) -> None:
    back = parse_argdown(to_argdown(document))
    assert back.title == (one_line(document.title) or "Argument")
    assert back.language == document.language
    for field in FIELDS:
        assert back.text(field) == one_line(document.text(field)), field


def test_argdown_is_a_premise_conclusion_structure_with_support_and_undercut() -> None:
    text = to_argdown(CARS)
    assert "(1) [Grounds]: In Madrid, pollution fell 30% \\<after> the 2018 ban. \\# not" in text
    assert "(2) [Warrant]: " in text and "\n--\n" in text and "(3) [Claim]: " in text
    assert "(1) [Grounds]: " in text and "\n    <+ [Grounds backing]: " in text
    assert "\n    <+ [Warrant backing]: Public health research \\{WHO, 2021}" in text
    assert "\n# Car-free [city] centres\n" in text.replace("\\[", "[")
    assert "<Car-free [city] centres>\n  <_ [Rebuttal]: " in text
    assert 'Toulmin {qualifier: "Very likely, \\"in most cities\\""}' in text
    spanish = to_argdown(COCHES)
    assert "(3) [Afirmación]: Las ciudades" in spanish and "lang: es" in spanish


def aif_structure(text: str) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """(node text or type -> type, edges as (from, to) named by I-node text or node type)."""
    document = json.loads(text)
    assert set(document) == {"nodes", "edges", "locutions", "participants"}
    nodes = {node["nodeID"]: node for node in document["nodes"]}
    assert len(nodes) == len(document["nodes"])
    keys = {"nodeID", "text", "type", "timestamp"}
    assert all(set(node) - {"qualifier"} == keys for node in nodes.values())

    def name(node_id: str) -> str:
        node = nodes[node_id]
        return node["text"] if node["type"] == "I" else f"{node['type']}#{node_id}"

    edges = {(name(edge["fromID"]), name(edge["toID"])) for edge in document["edges"]}
    assert all(edge["fromID"] in nodes and edge["toID"] in nodes for edge in document["edges"])
    kinds = {name(node_id): node["type"] for node_id, node in nodes.items()}
    return kinds, edges


def test_aif_links_the_elements_as_toulmin_does() -> None:
    kinds, edges = aif_structure(to_aif(CARS, timestamp="2026-11-23 12:00:00"))
    text = {field: one_line(CARS.text(field)) for field in FIELDS}
    assert {kinds[text[field]] for field in FIELDS if field != "qualifier"} == {"I"}
    assert text["qualifier"] not in kinds  # the qualifier is not a statement
    assert sorted(kinds.values()).count("RA") == 3 and list(kinds.values()).count("CA") == 1
    (main,) = {target for source, target in edges if source == text["grounds"]}
    assert kinds[main] == "RA" and (main, text["claim"]) in edges
    assert {source for source, target in edges if target == main} == {
        text["grounds"],
        text["warrant"],
        [name for name, kind in kinds.items() if kind == "CA"][0],
    }
    main_node = [n for n in json.loads(to_aif(CARS))["nodes"] if n.get("qualifier")]
    assert [(n["type"], n["qualifier"]) for n in main_node] == [("RA", text["qualifier"])]
    for backing, backed in (("grounds_backing", "grounds"), ("warrant_backing", "warrant")):
        (inference,) = {target for source, target in edges if source == text[backing]}
        assert kinds[inference] == "RA" and (inference, text[backed]) in edges
    (conflict,) = {target for source, target in edges if source == text["rebuttal"]}
    assert kinds[conflict] == "CA" and (conflict, main) in edges
    assert len(edges) == 2 + 1 + 2 * 2 + 2


def test_aif_leaves_out_what_is_not_written() -> None:
    draft = ToulminExport(title="Draft", claim="Pizza is tasty", grounds="80% of people say so.")
    kinds, edges = aif_structure(to_aif(draft))
    assert sorted(kinds.values()) == ["I", "I", "RA"]
    assert len(edges) == 2


@settings(max_examples=100, deadline=None)
@given(DOCUMENTS)
def test_aif_has_one_i_node_per_written_element(document: ToulminExport) -> None:
    nodes = json.loads(to_aif(document))["nodes"]
    written = [
        one_line(document.text(f)) for f in FIELDS if f != "qualifier" and document.text(f).strip()
    ]
    assert [node["text"] for node in nodes if node["type"] == "I"] == written


# --- the page and the downloads -------------------------------------------------


@pytest.fixture
def finished(argument: Argument) -> Argument:
    for field in FIELDS:
        setattr(argument, field, CARS.text(field))
    argument.claim = "Cities should ban cars <script>alert(1)</script> downtown."
    argument.current_step, argument.completed_at = "rebuttal", timezone.now()
    argument.save()
    return argument


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_page_shows_the_argument_assembled(student: Any, finished: Argument) -> None:
    page = client_for(student).get(f"/coach/{finished.pk}/toulmin/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    assert 'class="t-box t-claim"' in html and "Warrant backing" in html
    for fmt in EXPORT_FORMATS:
        assert f'href="/coach/{finished.pk}/export/{fmt}/" download' in html
    assert " style=" not in html and "<script>" not in html.replace("<script src=", "")


@pytest.mark.django_db
def test_the_coaching_page_links_a_complete_argument_to_its_diagram(
    student: Any, finished: Argument
) -> None:
    html = client_for(student).get(f"/coach/{finished.pk}/").content.decode()
    assert f'href="/coach/{finished.pk}/toulmin/"' in html


@pytest.mark.django_db
def test_the_list_links_a_complete_argument_to_its_diagram(
    student: Any, finished: Argument
) -> None:
    html = client_for(student).get("/coach/").content.decode()
    assert f'href="/coach/{finished.pk}/toulmin/"' in html


@pytest.mark.django_db
def test_the_diagram_names_its_boxes_in_the_readers_language(
    student: Any, spanish_argument: Argument
) -> None:
    spanish_argument.grounds = "Según un estudio de 2019."
    spanish_argument.save()
    html = client_for(student).get(f"/coach/{spanish_argument.pk}/toulmin/").content.decode()
    # The boxes' names and connectors are the page's words; the student's text keeps its
    # language (its lang attribute).
    assert '<html lang="en">' in html and 'class="toulmin-diagram"' in html
    assert '<p class="t-text" lang="es">Según un estudio de 2019.</p>' in html
    assert "Warrant backing" in html and "Respaldo de la garantía" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", list(EXPORT_FORMATS))
def test_each_download_reads_back_as_the_argument(
    student: Any, finished: Argument, fmt: str
) -> None:
    response = client_for(student).get(f"/coach/{finished.pk}/export/{fmt}/")
    assert response.status_code == 200
    extension = EXPORT_FORMATS[fmt][0]
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="car-free-city-centres.{extension}"'
    )
    body = response.content.decode()
    if fmt == "json":
        back = ToulminExport.model_validate_json(body)
        assert back.complete and back.claim == finished.claim
    elif fmt == "markdown":
        assert parse_markdown(body).claim == finished.claim
    elif fmt == "argdown":
        assert parse_argdown(body).rebuttal == one_line(finished.rebuttal)
    else:
        kinds, _ = aif_structure(body)
        assert kinds[finished.claim] == "I"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["toulmin/", *[f"export/{fmt}/" for fmt in EXPORT_FORMATS]])
def test_another_student_gets_a_404(other_student: Any, finished: Argument, path: str) -> None:
    assert client_for(other_student).get(f"/coach/{finished.pk}/{path}").status_code == 404


@pytest.mark.django_db
def test_an_unknown_format_is_a_404_and_a_visitor_is_sent_to_sign_in(
    student: Any, finished: Argument
) -> None:
    assert client_for(student).get(f"/coach/{finished.pk}/export/pdf/").status_code == 404
    response = Client().get(f"/coach/{finished.pk}/export/json/")
    assert response.status_code == 302 and "login" in response["Location"]


PROSE = [
    "School should start at 9 a.m. instead of 8 a.m.: at 8:30 most teens are asleep.",
    "9,000 parents' votes (and 40% of teachers) asked for it; see p. 12!",
    "A menos que los autobuses no puedan ir más tarde, ¿verdad?",
]
MARKUP = [
    "# not a heading",
    "1. not a list",
    "2) nor this",
    "- nor this",
    "+ nor this",
    "> not a quote",
    "a *b* _c_ `d` [e](f) <b>x</b> &amp; ![i](j) <http://x.y>",
    "line one\n---",
    "line one\n===",
    "```\nnot code\n```",
    "~~~",
    "back\\slash at the end\\",
]


@pytest.mark.parametrize("text", PROSE + MARKUP)
def test_it_writes_markdown_that_renders_as_the_students_words(text: str) -> None:
    from html import unescape

    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").render(escape_markdown(text))
    shown = unescape(re.sub(r"<(?!br)[^>]+>", "", html).replace("<br />\n", "\n")).strip()
    assert shown == text


@pytest.mark.parametrize("text", PROSE)
def test_it_leaves_prose_punctuation_unescaped_so_the_file_reads_as_prose(text: str) -> None:
    assert escape_markdown(text) == text
