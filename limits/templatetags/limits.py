"""`{% allowance_note %}`: the signed-in student's AI allowance in one plain sentence."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from limits.services import allowance_for, allowance_sentence, is_exempt
from llm import api_key_configured

register = template.Library()


@register.inclusion_tag("limits/_allowance.html", takes_context=True)
def allowance_note(context: dict[str, Any]) -> dict[str, str]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or is_exempt(user):
        return {"note": ""}
    if not api_key_configured():
        return {"note": ""}  # nothing here is paid for: the offline coach is free
    return {"note": allowance_sentence(allowance_for(user))}


@register.simple_tag
def signup_open() -> bool:
    """Whether visitors may create their own accounts (settings.SIGNUP_OPEN)."""
    return bool(settings.SIGNUP_OPEN)
