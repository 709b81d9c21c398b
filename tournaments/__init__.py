"""Model tournaments (issue 10). For now only the pure logic lives here.

Elo ratings, bracket seeding, budget allocation, convergence and the reply
shapes are plain Python with no Django import, so they can be tested on
their own; the Django app (models, orchestration, pages) is built on top.
"""
