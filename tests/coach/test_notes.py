"""One name per gesture: what the coach says to press is what the button says, in both
languages; and the sentences the server adds about an instructor's rules."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from coach import notes
from coach.offline import OfflineTurn, offline_reply
from coach.prompts import system_prompt
from coach.steps import STEP_IDS, phrases_for

# The button labels as the page's template writes them (templates/coach/argument_detail.html).
TEMPLATE_MSGIDS = {
    "accept": "Accept",
    "edit": "Edit",
    "reject": "Reject",
    "use_my_words": "Use my words for %(the)s",
}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("name", sorted(TEMPLATE_MSGIDS))
@pytest.mark.parametrize("step", STEP_IDS)
def test_the_coach_names_each_button_as_the_page_does(name: str, language: str, step: str) -> None:
    with translation.override(language):
        label = gettext(TEMPLATE_MSGIDS[name]) % {"the": phrases_for(step, language).the}
    assert notes.gesture(name, language=language, step=step) == label


@pytest.mark.parametrize("name", sorted(TEMPLATE_MSGIDS))
@pytest.mark.parametrize(("language", "page"), [("en", "es"), ("es", "en")])
def test_the_coach_names_each_button_in_the_pages_language(name: str, language: str, page: str):
    with translation.override(page):
        label = gettext(TEMPLATE_MSGIDS[name]) % {"the": phrases_for("warrant", page).the}
    assert notes.gesture(name, language=language, step="warrant", page_language=page) == label
    quoted = notes.gesture(name, language=language, quoted=True, page_language=page)
    assert quoted.startswith("«" if language == "es" else '"')  # the sentence's own marks
    prompt = system_prompt(language, page_language=page)
    accept = notes.gesture("accept", language=language, page_language=page)
    assert accept in prompt and notes.gesture("accept", language=language) not in prompt


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_ai_is_told_the_buttons_names_and_never_to_call_accept_anything_else(
    language: str,
) -> None:
    prompt = system_prompt(language)
    accept = notes.gesture("accept", language=language)
    assert f'press "{accept}"' in prompt and 'not "confirm"' in prompt


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_offline_coach_says_the_accept_buttons_name_when_it_proposes(language: str) -> None:
    reply = offline_reply(
        OfflineTurn(
            step="claim",
            language=language,
            message="yes",
            draft_text="",
            step_messages=["cities should ban cars downtown"],
            pending_proposal=None,
        )
    )
    assert reply.proposedUpdate is not None
    assert notes.gesture("accept", language=language, quoted=True) in reply.assistantText


def test_it_says_what_is_missing_in_the_arguments_language() -> None:
    said = notes.criteria_refusal(
        step="grounds",
        language="es",
        unmet=["Los datos contienen un número o una cita"],
        button="accept",
    )
    assert said == (
        "Todavía no. Tu docente exige esto para los datos: los datos contienen un número o "
        "una cita. Añádelo a tu texto y vuelve a pulsar «Aceptar»."
    )
