"""The coach's reads that several views share.

Every page and endpoint of one argument finds it the same way: the signed-in
student's own, and a 404 for anyone else's (indistinguishable from a missing
one, so ids reveal nothing). The JSON API turns the 404 into its JSON answer
(coach.api).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from coach.models import Argument

__all__ = ["get_argument_for_user"]


def get_argument_for_user(user: Any, argument_id: int) -> Argument:
    """`user`'s own argument `argument_id`; Http404 when it is missing or someone else's.

    An id past what the column holds finds nothing, as a missing one (the ORM's
    lookup knows the column's range). ``get`` reads it without the model's ordering.
    """
    return get_object_or_404(Argument.objects.for_user(user), pk=argument_id)
