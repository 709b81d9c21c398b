"""``{{ run|format_label }}`` and ``{{ run|page_url }}``: what the registry says of any run.

The run's model does not know its format's label or page (engine/formats.py
does), so the pages that list runs of every format ask through these filters.
"""

from __future__ import annotations

from typing import Any

from django import template

from engine import formats

register = template.Library()


@register.filter
def format_label(run: Any) -> str:
    return formats.format_label(run)


@register.filter
def page_url(run: Any) -> str:
    return formats.page_url(run)
