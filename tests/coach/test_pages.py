"""The coach's pages through Django's test client: who sees what, forms, language, escaping."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from coach.models import Argument, CoachMessage
from coach.services import create_argument

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('x')</script>"


@pytest.fixture
def ada(client: Client):
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob", password="a-long-enough-pass")


def detail_url(argument: Argument) -> str:
    return reverse("coach:argument_detail", args=[argument.pk])


def test_it_lists_only_the_students_own_arguments(client: Client, ada, bob) -> None:
    create_argument(owner=ada, title="Cities should ban cars", language="en")
    create_argument(owner=bob, title="Homework is useless", language="en")
    body = client.get(reverse("coach:argument_list")).content.decode()
    assert "Cities should ban cars" in body
    assert "Homework is useless" not in body


def test_it_links_each_listed_argument_to_its_page(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Cities should ban cars", language="en")
    body = client.get(reverse("coach:argument_list")).content.decode()
    assert f'href="{detail_url(argument)}"' in body


@pytest.mark.parametrize("name", ["coach:argument_list", "coach:argument_new"])
def test_it_sends_anonymous_visitors_to_sign_in(client: Client, name: str) -> None:
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_it_sends_anonymous_visitors_of_an_argument_to_sign_in(client: Client, bob) -> None:
    argument = create_argument(owner=bob, title="Homework is useless", language="en")
    response = client.get(detail_url(argument))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_creates_an_argument_from_the_new_form(client: Client, ada) -> None:
    response = client.post(
        reverse("coach:argument_new"), {"title": "  Cities should ban cars ", "language": "es"}
    )
    argument = Argument.objects.get(owner=ada)
    assert response.status_code == 302
    assert response["Location"] == detail_url(argument)
    assert (argument.title, argument.language, argument.current_step) == (
        "Cities should ban cars",
        "es",
        "claim",
    )


def test_it_offers_the_visitors_language_for_a_new_argument(client: Client, ada) -> None:
    response = client.get(reverse("coach:argument_new"), headers={"accept-language": "es"})
    assert response.context["form"]["language"].value() == "es"
    assert "Nuevo argumento" in response.content.decode()


@pytest.mark.parametrize(
    "data", [{"title": "   ", "language": "en"}, {"title": "A title", "language": "fr"}]
)
def test_it_refuses_a_blank_title_or_an_unknown_language(client: Client, ada, data) -> None:
    response = client.post(reverse("coach:argument_new"), data)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert not Argument.objects.exists()


def test_it_answers_404_for_another_students_argument(client: Client, ada, bob) -> None:
    theirs = create_argument(owner=bob, title="Homework is useless", language="en")
    assert client.get(detail_url(theirs)).status_code == 404
    assert client.get(detail_url(theirs), headers={"HX-Request": "true"}).status_code == 404


def test_it_answers_404_for_an_argument_that_does_not_exist(client: Client, ada) -> None:
    assert client.get(reverse("coach:argument_detail", args=[999_999])).status_code == 404


def test_it_signs_up_a_student_and_signs_them_in(client: Client, settings) -> None:
    settings.SIGNUP_OPEN = True
    response = client.post(
        reverse("coach:signup"),
        {"username": "cleo", "password1": "a-long-enough-pass", "password2": "a-long-enough-pass"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    user = get_user_model().objects.get(username="cleo")
    assert not user.is_staff
    assert client.get(reverse("coach:argument_list")).context["user"] == user


def test_it_refuses_a_signup_whose_passwords_differ(client: Client, settings) -> None:
    settings.SIGNUP_OPEN = True
    response = client.post(
        reverse("coach:signup"),
        {"username": "cleo", "password1": "a-long-enough-pass", "password2": "another-pass-123"},
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="cleo").exists()


def test_it_links_the_sign_in_page_to_sign_up(client: Client, settings) -> None:
    settings.SIGNUP_OPEN = True
    body = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("coach:signup")}"' in body


def test_it_renders_the_rail_with_done_current_and_todo_steps(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Cities should ban cars", language="en")
    Argument.objects.filter(pk=argument.pk).update(
        claim="Cities should ban cars", current_step="grounds"
    )
    body = client.get(detail_url(argument)).content.decode()
    assert 'class="step done"' in body
    assert 'class="step current" aria-current="step" data-step="grounds"' in body
    assert body.count('class="step todo"') == 5
    assert 'data-step="grounds" data-complete="false"' in body


def test_it_serves_the_state_partial_to_htmx(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Cities should ban cars", language="en")
    Argument.objects.filter(pk=argument.pk).update(
        pending_proposal={"field": "claim", "value": "Cars out", "rationale": "Short"}
    )
    response = client.get(detail_url(argument), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert body.lstrip().startswith('<aside id="sidebar"')
    assert 'id="proposal"' in body and 'hx-swap-oob="true"' in body
    assert "<html" not in body


def test_it_refreshes_the_put_on_trial_slot_with_the_state(
    client: Client, ada, monkeypatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    argument = create_argument(owner=ada, title="Cities should ban cars", language="en")
    drafting = client.get(detail_url(argument), headers={"HX-Request": "true"}).content.decode()
    assert '<div id="trial-slot" hx-swap-oob="true">' in drafting
    assert "Put it on trial" not in drafting

    Argument.objects.filter(pk=argument.pk).update(completed_at=timezone.now())
    complete = client.get(detail_url(argument), headers={"HX-Request": "true"}).content.decode()
    action = reverse("trials:trial_start", args=[argument.pk])
    slot = complete[complete.index('<div id="trial-slot" hx-swap-oob="true">') :]
    assert "Put it on trial" in slot and f'action="{action}"' in slot


def test_it_speaks_the_readers_language_around_a_spanish_argument(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Prohibir coches", language="es")
    response = client.get(detail_url(argument), headers={"accept-language": "en"})
    body = response.content.decode()
    # The interface follows the reader; the argument's own words are marked as Spanish.
    assert '<html lang="en">' in body
    assert "Your draft" in body and "Send" in body and ">Claim<" in body
    assert "Tu borrador" not in body and "Afirmación" not in body
    assert 'id="transcript" class="transcript" lang="es"' in body
    assert '<h1 lang="es">Prohibir coches</h1>' in body


def test_it_keeps_the_menu_spanish_on_an_english_argument(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Ban cars", language="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    for headers in ({}, {"HX-Request": "true"}):
        body = client.get(detail_url(argument), headers=headers).content.decode()
        assert "Tu borrador" in body and ">Afirmación<" in body
        assert "Your draft" not in body and ">Claim<" not in body
    body = client.get(detail_url(argument)).content.decode()
    assert '<html lang="es">' in body and "Cerrar sesión" in body and "Sign out" not in body
    assert 'id="transcript" class="transcript" lang="en"' in body
    toulmin = client.get(reverse("coach:argument_toulmin", args=[argument.pk])).content.decode()
    # The diagram's names and connectors are the reader's words; the text is the argument's.
    assert '<html lang="es">' in toulmin and "Llévatelo" in toulmin
    assert ">Afirmación<" in toulmin and "ya que" in toulmin
    assert ">Claim<" not in toulmin and "since" not in toulmin and "rests on" not in toulmin


def test_it_says_a_connector_once_when_the_students_words_open_with_it(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Ban cars", language="en")
    argument.rebuttal = "Unless buses cannot reach the centre."
    argument.warrant = "Cleaner air protects health."
    argument.save()
    for cookie, connector, other in (("en", "unless", "since"), ("es", "a menos que", "ya que")):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
        body = client.get(reverse("coach:argument_toulmin", args=[argument.pk])).content.decode()
        assert f'<span class="t-connector">{connector}</span>' not in body
        assert f'<span class="t-connector">{other}</span>' in body
    spanish = create_argument(owner=ada, title="Coches", language="es")
    spanish.rebuttal = "A menos que los autobuses no lleguen."
    spanish.save()
    body = client.get(reverse("coach:argument_toulmin", args=[spanish.pk])).content.decode()
    assert '<span class="t-connector">a menos que</span>' not in body


def test_it_escapes_model_and_student_text(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title=f"Title {SCRIPT}", language="en")
    Argument.objects.filter(pk=argument.pk).update(
        claim=f"Claim {SCRIPT}",
        pending_proposal={"field": "claim", "value": f"Value {SCRIPT}", "rationale": SCRIPT},
    )
    CoachMessage.objects.create(argument=argument, role="user", text=SCRIPT, step="claim")
    CoachMessage.objects.create(argument=argument, role="assistant", text=SCRIPT, step="claim")
    pages = [
        client.get(detail_url(argument)).content.decode(),
        client.get(detail_url(argument), headers={"HX-Request": "true"}).content.decode(),
        client.get(reverse("coach:argument_list")).content.decode(),
    ]
    for body in pages:
        assert SCRIPT not in body
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in body


@pytest.mark.parametrize(("key", "label"), [("", "Offline coach"), ("sk-test", "AI coach")])
def test_it_says_which_coach_is_active(client: Client, ada, monkeypatch, key, label) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    argument = create_argument(owner=ada, title="Ban cars", language="en")
    body = client.get(detail_url(argument)).content.decode()
    assert label in body


def test_it_starts_the_coach_on_a_new_argument_only(client: Client, ada) -> None:
    argument = create_argument(owner=ada, title="Ban cars", language="en")
    assert 'data-autostart="true"' in client.get(detail_url(argument)).content.decode()
    CoachMessage.objects.create(argument=argument, role="assistant", text="Hi", step="claim")
    assert 'data-autostart="false"' in client.get(detail_url(argument)).content.decode()
