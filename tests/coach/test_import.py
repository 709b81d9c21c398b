"""Importing an argument from Argdown or AIF: the reverse of the exports, and refusals.

Each of the thirteen fixed arguments is exported in each format and imported back
through the page; a hand-made AIF graph as OVA draws one (no qualifier field, the
rebuttal against the claim) is read by the documented mapping; files that cannot
be an argument get a sentence on the form, never a 5xx.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.exports import ToulminExport, to_aif, to_argdown, to_json
from coach.forms import IMPORT_REFUSALS
from coach.imports import ImportRefused, read_argument
from coach.models import Argument
from tests.coach.export_checks import one_line
from tests.coach.student_text import ARGUMENTS, FIELDS, student_arguments

WRITERS = {"aif.json": to_aif, "argdown": to_argdown, "json": to_json}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def upload(client: Client, name: str, body: str | bytes, **fields: str) -> Any:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return client.post(
        "/coach/import/", {"file": SimpleUploadedFile(name, data), "language": "en", **fields}
    )


# --- the reverse mapping (pure) -------------------------------------------------


def aif_keeps(argument: ToulminExport) -> dict[str, str]:
    """What an AIF export of an argument with its inference (a claim, and grounds or a
    warrant) keeps of each element, as docs/exports.md maps it: AIF names no roles, so a
    lone premise reads as the grounds."""
    text = {field: one_line(argument.text(field)) for field in FIELDS}
    for backed in ("grounds", "warrant"):
        if not text[backed]:
            text[f"{backed}_backing"] = ""
    if not text["grounds"]:
        text.update(grounds=text["warrant"], grounds_backing=text["warrant_backing"])
        text.update(warrant="", warrant_backing="")
    return text


@settings(max_examples=100, deadline=None)
@given(student_arguments())
def test_it_reads_back_what_aif_and_argdown_exports_keep(argument: ToulminExport) -> None:
    argdown = read_argument(to_argdown(argument), title="t", language=argument.language)
    assert {f: argdown.text(f) for f in FIELDS} == {f: one_line(argument.text(f)) for f in FIELDS}
    assert argdown.title == one_line(argument.title)
    if argument.claim.strip() and (argument.grounds.strip() or argument.warrant.strip()):
        aif = read_argument(to_aif(argument), title="t", language=argument.language)
        assert {f: aif.text(f) for f in FIELDS} == aif_keeps(argument)


def test_it_reads_an_aif_graph_drawn_elsewhere_by_the_documented_mapping() -> None:
    graph = {
        "nodes": [
            {"nodeID": 10, "text": "Homework should be optional.", "type": "I"},
            {"nodeID": 11, "text": "Pupils who skip it score the same.", "type": "I"},
            {"nodeID": 12, "text": "Work that changes nothing is not needed.", "type": "I"},
            {"nodeID": 13, "text": "A 2019 study of 4,000 pupils.", "type": "I"},
            {"nodeID": 14, "text": "Unless the tests measure the wrong thing.", "type": "I"},
            {"nodeID": 20, "text": "Default Inference", "type": "RA"},
            {"nodeID": 21, "text": "Default Inference", "type": "RA"},
            {"nodeID": 22, "text": "Default Conflict", "type": "CA"},
        ],
        "edges": [
            {"edgeID": 1, "fromID": 11, "toID": 20},
            {"edgeID": 2, "fromID": 12, "toID": 20},
            {"edgeID": 3, "fromID": 20, "toID": 10},
            {"edgeID": 4, "fromID": 13, "toID": 21},
            {"edgeID": 5, "fromID": 21, "toID": 11},
            {"edgeID": 6, "fromID": 14, "toID": 22},
            {"edgeID": 7, "fromID": 22, "toID": 10},
        ],
        "locutions": [],
    }
    back = read_argument(json.dumps(graph), title="Homework", language="en")
    assert (back.claim, back.grounds, back.warrant) == (
        "Homework should be optional.",
        "Pupils who skip it score the same.",
        "Work that changes nothing is not needed.",
    )
    assert back.grounds_backing == "A 2019 study of 4,000 pupils." and back.warrant_backing == ""
    assert back.rebuttal == "Unless the tests measure the wrong thing." and back.qualifier == ""


def test_it_reads_a_graph_without_an_inference_as_its_first_claim() -> None:
    graph = {"nodes": [{"nodeID": "7", "text": " Homework helps. ", "type": "I"}], "edges": []}
    back = read_argument(json.dumps(graph), title="t", language="es")
    assert (back.claim, back.grounds, back.language) == ("Homework helps.", "", "es")


@pytest.mark.parametrize(
    "text, code",
    [
        ("", "empty"),
        ("{not json", "not_json"),
        ('{"nodes": 3}', "not_aif"),
        ('{"format": "argue.toulmin", "version": 2}', "bad_site_json"),
        ('{"nodes": [{"nodeID": "1", "text": "x", "type": "RA"}], "edges": []}', "no_statement"),
        ("# A heading\n\n[Thesis]: Argdown from elsewhere.", "no_argdown_steps"),
        ("[" * 50_000, "no_argdown_steps"),
        ('{"a":' * 30 + "1" + "}" * 30, "not_aif"),
    ],
)
def test_it_refuses_a_file_that_is_not_an_argument_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        read_argument(text, title="t", language="en")
    assert refused.value.code == code


# --- the page ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("extension", list(WRITERS))
def test_it_imports_each_of_the_thirteen_exports_as_a_new_draft(
    student: Any, extension: str
) -> None:
    client = client_for(student)
    for argument in ARGUMENTS:
        response = upload(client, f"x.{extension}", WRITERS[extension](argument))
        assert response.status_code == 302, response.content.decode()[:500]
        draft = Argument.objects.filter(owner=student).order_by("-id").first()
        assert response["Location"] == f"/coach/{draft.pk}/"
        same = (lambda t: t) if extension == "json" else one_line
        assert draft.title == (argument.title if extension != "aif.json" else "x")
        for field in FIELDS:
            assert getattr(draft, field) == same(argument.text(field)), (extension, field)
        assert draft.current_step == ("qualifier" if not argument.qualifier else "rebuttal")
        assert not draft.is_complete and draft.provenance["claim"] == "typed"


@pytest.mark.django_db
def test_it_names_an_aif_import_by_the_title_given_or_the_files_name(student: Any) -> None:
    client = client_for(student)
    upload(client, "bike_lanes-2026.aif.json", to_aif(ARGUMENTS[0]), language="es")
    draft = Argument.objects.get(owner=student)
    assert (draft.title, draft.language) == ("bike lanes 2026", "es")
    upload(client, "x.json", to_aif(ARGUMENTS[0]), title="Car-free streets")
    assert Argument.objects.filter(owner=student, title="Car-free streets").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, sentence",
    [
        (b"\xff\xfe\x00binary", "not text in UTF-8"),
        ("# Notes\n\n[Thesis]: mine", "No step of a Toulmin argument was found"),
        ("{broken", "not valid JSON"),
        ("x" * 200_001, "larger than 200 KB"),
        ('{"format": "argue.toulmin", "version": 1, "title": "t", "claim": "a\\u0000"}', "cannot be stored"),
    ],
)  # fmt: skip
def test_it_says_why_a_file_is_refused_and_keeps_nothing(
    student: Any, body: str | bytes, sentence: str
) -> None:
    response = upload(client_for(student), "f.json", body)
    assert response.status_code == 200
    html = response.content.decode()
    assert sentence in html and 'role="alert"' in html
    assert not Argument.objects.filter(owner=student).exists()


@pytest.mark.django_db
def test_it_speaks_spanish_on_the_page_and_in_a_refusal(student: Any) -> None:
    client = client_for(student)
    client.cookies["django_language"] = "es"
    assert "Importar un argumento" in client.get("/coach/import/").content.decode()
    html = upload(client, "f.json", "{broken").content.decode()
    assert "no es JSON válido" in html


@pytest.mark.django_db
def test_it_needs_a_signed_in_student_and_a_csrf_token(student: Any) -> None:
    response = Client().get("/coach/import/")
    assert response.status_code == 302 and "login" in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(student)
    body = SimpleUploadedFile("x.json", to_json(ARGUMENTS[0]).encode())
    assert strict.post("/coach/import/", {"file": body}).status_code == 403
    list_page = client_for(student).get("/coach/").content.decode()
    assert 'href="/coach/import/"' in list_page


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
AIF_LIKE = st.fixed_dictionaries(
    {
        "nodes": st.lists(
            st.fixed_dictionaries(
                {"nodeID": st.sampled_from(["1", "2", "3", 4]), "text": JSON_VALUES,
                 "type": st.sampled_from(["I", "RA", "CA", "MA", "L", 3])},
                optional={"qualifier": JSON_VALUES},
            ),
            max_size=6,
        ),
        "edges": st.lists(
            st.fixed_dictionaries({"fromID": st.sampled_from(["1", "2", "3", "4", None]),
                                   "toID": st.sampled_from(["1", "2", "3", "4", 7])}),
            max_size=8,
        ),
    }
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), JSON_VALUES.map(json.dumps), AIF_LIKE.map(json.dumps)))
def test_it_reads_any_file_or_refuses_it_with_a_reason(text: str) -> None:
    try:
        back = read_argument(text, title="t", language="en")
    except ImportRefused as refused:
        assert refused.code in IMPORT_REFUSALS
    else:
        assert any(back.text(field).strip() for field in FIELDS)
