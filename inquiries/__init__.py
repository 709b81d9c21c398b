"""Evidence-grounded inquiries (issue 9): for now only the pure parts.

`gates` (No-Free-Facts, Muḥāsabah), `stopping` (the stop condition) and `scoring` (the
arbiter's Brier utility) import no Django; the models, the graph and the pages come
later, when this package becomes an app.
"""
