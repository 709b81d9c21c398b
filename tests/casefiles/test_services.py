"""Adding sources: spans with exact offsets; bad files refused, the case file unchanged."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from casefiles import services
from casefiles.demo import load_demo_case_file
from casefiles.extraction import extract_text
from casefiles.models import Source, Span
from tests.casefiles.pdfs import encrypted_pdf, image_only_pdf, no_pages_pdf, text_pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def case_file():
    owner = get_user_model().objects.create_user("ada")
    return services.create_case_file(owner=owner, title="Readings")


def _unchanged(case_file) -> bool:
    return not Source.objects.filter(case_file=case_file).exists() and not Span.objects.exists()


def test_it_splits_a_pasted_source_into_exact_spans(case_file) -> None:
    text = "First paragraph about buses.\n\nSecond paragraph about air. " * 3
    source = services.add_source(case_file=case_file, title="Notes", text=text)
    spans = list(source.spans.all())
    assert spans and all(text[s.start : s.end] == s.text for s in spans)
    assert [s.key for s in spans][:2] == [f"S{source.pk}.1", f"S{source.pk}.2"]


def test_it_reads_the_text_layer_of_a_pdf(case_file) -> None:
    pdf = text_pdf(["Traffic fell by 22 percent.", "Bus speeds rose."])
    source = services.add_uploaded_source(case_file=case_file, filename="study.pdf", data=pdf)
    assert source.kind == "pdf" and "Traffic fell by 22 percent." in source.text


@pytest.mark.parametrize(
    ("filename", "data", "words"),
    [
        ("junk.txt", bytes(range(256)) * 8, "UTF-8"),
        ("junk.md", b"text\x00\x01\x02binary", "binary"),
        ("scan.pdf", image_only_pdf(), "no text layer"),
        ("empty.pdf", no_pages_pdf(), "no pages"),
        ("broken.pdf", b"%PDF-1.4\nthis is not really a pdf", "could not be read"),
        ("cut.pdf", text_pdf(["Half a file."])[:200], "could not be read"),
        ("locked.pdf", encrypted_pdf(), "password-protected"),
        ("fake.pdf", b"just words, not a PDF", "could not be read"),
        ("empty.txt", b"   \n\n ", "empty"),
        ("picture.png", b"\x89PNG\r\n", "Only .txt, .md and .pdf"),
    ],
)
def test_it_refuses_a_bad_file_and_leaves_the_case_file_as_it_was(
    case_file, filename, data, words
) -> None:
    with pytest.raises(services.SourceRefused) as refused:
        services.add_uploaded_source(case_file=case_file, filename=filename, data=data)
    assert words in refused.value.message
    assert _unchanged(case_file)


def test_it_refuses_a_file_over_the_size_cap(case_file, settings) -> None:
    settings.CASEFILE_MAX_UPLOAD_BYTES = 1024
    with pytest.raises(services.SourceRefused) as refused:
        services.add_uploaded_source(case_file=case_file, filename="a.txt", data=b"a" * 2048)
    assert "larger than" in refused.value.message
    assert _unchanged(case_file)


def test_it_refuses_the_same_text_twice(case_file) -> None:
    services.add_source(case_file=case_file, title="One", text="Same words.")
    with pytest.raises(services.SourceRefused):
        services.add_source(case_file=case_file, title="Two", text="Same words.")
    assert Source.objects.filter(case_file=case_file).count() == 1


def test_it_keeps_the_origin_a_source_reports_from(case_file) -> None:
    study = services.add_source(case_file=case_file, title="Study", text="Traffic fell 22%.")
    news = services.add_source(
        case_file=case_file, title="News", text="A study says 22%.", upstream_origin_id=study.pk
    )
    retold = services.add_source(
        case_file=case_file, title="Blog", text="News says 22%.", upstream_origin_id=news.pk
    )
    assert retold.root_origin_id() == study.pk and news.upstream_origin_id == study.pk


def test_it_refuses_an_origin_from_another_case_file(case_file) -> None:
    other = services.create_case_file(owner=case_file.owner, title="Other")
    elsewhere = services.add_source(case_file=other, title="Elsewhere", text="Words.")
    with pytest.raises(services.SourceRefused):
        services.add_source(
            case_file=case_file, title="X", text="More words.", upstream_origin_id=elsewhere.pk
        )
    assert _unchanged(case_file) is False or not case_file.sources.exists()


def test_extract_text_accepts_utf8_with_a_bom() -> None:
    extracted = extract_text(filename="notes.MD", data="\ufeff# Título\n\nTexto.".encode())
    assert extracted.kind == "md" and extracted.text.startswith("# Título")


def test_it_refuses_an_origin_that_would_make_a_reporting_loop(case_file) -> None:
    study = services.add_source(case_file=case_file, title="Study", text="Traffic fell 22%.")
    news = services.add_source(
        case_file=case_file, title="News", text="A study says 22%.", upstream_origin_id=study.pk
    )
    with pytest.raises(services.SourceRefused):
        services.set_upstream_origin(source=study, origin=news)
    with pytest.raises(services.SourceRefused):
        services.set_upstream_origin(source=study, origin=study)
    study.refresh_from_db()
    assert study.upstream_origin_id is None and news.root_origin_id() == study.pk
    services.set_upstream_origin(source=news, origin=None)
    news.refresh_from_db()
    assert news.upstream_origin_id is None and news.root_origin_id() == news.pk


def test_the_demo_loads_once_with_two_reports_of_one_study(case_file) -> None:
    first = load_demo_case_file(owner=case_file.owner)
    again = load_demo_case_file(owner=case_file.owner)
    assert first.pk == again.pk and first.sources.count() == 5
    origins = [source.root_origin_id() for source in first.sources.all()]
    study = first.sources.filter(upstream_origin=None, reports__isnull=False).distinct().get()
    assert origins.count(study.pk) == 3  # the study and the two articles quoting it
    assert all(
        s.text[sp.start : sp.end] == sp.text for s in first.sources.all() for sp in s.spans.all()
    )
