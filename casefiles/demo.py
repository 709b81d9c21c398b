"""A small, realistic demo case file (readings written for the demo, real spans and index).

Two of its sources report from the same study, so the inquiry demo shows the
Sanad grade treating them as ONE line of evidence, not two.
"""

from __future__ import annotations

from django.db import transaction

from casefiles.models import CaseFile, Visibility
from casefiles.services import add_source

__all__ = ["DEMO_TITLE", "load_demo_case_file"]

DEMO_TITLE = "Congestion pricing: the readings"

STUDY = (
    "Transport Institute (2021). Evaluation of the central charging zone, years one to five.",
    "Transport Institute",
    "2021",
    "Transport Institute report TI-2021-07",
    "Five years after the charge started, traffic entering the charging zone was 22% lower than "
    "in the year before it began. Average bus speeds in the zone rose by 9%.\n\n"
    "Roadside nitrogen dioxide fell by 12% at the zone's monitoring stations, while stations on "
    "the ring road just outside the zone recorded a 3% rise.\n\n"
    "Net revenue of 1.2 billion over five years was spent on buses and cycle lanes.",
)
NEWS_A = (
    "City traffic down a fifth, study finds",
    "Daily Courier",
    "2021-09-14",
    "Daily Courier, 14 September 2021",
    "A study by the Transport Institute found that traffic entering the charging zone fell by 22% "
    "after the charge began. Buses in the centre now run faster, the study says.",
)
NEWS_B = (
    "Charge cleared the air, report says",
    "Metro Weekly",
    "2021-09-20",
    "Metro Weekly, 20 September 2021",
    "Pollution at monitoring stations inside the zone fell 12%, according to the Transport "
    "Institute's evaluation. Critics point out that the ring road got slightly worse.",
)
SHOPS = (
    "Retail footfall in the charging zone",
    "Chamber of Commerce",
    "2022",
    "Chamber of Commerce survey, spring 2022",
    "In a survey of 410 shops inside the zone, 31% reported fewer customers than before the "
    "charge, and 18% reported more. Footfall counters on the main shopping street showed a 4% "
    "fall over the same period, in line with the national trend.",
)
EQUITY = (
    "Who pays the charge?",
    "University Urban Lab",
    "2023",
    "Urban Lab working paper 23-4",
    "Households in the lowest income fifth made 6% of car trips into the zone, against 38% for "
    "the highest fifth. Low-income drivers who still drive in pay a larger share of their income, "
    "and the lab found no discount scheme for them.",
)


@transaction.atomic
def load_demo_case_file(*, owner) -> CaseFile:
    """The demo case file, created once (returned as it is when it exists)."""
    existing = CaseFile.objects.filter(is_demo=True, title=DEMO_TITLE).first()
    if existing is not None:
        return existing
    case_file = CaseFile.objects.create(
        owner=owner,
        title=DEMO_TITLE,
        description=(
            "Readings for the question: should our city adopt congestion pricing? Written "
            "for this demo: the institute, the newspapers, the chamber and the lab are "
            "invented, and each reading says who wrote it, when, and whom it reports from."
        ),
        visibility=Visibility.PUBLIC,
        is_demo=True,
    )

    def add(entry, origin=None):
        title, author, published, citation, text = entry
        return add_source(
            case_file=case_file,
            title=title,
            author=author,
            published=published,
            citation=citation,
            text=text,
            upstream_origin_id=origin.pk if origin else None,
        )

    study = add(STUDY)
    add(NEWS_A, study)
    add(NEWS_B, study)
    add(SHOPS)
    add(EQUITY)
    return case_file
