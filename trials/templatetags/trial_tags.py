"""Template helpers for pages outside trials/ that include a trial partial."""

from django import template

from llm import api_key_configured

register = template.Library()


@register.simple_tag
def trial_key_needed() -> bool:
    """Whether trials cannot run here for want of an API key (read per render, not cached)."""
    return not api_key_configured()
