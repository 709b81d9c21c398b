"""What every format's pages and exports say about a run, whatever its format.

A run fails the same way in each format (the AI service was unavailable, the
site has no key, an unexpected error: ``DebateFailure``), and its owner's
Retry is refused for the same reasons, so the sentences are the engine's, not
one format's that the others borrow. Exports write money and times alike in
every format: a decimal string (a float would round it) and ISO 8601 with its
offset.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.utils.translation import gettext as _

from engine.models import Debate, DebateFailure
from engine.services import debates_available

__all__ = [
    "failure_message",
    "failure_messages",
    "key_needed_message",
    "money_text",
    "retry_refused_message",
    "time_text",
]


def failure_messages() -> dict[str, str]:
    """Each failure code's sentence in the active language (a live page's script shows them)."""
    return {
        DebateFailure.SERVICE_UNAVAILABLE: _(
            "The AI service was unavailable (it was overloaded or could not be reached), "
            "so the debate paused. Everything done so far is saved: retry in a few minutes "
            "and it carries on from where it stopped."
        ),
        DebateFailure.NO_API_KEY: _(
            "The debate could not run: the site has no API key for the AI service. "
            "Once whoever runs the site sets one, retry."
        ),
        DebateFailure.INTERNAL: _(
            "The debate stopped on an unexpected error. Everything done so far is saved: "
            "retry, and if it fails again, tell whoever runs the site."
        ),
    }


def failure_message(*, debate: Debate) -> str:
    """Why a failed run failed, for its page: never an exception, a code or SQL."""
    messages = failure_messages()
    return messages.get(debate.failure) or messages[DebateFailure.INTERNAL]


def key_needed_message() -> str:
    """Why nothing can start: plain words for everyone (staff read the server variable in
    _ai_not_configured.html)."""
    return _(
        "This site's AI service is not set up yet, so a new debate cannot start here for "
        "now. Open the demo debate to see what a finished debate looks like."
    )


def retry_refused_message(*, debate: Debate) -> str:
    """Why its Retry was refused: no key to run it with, or not a failed run of the user's."""
    if debate.can_retry and not debates_available():
        return key_needed_message()
    return _("Only a failed debate can be retried, by whoever started it.")


def money_text(value: Decimal | None) -> str | None:
    """Money in an export: a decimal string (a float would round it), or None."""
    return None if value is None else str(value)


def time_text(value: datetime | None) -> str | None:
    """A time in an export: ISO 8601 with its offset, or None."""
    return value.isoformat() if value is not None else None
