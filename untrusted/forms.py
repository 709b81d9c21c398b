"""The Django side of ``untrusted``: a text validator, an id-list field, a sign-in username.

The rest of the package is pure; this module is the one that imports Django.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext_lazy as _

from untrusted import clean_text, parse_id, text_problem

__all__ = ["IdsChoiceField", "UNSTORABLE_TEXT", "signin_username", "validate_storable_text"]

# django-axes keeps the username of each failed sign-in in a 255-character column.
_RECORDED_USERNAME_CHARS = 255

UNSTORABLE_TEXT = _(
    "This text contains a character that cannot be saved (a NUL character or half of an "
    "emoji). Remove it, or type the text again, and retry."
)


def validate_storable_text(value: Any) -> None:
    """Refuse text a database cannot store (see ``untrusted.text_problem``)."""
    if isinstance(value, str) and text_problem(value) is not None:
        raise ValidationError(UNSTORABLE_TEXT, code="unstorable_text")


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """A ModelMultipleChoiceField of primary keys that refuses unusable ids before any query.

    Django checks each id with an ``exact`` lookup, which tolerates any int,
    then fetches them all with ``pk__in``, which hands a 40-digit id to the
    driver: OverflowError on SQLite. Here an id that is not 1 to MAX_ID in
    ASCII digits is an ordinary "not a valid value" error.
    """

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            for pk in value:
                if not isinstance(pk, Model) and parse_id(pk) is None:
                    raise ValidationError(
                        self.error_messages["invalid_pk_value"],
                        code="invalid_pk_value",
                        params={"pk": pk},
                    )
        return super().clean(value)


def signin_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """The username of a sign-in attempt as django-axes records it (AXES_USERNAME_CALLABLE).

    Axes stores whatever was typed, before the form checks it: a NUL or a
    300-character name would be a database error instead of a failed sign-in.
    """
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get("username")
    if not isinstance(username, str):
        return username
    return clean_text(username)[:_RECORDED_USERNAME_CHARS]
