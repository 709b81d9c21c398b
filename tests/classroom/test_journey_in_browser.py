"""A class's journey in headless Chromium: Spanish, a 390-pixel phone, no AI key.

The teacher signs in through the form and lands on their classes, makes a
class and a hints-only assignment whose grounds must hold a number, and sees
its empty grid. A student joins with the code, starts the assignment and works
with the offline coach: own words move on through "Usar mis palabras para …",
grounds without a number are refused and the coach says what is missing, a
question about the step is answered rather than graded; the finished argument
goes to the stress test with critical questions (what a site without a key
offers) and one objection is answered. The teacher finds the work on the grid,
reads it, comments, scores and releases; the student reads it from /me/.

At every page: nothing wider than the phone, every visible control with a
name, and no interface English (the catalogue-wide check's own rule,
tests/config/untranslated.py, applied to the page as the browser shows it,
plus a few English-only words for messages the catalogue does not know yet).
Locators are the Spanish roles and labels a person would use.

ARGUE_SCREENSHOTS=<folder> saves each step at 390 and 1,280 pixels.
"""

from __future__ import annotations

import os
import re
from pprint import pformat

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import trans_real

from classroom.models import Assignment, Classroom
from classroom.services import make_instructor
from tests.config.untranslated import Catalogue, findings, text_nodes

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
PHONE = 390
SCREENSHOTS = os.environ.get("ARGUE_SCREENSHOTS", "")

# The catalogue's rule cannot see a message nobody has added to the catalogue yet (a new
# app's menu entry, say): English words no Spanish sentence uses, and labels that are
# English whole, catch those on the pages walked.
ENGLISH_WORDS = {"the", "your", "you", "and", "with", "this", "that", "is", "are", "of", "to"}
ENGLISH_WORDS |= {"for", "from", "have", "will", "can", "it", "its", "an", "be", "or"}
ENGLISH_LABELS = {"Search", "Add", "Save", "Delete", "Change", "View", "Home", "Edit", "Back"}
ENGLISH_LABELS |= {"Next", "Show", "Hide", "Open", "Close", "Posts", "Discussions", "Submit"}


def _plain_english(html: str) -> list[str]:
    # A node is its text, or (text, behind a disclosure) in the helper's later form.
    texts = [node[0] if isinstance(node, tuple) else node for node in text_nodes(html)]
    return [
        text
        for text in texts
        if text in ENGLISH_LABELS or ENGLISH_WORDS & set(re.findall(r"[a-z]+", text.lower()))
    ]


# Visible form controls a screen reader could not name (no label, aria name, title or text).
UNNAMED = """() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter(e => e.type !== 'hidden' && e.getClientRects().length > 0)
    .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                 && !e.getAttribute('aria-labelledby') && !e.title
                 && !(e.textContent || '').trim() && !e.value)
    .map(e => e.outerHTML.slice(0, 120))"""


class Walk:
    """One browser tab going through the site, checking each page it stops on."""

    def __init__(self, page, base: str) -> None:
        self.page, self.base = page, base
        with translation.override("es"):
            self.catalogue = Catalogue(trans_real.translation("es")._catalog)
        self.too_wide: dict[str, int] = {}
        self.english: dict[str, list[str]] = {}
        self.unnamed: dict[str, list[str]] = {}

    def check(self, name: str) -> None:
        page = self.page
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE:
            self.too_wide[name] = width
        html = page.content()
        found = {
            f.text for f in findings(url=page.url, html=html, catalogue=self.catalogue, content=[])
        }
        if found := found | set(_plain_english(html)):
            self.english[name] = sorted(found)
        if unnamed := page.evaluate(UNNAMED):
            self.unnamed[name] = unnamed
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/{name}-{PHONE}.png", full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=f"{SCREENSHOTS}/{name}-1280.png", full_page=True)
            page.set_viewport_size({"width": PHONE, "height": 844})

    def follow(self, locator) -> None:
        """Click a link or a form's button that loads a new page, and wait for it."""
        with self.page.expect_navigation(wait_until="load"):
            locator.click()

    def sign_in(self, username: str) -> None:
        page = self.page
        page.context.clear_cookies()
        page.goto(f"{self.base}/accounts/login/")
        page.get_by_label("Usuario").fill(username)
        page.get_by_label("Contraseña").fill(PASSWORD)
        self.follow(page.get_by_role("button", name="Iniciar sesión"))


def coach_said(page, count: int) -> None:
    """Wait for the coach's `count`-th message and for the page to catch up with it."""
    page.wait_for_function(
        "n => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length >= n"
        " && document.querySelector('#coach').dataset.state === 'ready'",
        arg=count,
    )


