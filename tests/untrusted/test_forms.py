"""untrusted.forms: the text validator, the id-list field and the sign-in username axes keeps."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.test import Client

from engine.models import Persona
from untrusted.forms import IdsChoiceField, validate_storable_text

pytestmark = pytest.mark.django_db


class PickForm(forms.Form):
    note = forms.CharField(validators=[validate_storable_text])
    personas = IdsChoiceField(queryset=Persona.objects.all())


@pytest.mark.parametrize("bad", ["²", "9" * 40, str(2**63), "-1", "", "1.0"])
def test_it_refuses_ids_no_database_holds_before_any_query(bad: str) -> None:
    persona = Persona.objects.create(name="Tester", worldview="Tests things.")
    form = PickForm({"note": "ok", "personas": [str(persona.pk), bad]})
    assert not form.is_valid()
    assert form.errors["personas"][0].endswith("is not a valid value.")


def test_it_accepts_real_ids() -> None:
    persona = Persona.objects.create(name="Tester", worldview="Tests things.")
    form = PickForm({"note": "ok", "personas": [str(persona.pk)]})
    assert form.is_valid(), form.errors
    assert list(form.cleaned_data["personas"]) == [persona]


def test_it_refuses_unstorable_text_in_a_form() -> None:
    form = PickForm({"note": "half \ud83d", "personas": []})
    assert not form.is_valid() and "cannot be saved" in form.errors["note"][0]


@pytest.mark.parametrize("username", ["a" * 300, "nul\x00name", "²" * 200])
def test_it_records_a_failed_sign_in_whatever_the_username(username: str, settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    response = Client().post("/accounts/login/", {"username": username, "password": "wrong"})
    assert response.status_code == 200  # the form again, with its error
