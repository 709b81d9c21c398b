"""The graph debate: personas argue a topic, their arguments and typed attacks form a graph.

A format of the engine (``engine``), registered as ``graph``: its stages
(decompose, opening arguments, attacks, validation), prompts and reply
schemas, the graph and its semantics (``argumentation``), the round's stop
check, the SVG of the graph, and the pages, among them the history page that
lists the runs of every format.
"""
