"""Where a student lands: their own page after sign-in, the home page's calls to action,
the Instructors card only for staff, real 404 and 500 pages, and a favicon."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from coach.services import create_argument
from engine.models import Debate
from trials.models import Trial

PASSWORD = "a-long-enough-pass"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ana(db):
    return get_user_model().objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(
        "tess", password=PASSWORD, is_staff=True, is_superuser=True
    )


def test_it_lands_a_student_on_their_own_page_after_sign_in(client: Client, ana) -> None:
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1] == (reverse("dashboard"), 302)
    assert response.status_code == 200


def test_it_lands_an_instructor_on_their_classes_after_sign_in(client: Client, db) -> None:
    from classroom.models import Classroom
    from classroom.services import make_instructor

    teacher = make_instructor(user=get_user_model().objects.create_user("tina", password=PASSWORD))
    Classroom.objects.create(name="Rhetoric 101").instructors.add(teacher)
    response = client.post(
        reverse("login"), {"username": "tina", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1] == (reverse("admin:index"), 302)
    body = response.content.decode()
    assert "My classes" in body and "Rhetoric 101" in body
    assert "You are not in a class yet" not in body


def test_it_sends_a_signed_in_user_from_the_home_page_to_their_own(client: Client, ana) -> None:
    client.force_login(ana)
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")


def test_it_lists_the_students_own_work_with_a_call_to_action(client: Client, ana) -> None:
    ben = get_user_model().objects.create_user("ben", password=PASSWORD)
    create_argument(owner=ana, title="Ana's bike lanes", language="en")
    create_argument(owner=ben, title="Ben's tram fares", language="en")
    Trial.objects.create(owner=ana, query="Should homework be banned?")
    Debate.objects.create(topic="Ana's debate on school uniforms", creator=ana)
    Debate.objects.create(topic="Ben's debate on tolls", creator=ben)
    client.force_login(ana)

    body = client.get(reverse("dashboard")).content.decode()

    assert f'href="{reverse("coach:argument_new")}"' in body
    assert "Start an argument" in body
    for own in ("Ana&#x27;s bike lanes", "Should homework be banned?", "Ana&#x27;s debate"):
        assert own in body
    assert "Ben" not in body


@pytest.mark.parametrize("signup_open", [True, False])
def test_it_invites_a_visitor_to_sign_up_or_in(client: Client, db, settings, signup_open) -> None:
    settings.SIGNUP_OPEN = signup_open
    body = client.get(reverse("home")).content.decode()
    assert (
        f'class="button big" href="{reverse("login" if not signup_open else "coach:signup")}"'
        in body
    )
    assert ("Create an account" in body) is signup_open


def test_it_asks_anonymous_visitors_to_sign_in_for_the_students_page(client: Client, db) -> None:
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_shows_the_instructors_link_only_to_staff(client: Client, ana, staff) -> None:
    admin = f'href="{reverse("admin:index")}"'
    # The public page still says what instructors get, without a link they could not use.
    body = client.get(reverse("home")).content.decode()
    assert "Instructors" in body and admin not in body

    client.force_login(ana)
    body = client.get(reverse("dashboard")).content.decode()
    assert "Instructors" not in body and admin not in body

    client.force_login(staff)
    body = client.get(reverse("dashboard")).content.decode()
    assert "Instructors" in body and admin in body


def test_it_answers_an_unknown_address_with_its_own_404_page(client: Client, ana) -> None:
    client.force_login(ana)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Page not found" in body
    assert f'href="{reverse("dashboard")}"' in body
    assert "Sign out" in body  # the site's own header, not Django's bare page


def test_it_renders_the_500_page_without_the_database_or_a_request_context() -> None:
    # No `db` fixture: pytest-django fails this test if the page touches the database.
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body
    assert 'href="/"' in body
    assert "/static/css/app.css" in body


def test_it_serves_a_favicon_and_links_it_from_every_page(client: Client, db) -> None:
    body = client.get(reverse("home")).content.decode()
    assert 'rel="icon" href="/static/img/favicon.svg"' in body

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/favicon.ico"
    with open(finders.find("img/favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file's header
    with open(finders.find("img/favicon.svg"), encoding="utf-8") as svg:
        assert svg.read().startswith("<svg")


def test_it_answers_a_page_the_account_may_not_open_with_its_own_403_page(
    client: Client, ana
) -> None:
    client.force_login(ana)
    ana.is_staff = True  # an instructor without the permission this admin page needs
    ana.save()
    with translation.override("es"):
        response = client.get(
            reverse("admin:lti_tool_ltiregistration_add"), headers={"accept-language": "es"}
        )
    assert response.status_code == 403
    body = response.content.decode()
    assert "No está abierta a tu cuenta" in body and "Not open" not in body
    assert f'href="{reverse("dashboard")}"' in body


def test_it_explains_a_refused_form_in_plain_words(client: Client, ana) -> None:
    refusing = Client(enforce_csrf_checks=True)
    refusing.force_login(ana)
    response = refusing.post(reverse("coach:argument_new"), {"title": "Cars"})
    assert response.status_code == 403
    body = response.content.decode()
    assert "The form could not be sent" in body and "CSRF verification" not in body
    assert "Sign out" in body  # the site's own page, not Django's
