"""Graph decompositions that let the solvers split a framework into parts.

* Strongly connected components in topological order (Tarjan 1972, made
  iterative so that 10,000-argument chains do not hit Python's recursion
  limit). Preferred, complete and stable semantics are SCC-recursive (Baroni,
  Giacomin & Guida 2005): the labels inside one SCC depend only on the labels
  of the SCCs before it, which is what the SCC-by-SCC enumeration relies on.
* Weakly connected components: the extensions of a disjoint union are the
  products of the components' extensions, so counting multiplies.
* Ancestors: the status of an argument under grounded, complete and
  preferred semantics depends only on the arguments that can reach it.

Each function works on the subgraph induced by a mask ``inside`` (a
``bytearray`` over all indices, 1 = keep) so that callers can drop the
arguments the grounded labelling already decided.
"""

from __future__ import annotations

from .framework import IndexedGraph

__all__ = ["ancestors", "strongly_connected_components", "weakly_connected_components"]


def strongly_connected_components(
    graph: IndexedGraph, *, nodes: list[int], inside: bytearray
) -> list[list[int]]:
    """SCCs of the induced subgraph, attackers' components before attacked ones."""
    attacked = graph.attacked
    order = [-1] * graph.n
    low = [0] * graph.n
    on_stack = bytearray(graph.n)
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in nodes:
        if order[root] != -1:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = 1
        work = [(root, 0)]
        while work:
            v, position = work[-1]
            successors = attacked[v]
            while position < len(successors):
                w = successors[position]
                position += 1
                if not inside[w]:
                    continue
                if order[w] == -1:
                    work[-1] = (v, position)
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = 1
                    work.append((w, 0))
                    break
                if on_stack[w] and order[w] < low[v]:
                    low[v] = order[w]
            else:
                work.pop()
                if low[v] == order[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = 0
                        component.append(w)
                        if w == v:
                            break
                    components.append(component)
                if work:
                    parent = work[-1][0]
                    if low[v] < low[parent]:
                        low[parent] = low[v]
    # Tarjan emits sinks first; the solvers want sources first.
    components.reverse()
    return components


def weakly_connected_components(
    graph: IndexedGraph, *, nodes: list[int], inside: bytearray
) -> list[list[int]]:
    """Connected components of the induced subgraph, ignoring attack direction."""
    attackers, attacked = graph.attackers, graph.attacked
    seen = bytearray(graph.n)
    components: list[list[int]] = []
    for root in nodes:
        if seen[root]:
            continue
        seen[root] = 1
        component = [root]
        for v in component:
            for w in attackers[v]:
                if inside[w] and not seen[w]:
                    seen[w] = 1
                    component.append(w)
            for w in attacked[v]:
                if inside[w] and not seen[w]:
                    seen[w] = 1
                    component.append(w)
        components.append(component)
    return components


def ancestors(graph: IndexedGraph, *, target: int, inside: bytearray) -> list[int]:
    """``target`` and every argument of the subgraph with a path of attacks to it."""
    attackers = graph.attackers
    seen = {target}
    found = [target]
    for v in found:
        for w in attackers[v]:
            if inside[w] and w not in seen:
                seen.add(w)
                found.append(w)
    return found
