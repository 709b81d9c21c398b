"""The built-in personas' names and worldviews in the reader's language, at display time.

Migration ``debates/0002_default_personas`` ships four personas in English; a
persona is a row an instructor may edit, so the stored text stays English and
is translated where it is shown. The stable key is the shipped name (unique
on ``engine.models.Persona``): a built-in name is shown in the reader's
language; its worldview too, as long as it is the shipped text word for word.
An instructor's own persona, or a built-in one whose worldview they edited,
reads as they wrote it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

__all__ = ["BUILT_IN", "persona_name", "persona_worldview"]

# The shipped name -> the shipped worldview (debates/migrations/0002_default_personas.py).
BUILT_IN = {
    gettext_noop("The Empiricist"): gettext_noop(
        "Trusts measured outcomes over intuition. Asks for data, base rates and "
        "controlled comparisons, and distrusts anecdotes and appeals to authority. "
        "Will change position when shown better evidence, and says what evidence "
        "would change it."
    ),
    gettext_noop("The Guardian"): gettext_noop(
        "Puts safety, stability and the protection of vulnerable people first. "
        "Weighs worst cases heavily, prefers reversible steps to bold ones, and "
        "values institutions and traditions that have proved themselves over time."
    ),
    gettext_noop("The Innovator"): gettext_noop(
        "Believes progress comes from experimentation and individual initiative. "
        "Stresses opportunity costs, the price of doing nothing and the creativity "
        "of markets; distrusts rules that freeze today's knowledge in place."
    ),
    gettext_noop("The Advocate"): gettext_noop(
        "Judges every proposal by who gains and who pays. Centres fairness, rights "
        "and the voices of people affected but absent from the room, and looks for "
        "hidden costs pushed onto the least powerful."
    ),
}


def persona_name(persona: Any) -> str:
    """A persona's name (a Persona, or the name stored with a debate's events) as the
    reader reads it."""
    name = str(getattr(persona, "name", persona))
    return gettext(name) if name in BUILT_IN else name


def persona_worldview(persona: Any) -> str:
    """A persona's worldview as the reader reads it: a built-in one translated while it is
    the shipped text, an edited or instructor-written one as written."""
    shipped = BUILT_IN.get(persona.name)
    return (
        gettext(shipped)
        if shipped is not None and persona.worldview == shipped
        else persona.worldview
    )
