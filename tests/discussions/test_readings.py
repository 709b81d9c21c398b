"""A discussion's readings: the instructor's pinned note and a case file's sources, for the class."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from casefiles.models import CaseFile, Source
from discussions.models import Discussion

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _source(case_file: CaseFile, title: str, text: str) -> Source:
    return Source.objects.create(
        case_file=case_file, title=title, author="OECD", kind="pasted", text=text, sha256=title
    )


@pytest.fixture
def readings(discussion: Discussion, teacher: Any) -> dict[str, Any]:
    # The teacher's private case file: attached, the class reads it through the discussion.
    case_file = CaseFile.objects.create(title="Homework studies", owner=teacher)
    source = _source(case_file, "PISA 2015 <i>homework</i>", "Students who do more <b>homework</b>")
    other = _source(
        CaseFile.objects.create(title="Someone else's", owner=teacher), "Elsewhere", "secret"
    )
    discussion.case_file = case_file
    discussion.readings = "Read pages 3-5 first: https://example.org/report <script>x</script>"
    discussion.save()
    return {"source": source, "other": other}


def test_it_pins_the_readings_above_the_posts(
    readings: dict, discussion: Discussion, student: Any
) -> None:
    page = _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert page.index("Readings") < page.index("What stands")
    assert "Read pages 3-5 first" in page and "<script>x</script>" not in page
    assert 'href="https://example.org/report"' in page
    assert "PISA 2015 &lt;i&gt;homework&lt;/i&gt;" in page
    assert f"/discussions/{discussion.pk}/readings/{readings['source'].pk}/" in page


def test_it_lets_the_class_read_a_source_of_a_private_case_file(
    readings: dict, discussion: Discussion, student: Any
) -> None:
    url = f"/discussions/{discussion.pk}/readings/{readings['source'].pk}/"
    page = _client(student).get(url).content.decode()
    assert "Students who do more &lt;b&gt;homework&lt;/b&gt;" in page
    # The case file itself stays private: its own page is not theirs.
    assert _client(student).get(f"/casefiles/{readings['source'].case_file_id}/").status_code == 404


def test_it_shows_a_reading_only_to_the_class_and_only_its_own_sources(
    readings: dict, discussion: Discussion, student: Any, outsider: Any, other_teacher: Any
) -> None:
    url = f"/discussions/{discussion.pk}/readings/{readings['source'].pk}/"
    for user in (outsider, other_teacher):
        assert _client(user).get(url).status_code == 404
    assert "/login" in Client().get(url)["Location"]
    elsewhere = f"/discussions/{discussion.pk}/readings/{readings['other'].pk}/"
    assert _client(student).get(elsewhere).status_code == 404
    discussion.case_file = None
    discussion.save()
    assert _client(student).get(url).status_code == 404


def test_it_offers_only_the_instructors_own_and_public_case_files(
    discussion: Discussion, teacher: Any, other_teacher: Any
) -> None:
    CaseFile.objects.create(title="Mine", owner=teacher)
    CaseFile.objects.create(title="Theirs, private", owner=other_teacher)
    CaseFile.objects.create(title="Theirs, public", owner=other_teacher, visibility="public")
    form = _client(teacher).get(f"/admin/discussions/discussion/{discussion.pk}/change/")
    choices = {str(c) for c in form.context["adminform"].form.fields["case_file"].queryset}
    assert choices == {"Mine", "Theirs, public"}
