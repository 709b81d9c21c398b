"""Admission: the one gate every paid run of the engine passes before its row is saved.

Graph debates, inquiries, tournaments and stress tests all run as rows of
the engine's run table (`Debate`), so one function admits them all, in one
order: lock the user's row (two tabs cannot both take the last place), the
cap on runs queued or running across every format
(``MAX_RUNNING_DEBATES_PER_USER``), then the format's rate and the cost
quota (`limits.services.admit`). A refusal is a `LimitReached` whose code
says which limit refused (``too_many_running``, ``rate_limited``,
``quota_exceeded``) and whose message is a plain sentence in the reader's
language.

The engine knows no format: a format names its rate (its entry in
``RATE_LIMITS``) and what it reserves. Call inside the transaction that
saves the run, so the next admission counts it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from engine.models import Debate, DebateStatus
from limits.services import LimitReached, admit, is_exempt, lock_user

__all__ = ["ACTIVE_STATUSES", "admit_run", "runs_in_progress"]

ACTIVE_STATUSES = (DebateStatus.QUEUED, DebateStatus.RUNNING)


def runs_in_progress(user: Any) -> int:
    """The user's runs of every format that are queued or running."""
    return Debate.objects.filter(creator=user, status__in=ACTIVE_STATUSES).count()


def admit_run(*, user: Any, action: str | None, reserve_usd: Decimal) -> None:
    """Let `user` queue one more paid run, or raise LimitReached (nothing counted).

    `action`: the format's rate (a key of ``RATE_LIMITS``), or None for work
    that goes on rather than starts (an answer to a stress test's
    objection), which only the cap and the quota bound. `reserve_usd`: what the run may
    still cost. Without a signed-in user (a management command) nothing is
    checked: the operator is trusted.
    """
    if not getattr(user, "is_authenticated", False):
        return
    lock_user(user)
    cap = settings.MAX_RUNNING_DEBATES_PER_USER
    if cap > 0 and not is_exempt(user):
        running = runs_in_progress(user)
        if running >= cap:
            raise LimitReached(
                ngettext(
                    "You already have %(count)d AI run queued or running (debates, "
                    "inquiries, tournaments and stress tests count together). "
                    "Wait until it finishes, then start the next one.",
                    "You already have %(count)d AI runs queued or running (debates, "
                    "inquiries, tournaments and stress tests count together). "
                    "Wait until one finishes, then start the next one.",
                    running,
                )
                % {"count": running},
                code="too_many_running",
            )
    admit(user=user, action=action, reserve_usd=reserve_usd)
