"""Staff with the view permission read inquiries, claims and calculations in the admin,
and can neither add, change nor delete them; claims filter by grade and by defect."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from inquiries.models import Calc, Inquiry, RegisteredClaim
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)

MODELS = {"inquiry": Inquiry, "registeredclaim": RegisteredClaim, "calc": Calc}


@pytest.fixture
def run(start):
    """A finished inquiry with a grade-D claim (a broken chain) and a calculation, plus by hand
    a sound claim and one whose defect's detail quotes another code (it must not match)."""
    debate = start(FakeInquiryModel(broken_thesis=True, calc=True))
    assert RegisteredClaim.objects.filter(inquiry_id=debate.pk, grade="D").exists()
    assert Calc.objects.filter(inquiry_id=debate.pk).exists()
    RegisteredClaim.objects.create(
        inquiry_id=debate.pk,
        key="C-90",
        text="Sound.",
        registered_by="advocate",
        round=1,
        chains=[{"span": "S1.1", "source": "SRC-1", "origins": []}],
        grade="C",
        defects=[],
    )
    quoted = 'not "code": "BROKEN_CHAIN" but a missing link'
    RegisteredClaim.objects.create(
        inquiry_id=debate.pk,
        key="C-91",
        text="Gap.",
        registered_by="advocate",
        round=1,
        chains=[{"span": "", "source": "SRC-1", "origins": []}],
        grade="D",
        defects=[{"code": "MISSING_LINK", "chain": 0, "fatal": True, "detail": quoted}],
    )
    return debate


@pytest.fixture
def viewer(client):
    user = get_user_model().objects.create_user("viewer", password="x" * 12, is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="inquiries", codename__startswith="view_")
    )
    client.force_login(user)
    return user


def _first(model_name: str, debate):
    model = MODELS[model_name]
    rows = (
        model.objects.filter(pk=debate.pk)
        if model is Inquiry
        else model.objects.filter(inquiry_id=debate.pk)
    )
    return rows.order_by("pk").first()


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_it_lets_a_viewer_read_the_list_and_a_row(client, viewer, run, model_name) -> None:
    row = _first(model_name, run)
    listing = client.get(reverse(f"admin:inquiries_{model_name}_changelist"))
    assert listing.status_code == 200
    assert reverse(f"admin:inquiries_{model_name}_add") not in listing.content.decode()
    page = client.get(reverse(f"admin:inquiries_{model_name}_change", args=[row.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and "readonly" in html
    assert reverse(f"admin:inquiries_{model_name}_delete", args=[row.pk]) not in html


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_it_refuses_a_viewer_adding_changing_or_deleting(client, viewer, run, model_name) -> None:
    row = _first(model_name, run)
    model = MODELS[model_name]
    before = model.objects.count()
    assert client.get(reverse(f"admin:inquiries_{model_name}_add")).status_code == 403
    change = reverse(f"admin:inquiries_{model_name}_change", args=[row.pk])
    assert client.post(change, {"key": "X-1", "text": "changed"}).status_code == 403
    delete = reverse(f"admin:inquiries_{model_name}_delete", args=[row.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    listing = reverse(f"admin:inquiries_{model_name}_changelist")
    bulk = {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}
    client.post(listing, bulk)
    assert model.objects.count() == before
    assert model.objects.filter(pk=row.pk).exists()


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_it_keeps_the_rows_read_only_even_for_a_superuser(client, run, model_name) -> None:
    client.force_login(get_user_model().objects.create_superuser("root", password="x" * 12))
    row = _first(model_name, run)
    assert client.get(reverse(f"admin:inquiries_{model_name}_add")).status_code == 403
    page = client.get(reverse(f"admin:inquiries_{model_name}_change", args=[row.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    delete = reverse(f"admin:inquiries_{model_name}_delete", args=[row.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert MODELS[model_name].objects.filter(pk=row.pk).exists()


def test_it_refuses_staff_without_the_view_permission(client, run) -> None:
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    for model_name in MODELS:
        url = reverse(f"admin:inquiries_{model_name}_changelist")
        assert client.get(url).status_code == 403, model_name


def _listed_keys(client, query: dict) -> set[str]:
    response = client.get(reverse("admin:inquiries_registeredclaim_changelist"), query)
    assert response.status_code == 200
    return {claim.key for claim in response.context["cl"].result_list}


def test_it_filters_claims_by_grade(client, viewer, run) -> None:
    claims = RegisteredClaim.objects.filter(inquiry_id=run.pk)
    graded_d = {c.key for c in claims if c.grade == "D"}
    assert _listed_keys(client, {"grade__exact": "D"}) == graded_d
    assert _listed_keys(client, {"grade__exact": "C"}) == {c.key for c in claims if c.grade == "C"}


def test_it_filters_claims_by_defect_code(client, viewer, run) -> None:
    claims = list(RegisteredClaim.objects.filter(inquiry_id=run.pk))

    def having(code: str) -> set[str]:
        return {c.key for c in claims if any(d["code"] == code for d in c.defects)}

    assert having("BROKEN_CHAIN") and having("MISSING_LINK") == {"C-91"}
    for code in ("BROKEN_CHAIN", "MISSING_LINK", "UNKNOWN_SOURCE"):
        assert _listed_keys(client, {"defect": code}) == having(code), code
    everything = {c.key for c in claims}
    assert _listed_keys(client, {}) == everything
    page = client.get(reverse("admin:inquiries_registeredclaim_changelist")).content.decode()
    assert "?defect=BROKEN_CHAIN" in page
