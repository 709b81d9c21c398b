"""Uploading a source: hostile files get the plain refusal every bad file gets; a rate per user."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from casefiles import services
from tests.casefiles import pdfs

pytestmark = pytest.mark.django_db


@pytest.fixture
def case_file(owner):
    return services.create_case_file(owner=owner, title="Readings")


def _upload(client, case_file, name: str, data: bytes):
    upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    url = reverse("casefiles:source_upload", args=[case_file.pk])
    return client.post(url, {"file": upload})


@pytest.mark.parametrize("name", ["deflate bomb", "deep page tree", "token bomb"])
def test_it_answers_a_pdf_bomb_with_the_plain_refusal(client, owner, case_file, name) -> None:
    client.force_login(owner)
    response = _upload(client, case_file, "bomb.pdf", pdfs.HOSTILE_PDFS[name]())
    assert response.status_code == 400  # a 500 before: pypdf's limit errors were not caught
    assert "This PDF could not be read. Upload another copy, or paste the text." in (
        response.content.decode()
    )
    assert not case_file.sources.exists()


def test_it_limits_how_many_sources_a_student_adds_an_hour(
    client, owner, case_file, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "source": (2, 3600)}
    client.force_login(owner)
    assert _upload(client, case_file, "a.txt", b"First text.").status_code == 302
    # A refused file counts too: every attempt may cost a PDF reader's seconds.
    assert _upload(client, case_file, "b.pdf", b"not a pdf").status_code == 400
    response = _upload(client, case_file, "c.txt", b"Third text.")
    assert response.status_code == 400
    assert "You have reached the limit for new sources in case files: 2 per hour" in (
        response.content.decode()
    )
    pasted = client.post(
        reverse("casefiles:source_add", args=[case_file.pk]), {"title": "P", "text": "Pasted."}
    )
    assert pasted.status_code == 400 and case_file.sources.count() == 1
