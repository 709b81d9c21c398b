"""Template helpers for the trial pages and for pages outside trials/ that include a trial partial."""

from django import template
from django.urls import reverse

from llm import api_key_configured
from trials.labels import toulmin_label

register = template.Library()


@register.simple_tag
def trial_key_needed() -> bool:
    """Whether trials cannot run here for want of an API key (read per render, not cached)."""
    return not api_key_configured()


@register.simple_tag
def demo_trial_url() -> str:
    """The demo trial's page, or "" when `make run` has not loaded it."""
    from trials.models import Trial

    pk = Trial.objects.filter(is_demo=True).values_list("pk", flat=True).first()
    return reverse("trials:trial_detail", args=[pk]) if pk else ""


# `{{ c.strength|toulmin_label:"strength" }}`: an enum value as a word in the page's language.
register.filter("toulmin_label", toulmin_label)
