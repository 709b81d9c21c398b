"""The site's languages as a form offers them: named in the reader's language.

The header's switch names each language in itself ("English", "Español"), so
someone who cannot read the page can still find theirs; a form's choice of
the content's language is part of the page, and reads "inglés" on a Spanish page.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info

__all__ = ["language_choices"]


def language_choices() -> list[tuple[str, str]]:
    """(code, name in the active language) for each of settings.LANGUAGES."""
    return [
        (code, get_language_info(code)["name_translated"]) for code, _name in settings.LANGUAGES
    ]
