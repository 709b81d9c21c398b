"""The engine every format runs on: a run claimed under a lease, stage by stage.

Each stage's calls go through the ledger (a paid call is replayed by its
request hash, never paid twice), and each stage commits its rows, its events
and its ``StageRun`` in one transaction, so a killed worker resumes at the
first stage not saved; the event log is gapless and followed live over SSE
from any ``Last-Event-ID``. The budget stop, admission (the running-runs cap
and the spending limits), Retry and resume are the same for every format.

What is run is a registered format (``formats``): the graph debate
(``debates``), inquiries, tournaments, stress tests. The engine imports none
of them; each registers its ``Format`` in its ``AppConfig.ready``.
"""
