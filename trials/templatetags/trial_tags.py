"""Template helpers for the trial pages and for pages outside trials/ that include a trial partial."""

from django import template

from llm import api_key_configured
from trials.labels import toulmin_label

register = template.Library()


@register.simple_tag
def trial_key_needed() -> bool:
    """Whether trials cannot run here for want of an API key (read per render, not cached)."""
    return not api_key_configured()


# `{{ c.strength|toulmin_label:"strength" }}`: an enum value as a word in the page's language.
register.filter("toulmin_label", toulmin_label)
