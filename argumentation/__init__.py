"""Pure-Python argumentation: Dung frameworks and their semantics.

No Django, no network: this package imports nothing else of the project.
The solver core (exact, SAT-based via python-sat) is re-exported here.
"""

from .acceptance import AcceptanceResult, credulous_acceptance, skeptical_acceptance
from .extensions import (
    complete_extensions,
    preferred_extensions,
    semi_stable_extensions,
    stable_extensions,
)
from .formats import (
    FormatError,
    parse_apx,
    parse_framework,
    parse_iccma23,
    parse_tgf,
    read_framework,
    write_apx,
    write_framework,
    write_iccma23,
    write_tgf,
)
from .framework import ArgumentationFramework
from .grounded import grounded_extension, grounded_labelling
from .labels import Label
from .semantics import SEMANTICS, count_extensions, extensions, some_extension
from .verify import is_admissible, is_complete, is_conflict_free, is_stable

__all__ = [
    "SEMANTICS",
    "AcceptanceResult",
    "ArgumentationFramework",
    "FormatError",
    "Label",
    "complete_extensions",
    "count_extensions",
    "credulous_acceptance",
    "extensions",
    "grounded_extension",
    "grounded_labelling",
    "is_admissible",
    "is_complete",
    "is_conflict_free",
    "is_stable",
    "parse_apx",
    "parse_framework",
    "parse_iccma23",
    "parse_tgf",
    "preferred_extensions",
    "read_framework",
    "semi_stable_extensions",
    "skeptical_acceptance",
    "some_extension",
    "stable_extensions",
    "write_apx",
    "write_framework",
    "write_iccma23",
    "write_tgf",
]
