"""Grounded semantics in time linear in the number of attacks.

The grounded extension is the least fixpoint of Dung's (1995) characteristic
function. Instead of iterating that function (quadratic), we propagate labels
as in the labelling algorithm of Modgil & Caminada (2009, Alg. 6.1) with the
counter trick of Nofal, Atkinson & Dunne (2021, "Computing grounded
extensions of abstract argumentation frameworks"): each argument keeps the
number of its attackers not yet labelled OUT; when that number drops to zero
the argument becomes IN, and everything it attacks becomes OUT. Every attack
is looked at a bounded number of times, so the whole run is O(n + |R|).

The internal functions work on an :class:`IndexedGraph` and return a
``bytearray`` of codes (``UNDEC``=0, ``IN``=1, ``OUT``=2) so that the SAT
solvers can reuse them without building dictionaries. ``closure_codes`` can
also label the framework with some arguments left out (code ``REMOVED``=3),
without building it again: a left-out attacker is counted as already gone,
so each counter starts lower (the same counters, Nofal et al. 2021).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import compress

from .framework import ArgumentationFramework, IndexedGraph
from .labels import Label

__all__ = [
    "IN",
    "OUT",
    "REMOVED",
    "UNDEC",
    "GroundedReduct",
    "closure_codes",
    "grounded_codes",
    "grounded_extension",
    "grounded_labelling",
    "grounded_reduct",
]

UNDEC, IN, OUT = 0, 1, 2
# Not a label: the code of an argument ``closure_codes`` was told to leave out.
REMOVED = 3
_LABEL_OF_CODE = (Label.UNDEC, Label.IN, Label.OUT)


def closure_codes(
    graph: IndexedGraph, *, seed: Iterable[int] = (), removed: Iterable[int] = ()
) -> bytearray:
    """Label codes of the least complete extension containing ``seed``.

    ``seed`` must be admissible (indices); with an empty seed this is the
    grounded labelling. Starting from the seed (plus the unattacked
    arguments) the fixpoint is reached by counter propagation.

    ``removed`` (indices) are left out of the framework: they are coded
    ``REMOVED``, attack nothing and are attacked by nothing, so the codes of
    the others are those of the framework restricted to them. ``seed`` must
    then be admissible in that restricted framework, and not removed.
    """
    attacked = graph.attacked
    remaining = [len(attackers) for attackers in graph.attackers]
    codes = bytearray(graph.n)
    for r in removed:
        if codes[r] == REMOVED:
            continue
        codes[r] = REMOVED
        for k in attacked[r]:
            remaining[k] -= 1
    queue = [i for i, count in enumerate(remaining) if not count and not codes[i]]
    for i in queue:
        codes[i] = IN
    for i in seed:
        if not codes[i]:
            codes[i] = IN
            queue.append(i)
    # `queue` grows while we walk it: a list used as a FIFO without pops.
    for i in queue:
        for j in attacked[i]:
            # Only an UNDEC target turns OUT: one already OUT has had its
            # attacks counted, and a removed one attacks nothing.
            if codes[j] == UNDEC:
                codes[j] = OUT
                for k in attacked[j]:
                    remaining[k] -= 1
                    # An OUT argument keeps an IN attacker that is never
                    # decremented, so reaching zero means "newly IN".
                    if not remaining[k] and not codes[k]:
                        codes[k] = IN
                        queue.append(k)
    return codes


def grounded_codes(graph: IndexedGraph) -> bytearray:
    """Label codes (UNDEC=0, IN=1, OUT=2) of the grounded labelling."""
    return closure_codes(graph)


@dataclass(frozen=True, slots=True)
class GroundedReduct:
    """The grounded labelling and the arguments it leaves UNDEC.

    Every complete extension contains the grounded IN arguments and none of
    the OUT ones, and the complete (preferred, stable, semi-stable)
    extensions are exactly grounded-IN plus the corresponding extensions of
    the framework restricted to the UNDEC arguments: no UNDEC argument is
    attacked by an IN one, and its OUT attackers are already defeated. So
    the SAT solvers only ever see ``undecided`` (mask: ``inside``).
    """

    codes: bytearray
    accepted: list[int]
    undecided: list[int]
    inside: bytearray


def grounded_reduct(graph: IndexedGraph) -> GroundedReduct:
    """Compute the grounded labelling and split off its UNDEC part."""
    codes = grounded_codes(graph)
    inside = bytearray(code == UNDEC for code in codes)
    return GroundedReduct(
        codes=codes,
        accepted=[i for i, code in enumerate(codes) if code == IN],
        undecided=[i for i, flag in enumerate(inside) if flag],
        inside=inside,
    )


def grounded_extension(af: ArgumentationFramework) -> frozenset[Hashable]:
    """The grounded extension: the least complete extension (Dung 1995)."""
    codes = grounded_codes(af.graph)
    return frozenset(compress(af.arguments, [code == IN for code in codes]))


def grounded_labelling(af: ArgumentationFramework) -> dict[Hashable, Label]:
    """The grounded labelling: every argument mapped to IN, OUT or UNDEC."""
    codes = grounded_codes(af.graph)
    return {
        argument: _LABEL_OF_CODE[code] for argument, code in zip(af.arguments, codes, strict=True)
    }
