"""``{{ run|format_label }}`` and ``{{ run|page_url }}``: what the registry says of any run.

The run's model does not know its format's label or page (engine/formats.py
does), so the pages that list runs of every format ask through these filters.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist

from engine import formats

register = template.Library()


@register.filter
def format_label(run: Any) -> str:
    return formats.format_label(run)


@register.filter
def page_url(run: Any) -> str:
    """Its format's page; none for a run whose format's own row is missing (a stress
    test's run saved without its ``StressTest``), as a template's lookup would give."""
    try:
        return formats.page_url(run)
    except ObjectDoesNotExist:
        return ""
