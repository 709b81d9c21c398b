"""Every main page, asked for in Spanish through the language cookie, answers in Spanish.

Each page is checked for a few of its own Spanish strings and for the absence of
their English originals, so a page whose strings are not marked, or whose
translations are missing from the compiled catalogue, fails here.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from engine.models import Debate
from tests.trials import phase_data
from tests.trials.factories import make_argument, make_user
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def student(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_user("ana")


@pytest.fixture
def spanish(client: Client, student) -> Client:
    client.force_login(student)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.content.decode()
    assert '<html lang="es">' in body, url
    return body


def assert_spanish(body: str, *, has: list[str], lacks: list[str]) -> None:
    assert [text for text in has if text not in body] == []
    assert [text for text in lacks if text in body] == []


def test_it_shows_the_home_and_sign_in_pages_in_spanish(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert_spanish(
        page(client, "/"),
        has=["Aprende a argumentar bien", "Iniciar sesión", ">English</button>"],
        lacks=["Learn to argue well", "Sign in<"],
    )
    assert_spanish(page(client, "/accounts/login/"), has=["Contraseña"], lacks=["Password"])


def test_it_shows_the_coach_pages_in_spanish(spanish: Client, student) -> None:
    argument = make_argument(owner=student, complete=False)
    # An argument's page speaks the reader's language, whatever the argument's.
    assert_spanish(
        page(spanish, "/coach/"),
        has=["Nuevo argumento", "Mis argumentos"],
        lacks=["New argument", "Last change"],
    )
    # A new argument starts in the language the student chose for the site.
    assert_spanish(
        page(spanish, "/coach/new/"),
        has=["Título", "Empezar", '<option value="es" selected>'],
        lacks=["Title<"],
    )
    assert_spanish(
        page(spanish, f"/coach/{argument.pk}/"),
        has=["Tu borrador", "Conversación", "Enviar"],
        lacks=["Your draft", "Conversation"],
    )


def test_it_shows_the_trial_pages_in_spanish(spanish: Client, student) -> None:
    make_argument(owner=student)
    assert_spanish(
        page(spanish, "/trials/"),
        has=["Mis juicios", "Tus argumentos terminados", "servicio de IA de este sitio"],
        lacks=["My trials", "AI service is not set up", "Your completed arguments"],
    )
    assert_spanish(
        page(spanish, "/trials/ask/"),
        # Without the AI service the form is closed, and says why in Spanish.
        has=["Someter una pregunta a juicio", "así que este formulario está cerrado"],
        lacks=["Put a question on trial", "so this form is closed"],
    )


def test_it_shows_a_trial_its_phases_and_its_toulmin_labels_in_spanish(
    spanish: Client, student
) -> None:
    now = timezone.now()
    trial = Trial.objects.create(
        owner=student,
        query="¿Deberían las ciudades cambiar carriles para autos por carriles para autobuses?",
        status=TrialStatus.SUSTAINED,
        phase1=phase_data.phase1(),
        phase2=phase_data.phase2(),
        phase3=phase_data.phase3(),
        phase4=phase_data.phase4(),
        started_at=now,
        finished_at=now,
    )
    body = page(spanish, f"/trials/{trial.pk}/")
    assert_spanish(
        body,
        has=[
            "Datos y afirmación",  # phase titles
            "Garantía y respaldo",
            "Refutación y calificador",
            "(terminada)",  # phase state, for screen readers
            "Veredicto:",
            "sostenida",  # the verdict
            "estadística",  # evidence type
            "inductiva",  # logic type
            "fuerte",  # strength
            "débil",
            "probablemente",  # qualifier degree
            ">general<",  # scope
        ],
        lacks=["Data and claim", "Warrant and backing", ">statistical<", ">inductive<", ">strong<"],
    )


def test_it_shows_where_a_stopped_trial_stopped_in_spanish(spanish: Client, student) -> None:
    now = timezone.now()
    trial = Trial.objects.create(
        owner=student,
        query="¿Deberían las ciudades prohibir los autos?",
        status=TrialStatus.TERMINATED,
        stopped_phase=2,
        # What the chain stores: the circuit breaker's own (English) sentence.
        reason="The warrant is irrelevant: a irrelevant warrant cannot carry the claim.",
        phase1=phase_data.phase1(),
        phase2=phase_data.phase2(warrant_strength="irrelevant"),
        started_at=now,
        finished_at=now,
    )
    assert_spanish(
        page(spanish, f"/trials/{trial.pk}/"),
        has=[
            "Dónde y por qué se detuvo el juicio",
            "La garantía se calificó como irrelevante",
            "(no alcanzada)",
        ],
        lacks=[
            "Where and why the trial stopped",
            "The warrant is",
            ">irrelevant<",
            "(not-reached)",
        ],
    )


def test_it_shows_the_debate_pages_in_spanish(spanish: Client) -> None:
    call_command("load_demo_debate", verbosity=0)
    demo = Debate.objects.get(is_demo=True)
    assert_spanish(
        page(spanish, "/debates/"),
        has=["Nuevo debate", "Filtrar"],
        lacks=["New debate", "Search topics"],
    )
    assert_spanish(
        page(spanish, "/debates/new/"),
        # A student is asked for no budget (staff are): tests/debates/test_pages.py.
        has=["Tema", "Personajes", "Rondas"],
        lacks=["Topic<", "Budget (USD)", "Presupuesto (USD)"],
    )
    assert_spanish(
        page(spanish, f"/debates/{demo.pk}/"),
        has=["Terreno común", "Supuestos clave", "Grafo de argumentos", "ataques contados"],
        lacks=["Common ground", "Crux assumptions", "Argument graph", "counted attacks", "faint:"],
    )
    assert_spanish(
        page(spanish, f"/debates/{demo.pk}/replay/"),
        has=["Controles de la repetición", "Velocidad"],
        lacks=["Replay controls", "Jump to the end"],
    )
