"""The header's language switch: a plain POST form to Django's set_language, remembered in a cookie."""

import re

import pytest
from django.conf import settings
from django.test import Client

from coach.models import Argument


def _switch_form(body: str) -> str:
    match = re.search(r'<form class="lang-switch".*?</form>', body, re.DOTALL)
    assert match, "no language switch in the header"
    return match.group(0)


def test_it_offers_the_other_language_as_a_button_in_the_header(client: Client) -> None:
    form = _switch_form(client.get("/").content.decode())
    assert 'method="post"' in form and 'action="/i18n/setlang/"' in form
    assert 'name="csrfmiddlewaretoken"' in form
    assert '<button type="submit" name="language" value="es" lang="es"' in form
    assert 'value="en"' not in form  # the current language is not offered again
    assert "<script" not in form and "style=" not in form


def test_it_offers_english_on_a_spanish_page(client: Client) -> None:
    form = _switch_form(client.get("/", headers={"accept-language": "es"}).content.decode())
    assert 'value="en" lang="en"' in form and ">English</button>" in form
    assert 'aria-label="Idioma"' in form


def test_it_switches_to_spanish_and_remembers_it_in_a_lasting_cookie(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/trials/"})
    assert response.status_code == 302
    assert response["Location"] == "/trials/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "es"
    assert int(cookie["max-age"]) >= 30 * 24 * 60 * 60

    # No Accept-Language at all: the cookie alone decides.
    body = client.get("/").content.decode()
    assert '<html lang="es">' in body
    assert ">English</button>" in body


@pytest.mark.django_db
def test_it_keeps_the_choice_after_signing_in(client: Client, django_user_model) -> None:
    django_user_model.objects.create_user("ana", password="s3cret-pass-word")
    client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    client.post("/accounts/login/", {"username": "ana", "password": "s3cret-pass-word"})
    assert '<html lang="es">' in client.get("/coach/").content.decode()


def test_it_refuses_a_switch_without_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert response.status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_it_ignores_a_next_that_leaves_the_site(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "es", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_it_offers_the_other_language_on_the_page_of_an_argument_in_it(
    client: Client, django_user_model
) -> None:
    student = django_user_model.objects.create_user("ana", password="s3cret-pass-word")
    argument = Argument.objects.create(owner=student, title="Buses", language="es")
    client.force_login(student)

    body = client.get(f"/coach/{argument.pk}/").content.decode()  # the site speaks English

    assert '<html lang="en">' in body  # the page follows the reader, not the argument
    form = _switch_form(body)
    assert 'value="es" lang="es"' in form and 'value="en"' not in form


def test_the_choice_outranks_the_browsers_language(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    body = client.get("/", headers={"accept-language": "es"}).content.decode()
    assert '<html lang="en">' in body
