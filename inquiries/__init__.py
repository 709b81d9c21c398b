"""Evidence-grounded inquiries over a case file: a format of the engine (``engine``).

A question is argued from the case file's sources by an advocate, a source
checker and observers, node by node along a declared graph (`graph`, run by
`stages` and `format`), each claim graded by its chains of evidence. The
rules are pure and import no Django: `gates` (No-Free-Facts, Muḥāsabah),
`stopping` (the stop condition) and `scoring` (the arbiter's Brier utility);
the models, audit chain, pages and exports are the Django app around them.
"""
