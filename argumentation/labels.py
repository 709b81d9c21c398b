"""The three labels of a Dung labelling (Caminada 2006; Modgil & Caminada 2009).

A labelling assigns every argument IN (accepted), OUT (attacked by an accepted
argument) or UNDEC (neither). Complete labellings correspond one-to-one with
complete extensions: the IN arguments form the extension.
"""

from enum import StrEnum

__all__ = ["Label"]


class Label(StrEnum):
    """Status of one argument; the values are the strings used in files and JSON."""

    IN = "IN"
    OUT = "OUT"
    UNDEC = "UNDEC"
