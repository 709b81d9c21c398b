"""The Toulmin schema's enum values as words for the trial page, in the page's language.

The values themselves ("strong", "inductive", ...) are the JSON contract with the
model and stay English; only what the page shows is translated. Each table has
its own message context, because the same English word can need a different
Spanish one depending on what it qualifies (an evidence type agrees with
"evidencia", a logic type with "garantía").
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from argumentation.toulmin import EvidenceType, LogicType, QualifierForce, StrengthLevel

__all__ = ["LABELS", "toulmin_label"]

LABELS: dict[str, dict[str, Promise]] = {
    "strength": {
        StrengthLevel.ABSOLUTE: pgettext_lazy("strength level", "absolute"),
        StrengthLevel.STRONG: pgettext_lazy("strength level", "strong"),
        StrengthLevel.WEAK: pgettext_lazy("strength level", "weak"),
        StrengthLevel.IRRELEVANT: pgettext_lazy("strength level", "irrelevant"),
    },
    "degree": {
        QualifierForce.CERTAINLY: pgettext_lazy("qualifier degree", "certainly"),
        QualifierForce.PRESUMABLY: pgettext_lazy("qualifier degree", "presumably"),
        QualifierForce.PROBABLY: pgettext_lazy("qualifier degree", "probably"),
        QualifierForce.POSSIBLY: pgettext_lazy("qualifier degree", "possibly"),
        QualifierForce.APPARENTLY: pgettext_lazy("qualifier degree", "apparently"),
    },
    "logic_type": {
        LogicType.DEDUCTIVE: pgettext_lazy("logic type of a warrant", "deductive"),
        LogicType.INDUCTIVE: pgettext_lazy("logic type of a warrant", "inductive"),
        LogicType.ABDUCTIVE: pgettext_lazy("logic type of a warrant", "abductive"),
    },
    "evidence_type": {
        EvidenceType.EMPIRICAL: pgettext_lazy("evidence type", "empirical"),
        EvidenceType.STATISTICAL: pgettext_lazy("evidence type", "statistical"),
        EvidenceType.TESTIMONIAL: pgettext_lazy("evidence type", "testimonial"),
        EvidenceType.DOCUMENTARY: pgettext_lazy("evidence type", "documentary"),
        EvidenceType.EXPERT: pgettext_lazy("evidence type", "expert"),
    },
    # ClaimScope is a Literal, not an enum: its four values are spelled here.
    "scope": {
        "universal": pgettext_lazy("scope of a claim", "universal"),
        "general": pgettext_lazy("scope of a claim", "general"),
        "specific": pgettext_lazy("scope of a claim", "specific"),
        "singular": pgettext_lazy("scope of a claim", "singular"),
    },
}


def toulmin_label(value: object, kind: str) -> object:
    """The translated word for `value` of the enum `kind`; an unknown value is shown as it is."""
    return LABELS.get(kind, {}).get(value, value) if isinstance(value, str) else value
