"""Whether the AI check of objections is on (an AI key is set), for the discussion's templates."""

from __future__ import annotations

from django import template

from discussions.ai_check import ai_check_available

register = template.Library()


@register.simple_tag
def ai_checks_on() -> bool:
    return ai_check_available()
