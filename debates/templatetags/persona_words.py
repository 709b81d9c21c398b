"""``{{ persona|persona_name }}`` and ``{{ persona|persona_worldview }}``: a built-in
persona in the reader's language (debates.persona_words)."""

from __future__ import annotations

from typing import Any

from django import template

from debates import persona_words

register = template.Library()


@register.filter
def persona_name(persona: Any) -> str:
    return persona_words.persona_name(persona)


@register.filter
def persona_worldview(persona: Any) -> str:
    return persona_words.persona_worldview(persona)
