"""The student's seven Toulmin elements as one argument of the debate engine, and back.

The graph debate's stages (debates/stages.py) attack arguments with a claim,
premises and assumptions, and enforce the ASPIC+ type rule on them (rebut the
claim, undermine a premise, undercut an assumption: Modgil & Prakken 2014).
A student's argument is given to them as one such argument:

- claim -> the claim;
- premises -> the grounds, then the grounds backing and the warrant backing
  when present (each is an ordinary premise, so an undermine fits it);
- assumptions -> the warrant (the inference licence: an undercut fits it).

The qualifier and the rebuttal argue for nothing and cannot be attacked; the
personas read them as context. :func:`element_of` maps an attack's
(component, index) back to the element it hits, for
``argumentation.toulmin_graph``. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["AsArgument", "as_argument", "element_of", "elements_of"]

_PREMISE_ELEMENTS = ("grounds", "groundsBacking", "warrantBacking")

# coach.Argument field -> the coach's camelCase element name.
_FIELDS = {
    "claim": "claim",
    "grounds": "grounds",
    "warrant": "warrant",
    "grounds_backing": "groundsBacking",
    "warrant_backing": "warrantBacking",
    "qualifier": "qualifier",
    "rebuttal": "rebuttal",
}


@dataclass(frozen=True, slots=True)
class AsArgument:
    claim: str
    premises: tuple[str, ...]
    premise_elements: tuple[str, ...]
    assumptions: tuple[str, ...]


def _text(elements: Mapping[str, str], name: str) -> str:
    return (elements.get(name) or "").strip()


def elements_of(argument) -> dict[str, str]:
    """The seven elements of a ``coach.Argument`` by their camelCase names."""
    return {name: (getattr(argument, field) or "").strip() for field, name in _FIELDS.items()}


def as_argument(elements: Mapping[str, str]) -> AsArgument:
    present = tuple(name for name in _PREMISE_ELEMENTS if _text(elements, name))
    return AsArgument(
        claim=_text(elements, "claim"),
        premises=tuple(_text(elements, name) for name in present),
        premise_elements=present,
        assumptions=(_text(elements, "warrant"),) if _text(elements, "warrant") else (),
    )


def element_of(elements: Mapping[str, str], *, component: str, index: int) -> str | None:
    """The element an attack on (component, index) hits; None if there is none."""
    if component == "claim" and index == 0:
        return "claim"
    if component == "assumption" and index == 0 and _text(elements, "warrant"):
        return "warrant"
    if component == "premise":
        present = as_argument(elements).premise_elements
        if 0 <= index < len(present):
            return present[index]
    return None
