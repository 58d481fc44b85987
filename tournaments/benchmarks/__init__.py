"""The parts of ``manage.py bench`` (tournaments/management/commands/bench.py).

- ``club.py``: a synthetic club of N score lines, bulk-written, its deals scored by the real
  scoring core;
- ``stores.py``: the throwaway databases it is built in (SQLite files or PostgreSQL databases)
  and the default connection pointed at one of them;
- ``pages.py``: the pages timed through Django's test client;
- ``imports.py``: the import step (an N-line file imported in another process while deals are
  recorded here).
"""
