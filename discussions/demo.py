"""A demo discussion for `make run`, in the demo class "Demo: Rhetoric 101".

The demo classmates (classroom.demo) argue a real thesis, smartphones at
school, with posts of different quality: a sourced argument with a named
scheme, a consequence that an undercut answers, a vague one a rebut meets, an
objection started from a critical question and a reply to it. Open, not
anonymous, closing in a week; graded (an assignment of the class, with its
grid), with readings pinned: a note and a small case file written for the
demo. Made once: running it again changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from casefiles.models import CaseFile
from casefiles.services import add_source
from classroom.demo import DEMO_CLASS_NAME
from classroom.models import Classroom
from discussions.grading import sync_assignment
from discussions.models import Discussion, Post, PostKind

__all__ = ["DEMO_DISCUSSION_TITLE", "load_demo_discussion"]

DEMO_DISCUSSION_TITLE = "Demo: Phones at school"
THESIS = "Schools should ban students' smartphones for the whole school day."

READINGS = (
    "Read both readings below before you post. The study behind the strongest argument "
    'for a ban: Beland, L.-P. and Murphy, R. (2016), "Ill Communication: Technology, '
    'distraction & student performance", Labour Economics 41, 61-76, '
    "https://doi.org/10.1016/j.labeco.2016.04.004"
)
CASE_FILE_TITLE = "Phones at school: the readings"
# Written for this demo (the school and its survey are invented); each says so.
SOURCES = (
    (
        "What a ban study can and cannot show",
        "Demo: the class's instructor",
        "2025",
        "",
        "A summary written for this demo. Studies that compare schools before and after a "
        "phone ban measure test scores, not sleep, bullying or safety. Where scores rose, "
        "the rise was largest for the students who had been scoring lowest. A school that "
        "bans phones usually changes other rules in the same year, so a study has to show "
        "that the ban, and not the other changes, made the difference.",
    ),
    (
        "Our school's survey of parents",
        "Demo: the parents' association",
        "2025",
        "",
        "An invented survey for this demo. Of 212 parents who answered, 61 percent want "
        "phones kept in lockers during lessons but allowed at lunch; 24 percent want a ban "
        "for the whole day; 15 percent want no rule. The parents who want phones at lunch "
        "mostly say they need to reach their child about pick-up times.",
    ),
)


def _readings(owner: Any) -> CaseFile:
    case_file = CaseFile.objects.create(owner=owner, title=CASE_FILE_TITLE, is_demo=True)
    for title, author, published, citation, text in SOURCES:
        add_source(
            case_file=case_file,
            title=title,
            author=author,
            published=published,
            citation=citation,
            text=text,
        )
    return case_file


# (key, author, side or (target key, attack type, component, premise index), claim, premises,
# scheme, critical question)
POSTS: tuple[tuple[Any, ...], ...] = (
    (
        "ana",
        "demo-ana",
        "for",
        "Phones out of the school day would help students learn.",
        [
            "UNESCO's 2023 Global Education Monitoring Report found that phone use in class "
            "distracts students and lowers their results.",
            "After switching to a phone, a student can take up to 20 minutes to refocus on the lesson.",
        ],
        "expert_opinion",
        "",
    ),
    (
        "ben",
        "demo-ben",
        "against",
        "A ban would leave students unable to reach their families in an emergency.",
        ["Parents want to be able to reach their children during the day."],
        "consequences",
        "",
    ),
    (
        "carla",
        "demo-carla",
        ("ben", "undercut", "inference", None),
        "Wanting to reach a child does not need a phone in the pocket: every school office has "
        "a phone families can call.",
        [],
        "",
        "",
    ),
    (
        "dev",
        "demo-dev",
        "against",
        "Phones are useful.",
        ["You can look things up."],
        "",
        "",
    ),
    (
        "ana2",
        "demo-ana",
        ("dev", "rebut", "claim", None),
        "Useful for looking things up is not useful in a lesson: school tablets do that "
        "without the messages and games.",
        ["The school already lends tablets for research tasks."],
        "",
        "",
    ),
    (
        "ben2",
        "demo-ben",
        ("ana", "undermine", "premise", 0),
        "The UNESCO report summarises other studies; it did not measure what a ban does.",
        [],
        "",
        "expert.expertise",
    ),
    (
        "carla2",
        "demo-carla",
        ("ben2", "rebut", "claim", None),
        "The report rests on controlled studies of bans, such as the 2015 London School of "
        "Economics study of English schools, where results rose after phones were banned.",
        ["Beland and Murphy (2015) compared schools before and after their bans."],
        "",
        "",
    ),
)


@transaction.atomic
def load_demo_discussion() -> Discussion | None:
    """The demo discussion in the demo class (None if there is no demo class yet)."""
    classroom = Classroom.objects.filter(name=DEMO_CLASS_NAME).first()
    if classroom is None:
        return None
    existing = Discussion.objects.filter(classroom=classroom, title=DEMO_DISCUSSION_TITLE).first()
    if existing is not None:
        return existing
    instructor = classroom.instructors.order_by("pk").first()
    discussion = Discussion.objects.create(
        classroom=classroom,
        title=DEMO_DISCUSSION_TITLE,
        thesis=THESIS,
        due_at=timezone.now() + timedelta(days=7),
        created_by=instructor,
        readings=READINGS,
        case_file=_readings(instructor) if instructor is not None else None,
    )
    users = {u.username: u for u in get_user_model().objects.filter(username__startswith="demo-")}
    made: dict[str, Post] = {}
    for key, author, where, claim, premises, scheme, question in POSTS:
        if author not in users:
            continue
        common = {
            "discussion": discussion,
            "author": users[author],
            "claim": claim,
            "premises": premises,
            "scheme": scheme,
        }
        if isinstance(where, str):
            made[key] = Post.objects.create(kind=PostKind.ARGUMENT, side=where, **common)
        elif where[0] in made:
            target, attack_type, component, index = where
            made[key] = Post.objects.create(
                kind=PostKind.OBJECTION,
                target=made[target],
                attack_type=attack_type,
                component=component,
                premise_index=index,
                question_code=question,
                **common,
            )
    # Graded once the posts are in: the classmates who posted have work on its grid.
    sync_assignment(discussion=discussion, graded=True, author=instructor)
    return discussion
