"""The case file pages: owner-only writes, 404 for others' private files, clear refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from casefiles import services
from casefiles.models import Source, Visibility
from tests.casefiles.pdfs import image_only_pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def case_file(owner):
    case_file = services.create_case_file(owner=owner, title="Readings <b>")
    services.add_source(case_file=case_file, title="Study", text="Traffic fell by 22%.")
    return case_file


def _urls(case_file) -> list[str]:
    source = case_file.sources.first()
    return [
        reverse("casefiles:detail", args=[case_file.pk]),
        reverse("casefiles:source", args=[case_file.pk, source.pk]),
        reverse("casefiles:search", args=[case_file.pk]) + "?q=traffic",
    ]


def test_it_shows_the_owner_everything_escaped(client, owner, case_file) -> None:
    client.force_login(owner)
    for url in _urls(case_file):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"Readings <b>" not in response.content
    assert b"<mark>Traffic</mark>" in client.get(_urls(case_file)[2]).content


def test_it_hides_a_private_case_file_from_everyone_else(client, case_file) -> None:
    other = get_user_model().objects.create_user("eve")
    client.force_login(other)
    for url in _urls(case_file):
        assert client.get(url).status_code == 404, url
    add = reverse("casefiles:source_add", args=[case_file.pk])
    assert client.post(add, {"title": "x", "text": "y"}).status_code == 404
    assert Source.objects.filter(case_file=case_file).count() == 1


def test_it_lets_others_read_but_not_change_a_public_case_file(client, case_file) -> None:
    case_file.visibility = Visibility.PUBLIC
    case_file.save()
    client.force_login(get_user_model().objects.create_user("eve"))
    assert all(client.get(url).status_code == 200 for url in _urls(case_file))
    add = reverse("casefiles:source_add", args=[case_file.pk])
    assert client.post(add, {"title": "x", "text": "y"}).status_code == 404


def test_it_sends_anonymous_visitors_to_sign_in(client, case_file) -> None:
    for url in _urls(case_file):
        assert client.get(url).status_code == 302


def test_it_needs_the_csrf_token_to_add_a_source(owner, case_file) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    add = reverse("casefiles:source_add", args=[case_file.pk])
    assert client.post(add, {"title": "x", "text": "y"}).status_code == 403


def test_it_creates_a_case_file_and_adds_a_pasted_source(client, owner) -> None:
    client.force_login(owner)
    response = client.post(reverse("casefiles:new"), {"title": "Mine", "visibility": "private"})
    case_file = owner.case_files.get(title="Mine")
    assert response.url == case_file.get_absolute_url()
    response = client.post(
        reverse("casefiles:source_add", args=[case_file.pk]),
        {"title": "Notes", "text": "Buses ran 9% faster.", "author": "Me"},
    )
    assert response.status_code == 302 and case_file.sources.get().author == "Me"


def test_it_explains_a_scanned_pdf_and_keeps_the_file_unchanged(client, owner, case_file) -> None:
    client.force_login(owner)
    upload = SimpleUploadedFile("scan.pdf", image_only_pdf(), content_type="application/pdf")
    response = client.post(
        reverse("casefiles:source_upload", args=[case_file.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "no text layer" in response.content.decode()
    assert case_file.sources.count() == 1


def test_it_refuses_a_huge_upload_before_reading_it(client, owner, case_file, settings) -> None:
    settings.CASEFILE_MAX_UPLOAD_BYTES = 1024 * 1024
    client.force_login(owner)
    upload = SimpleUploadedFile("big.txt", b"a" * (3 * 1024 * 1024), content_type="text/plain")
    response = client.post(
        reverse("casefiles:source_upload", args=[case_file.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "larger than 1 MB" in response.content.decode()
    assert case_file.sources.count() == 1


def test_it_lists_my_case_files(client, owner, case_file) -> None:
    client.force_login(owner)
    assert "Readings &lt;b&gt;" in client.get(reverse("casefiles:list")).content.decode()


@pytest.mark.slow
def test_it_refuses_a_50_mb_upload_before_reading_it(client, owner, case_file) -> None:
    client.force_login(owner)
    upload = SimpleUploadedFile("big.txt", b"a" * (50 * 1024 * 1024), content_type="text/plain")
    response = client.post(
        reverse("casefiles:source_upload", args=[case_file.pk]), {"file": upload}
    )
    # The body is over MAX_REQUEST_BODY_BYTES (11 MB): refused by limits/body.py, unread.
    assert response.status_code == 413
    assert "at most 11 MB in one request" in response.content.decode()
    assert case_file.sources.count() == 1


def test_it_refuses_an_upload_just_over_the_file_cap_on_the_form(client, owner, case_file) -> None:
    client.force_login(owner)
    data = b"a" * (10 * 1024 * 1024 + 100 * 1024)
    upload = SimpleUploadedFile("big.txt", data, content_type="text/plain")
    response = client.post(
        reverse("casefiles:source_upload", args=[case_file.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "larger than 10 MB" in response.content.decode()
    assert case_file.sources.count() == 1


def test_it_needs_the_csrf_token_to_upload_or_create(owner, case_file) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    upload = SimpleUploadedFile("a.txt", b"words", content_type="text/plain")
    url = reverse("casefiles:source_upload", args=[case_file.pk])
    assert client.post(url, {"file": upload}).status_code == 403
    assert client.post(reverse("casefiles:new"), {"title": "x"}).status_code == 403
    assert case_file.sources.count() == 1
