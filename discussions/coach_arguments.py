"""A student brings an argument they built with the coach into a class discussion.

Its seven elements are mapped as the stress test maps them
(``stresstests.mapping.as_argument``): the claim is the post's claim; the
grounds, then the grounds' backing and the warrant's backing (when written),
are its premises, each open to an undermine; the warrant is the step from the
premises to the claim, what an undercut attacks; the qualifier and the
rebuttal argue for nothing and are kept beside the post for its readers
(``CoachOrigin``). The post is then an ordinary argument: the same checks,
teams and rate as one typed on the page (``services.create_post``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from coach.models import Argument
from discussions.models import MAX_TEXT, Discussion, Post
from discussions.post_extras import CoachOrigin
from discussions.services import PostRefused, create_post
from stresstests.mapping import as_argument, elements_of

__all__ = ["bring_argument", "coach_arguments_of"]


def coach_arguments_of(user: Any) -> QuerySet[Argument]:
    """The user's own coach arguments with a claim and grounds: the ones that can be brought."""
    if not getattr(user, "is_authenticated", False):
        return Argument.objects.none()
    return Argument.objects.filter(owner=user).exclude(claim="").exclude(grounds="")


def bring_argument(*, discussion: Discussion, author: Any, argument: Argument, side: str) -> Post:
    """Post ``argument`` (the author's own) for or against the thesis; PostRefused otherwise."""
    if argument.owner_id != author.pk:
        raise PostRefused(_("You can bring only an argument of your own."))
    elements = elements_of(argument)
    mapped = as_argument(elements)
    if not mapped.claim or not mapped.premises:
        raise PostRefused(_("That argument needs a claim and grounds: finish them in the coach."))
    texts = [mapped.claim, *mapped.premises, *mapped.assumptions]
    if any(len(text) > MAX_TEXT for text in texts):
        raise PostRefused(
            _(
                "A part of that argument is longer than %(n)d characters, the longest a post "
                "takes: shorten it in the coach and bring it again."
            )
            % {"n": MAX_TEXT}
        )
    with transaction.atomic():
        post = create_post(
            discussion=discussion,
            author=author,
            claim=mapped.claim,
            premises=list(mapped.premises),
            side=side,
        )
        CoachOrigin.objects.create(
            post=post,
            argument=argument,
            premise_elements=list(mapped.premise_elements),
            warrant=elements["warrant"],
            qualifier=elements["qualifier"],
            rebuttal=elements["rebuttal"],
        )
    return post