def last_coach_text(page) -> str:
    return page.locator("#transcript .msg-assistant .text").last.text_content()


def current_step(page) -> str:
    return page.locator("#rail").get_attribute("data-step")


@pytest.fixture
def phone_in_spanish(chromium_browser):
    context = chromium_browser.new_context(locale="es-ES", viewport={"width": PHONE, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_it_walks_the_teacher_and_the_student_in_spanish_on_a_phone_without_a_key(
    live_asgi, phone_in_spanish, no_anthropic_key
) -> None:
    users = get_user_model().objects
    make_instructor(user=users.create_user("profe", password=PASSWORD))
    users.create_user("lucia", password=PASSWORD)
    page = phone_in_spanish
    walk = Walk(page, live_asgi.url)

    # The teacher signs in and lands on their classes, then makes one.
    walk.sign_in("profe")
    assert page.url == f"{live_asgi.url}/admin/"
    walk.check("teacher-lands")
    classes = page.get_by_role("region", name="Mis clases")
    walk.follow(classes.get_by_role("link", name="Nueva clase"))
    walk.check("class-add")
    assert page.get_by_text("Código para unirse").count() == 0  # given once saved
    page.get_by_label("Nombre").fill("Retórica 1º B")
    walk.follow(page.get_by_role("button", name="Guardar", exact=True))
    walk.check("class-saved")
    classroom = Classroom.objects.get(name="Retórica 1º B")

    # A hints-only assignment whose grounds must hold a number or a citation.
    walk.follow(page.get_by_role("link", name="Inicio"))
    walk.follow(classes.get_by_role("link", name="Nueva tarea"))
    walk.check("assignment-add")
    # Her only class and her language are chosen already.
    assert page.get_by_label("Clase").input_value() == str(classroom.pk)
    assert page.get_by_label("Idioma:", exact=True).input_value() == "es"
    page.get_by_label("Título").fill("Aire limpio")
    page.get_by_label("Consigna").fill(
        "¿Deben las ciudades reducir el tráfico para limpiar el aire?"
    )
    page.get_by_label("Política del coach").select_option("hints_only")
    page.get_by_label("Datos: Los datos contienen un número o una cita").check()
    page.get_by_label("Pedir también una prueba de resistencia").check()
    walk.follow(page.get_by_role("button", name="Guardar", exact=True))
    walk.check("assignment-saved")
    assignment = Assignment.objects.get(title="Aire limpio")
    assert (assignment.coach_policy, assignment.language) == ("hints_only", "es")
    assert assignment.required_criteria == {"grounds": ["grounds_has_number_or_citation"]}
    walk.follow(page.get_by_role("link", name="cuadro de progreso"))
    assert page.get_by_role("rowheader").count() == 0
    walk.check("grid-empty")

    # The student joins with the code (as typed, lower case), opens the assignment, starts.
    walk.sign_in("lucia")
    assert page.url == f"{live_asgi.url}/me/"
    page.get_by_label("Código de la clase").fill(classroom.join_code.lower())
    walk.follow(page.get_by_role("button", name="Unirme a una clase"))
    walk.check("student-joined")
    walk.follow(page.get_by_role("link", name="Aire limpio"))
    assert "nunca escribe texto por ti" in page.get_by_role("main").inner_text()
    walk.check("assignment")
    walk.follow(page.get_by_role("button", name="Empezar mi argumento"))
    coach_said(page, 1)
    # Without a key the coach says so in plain words, no server jargon ("clave de API").
    header = page.locator(".coach-header").inner_text()
    assert "El servicio de IA del sitio no está configurado" in header and "API" not in header
    walk.check("coach-claim")

    box = page.get_by_label("Tu mensaje")
    own = page.get_by_role("region", name="Tus palabras para")
    said = 1

    def say(text: str) -> str:
        nonlocal said
        box.fill(text)
        box.press("Enter")
        said += 1
        coach_said(page, said)
        return last_coach_text(page)

    def use_my_words(the: str, text: str | None = None) -> str:
        nonlocal said
        if text is not None:
            own.get_by_role("textbox").fill(text)
        own.get_by_role("button", name=f"Usar mis palabras para {the}").click()
        said += 1
        coach_said(page, said)
        return last_coach_text(page)

    # Hints only: no proposal to accept; the coach names the button that keeps her words.
    reply = say("Las ciudades deben reducir el tráfico para limpiar el aire.")
    assert "«Usar mis palabras para la afirmación»" in reply
    assert page.locator("[data-testid=proposal]").is_hidden()
    opening = use_my_words("la afirmación")
    assert current_step(page) == "grounds"
    assert "Tu docente exige esto para los datos" in opening
    walk.check("coach-grounds")

    # Grounds without a number: refused in place, and the coach says what is missing.
    say("La contaminación del aire es mala para la gente.")
    refusal = use_my_words("los datos")
    assert refusal.startswith("Todavía no.") and "un número o una cita" in refusal
    assert current_step(page) == "grounds" and page.locator("#coach-error").is_hidden()
    walk.check("coach-grounds-refused")
    use_my_words(
        "los datos",
        "La contaminación del aire causó 4,2 millones de muertes prematuras en 2019 (OMS, 2021).",
    )
    assert current_step(page) == "warrant"

    # A question about the step is answered, not graded.
    answer = say("¿Qué es la garantía? No entiendo la diferencia con los datos.")
    assert "La garantía es la regla general" in answer and "Todavía no" not in answer
    assert current_step(page) == "warrant"
    walk.check("coach-question")
    for the, words in [
        ("la garantía", "Si algo enferma y mata a la gente, las ciudades deben reducirlo."),
        ("el respaldo de tus datos", "Según el informe de la OMS de 2021, con datos de 6.000 ciudades."),
        ("el respaldo de tu garantía", "La Directiva 2008/50/CE obliga a proteger la salud del aire sucio."),
        ("el calificador", "Probablemente, en la mayoría de las ciudades grandes."),
    ]:  # fmt: skip
        say(words)
        use_my_words(the)
    say("A menos que el tráfico no sea la fuente principal de la contaminación.")
    own.get_by_role("button", name="Usar mis palabras para la refutación").click()
    done = page.get_by_role("status").filter(has_text="Este argumento está completo")
    done.wait_for()
    walk.check("coach-complete")

    # No key: the next step is the stress test with critical questions, which runs.
    walk.follow(done.get_by_role("link", name="Ponlo a prueba"))
    assert "no está configurado" in page.get_by_role("main").inner_text()
    walk.check("stress-start")
    walk.follow(page.get_by_role("button", name="Plantear las preguntas críticas"))
    walk.check("stress-run")
    page.get_by_label("Responde a esta objeción con tus propias palabras").first.fill(
        "Las cifras de la OMS vienen de estaciones de medición oficiales, no de una estimación."
    )
    page.get_by_role("button", name="Defender").first.click()
    page.get_by_text("Aceptada: tu respuesta ahora ataca esta objeción.").wait_for()
    walk.check("stress-answered")

    # The teacher finds the work on the grid, reads it, comments, scores and releases.
    walk.sign_in("profe")
    walk.follow(classes.get_by_role("link", name="Aire limpio"))
    row = page.get_by_role("row").filter(has=page.get_by_role("rowheader", name="lucia"))
    assert "terminado" in row.inner_text()
    walk.check("grid")
    walk.follow(
        row.get_by_role("link", name="Datos: terminado", exact=True)
    )  # each cell says whose part
    walk.check("work")
    walk.follow(page.get_by_role("link", name="Comentar y puntuar"))
    walk.check("feedback")
    # Read, comment, score, then release: the release comes last on the page.
    release = page.get_by_role("button", name="Publicar para el estudiante")
    scores = page.get_by_role("button", name="Guardar puntuaciones")
    assert release.bounding_box()["y"] > scores.bounding_box()["y"]
    page.get_by_label("Elemento:", exact=True).select_option("warrant")
    page.get_by_label("Comentario:", exact=True).fill(
        "Di por qué esa regla vale también para tu ciudad."
    )
    walk.follow(page.get_by_role("button", name="Añadir comentario"))
    page.get_by_role("combobox", name="Garantía", exact=True).select_option(index=3)
    walk.follow(page.get_by_role("button", name="Guardar puntuaciones"))
    walk.follow(release)
    assert page.get_by_text("Publicado el").is_visible()
    walk.check("released")

    # The student reads it from her own page.
    walk.sign_in("lucia")
    released = page.get_by_role("region", name="Mis clases")
    item = released.get_by_role("listitem").filter(has_text="publicados el")
    assert "2 de 24 puntos" in item.inner_text()
    walk.check("me-feedback")
    walk.follow(item.get_by_role("link", name="Aire limpio"))
    assert "Di por qué esa regla vale también para tu ciudad." in page.inner_text("main")
    walk.check("feedback-student")

    # All three at once, so one run reports every page that fails any of them.
    found = {"too wide": walk.too_wide, "unnamed": walk.unnamed, "English": walk.english}
    assert not any(found.values()), "\n" + pformat(found, width=100)
