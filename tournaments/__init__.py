"""Model tournaments: a format of the engine in which models meet in a bracket.

Each match is challenges and defences judged by an arbiter, until the two
models' recommendations converge or the match's budget share runs out; the
winners rise in Elo ratings per decision type. The arithmetic is pure (no
Django): `elo`, `bracket`, `budget`, `convergence` and the reply shapes in
`schemas` and `verdicts`; the models, the stages on the engine, the pages,
the response cache and the command line are the Django app around them.
"""
