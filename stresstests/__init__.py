"""Stress tests: personas attack a student's coach argument, and the student answers.

A format of the engine (``engine``), registered as ``stress``: the seven
Toulmin elements mapped to one argument, the graph debate's attack and
validation stages borrowed, the student's concessions and defences judged,
and the claim's status computed by ``argumentation.toulmin_graph``.
"""
