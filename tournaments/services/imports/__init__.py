"""Import results from a CSV file or an Excel workbook, all or nothing (docs/import-format.md).

The header names the game. The import runs in two phases so that a club can go on recording
deals while a file of ten years of results goes in:

1. **Check and score, holding no lock.** Every row is read (``rows``: columns, dates,
   numbers, names) and checked (``check``: rule sets, sessions already in the database) and
   scored by the scoring core through ``scoring_bridge`` exactly as ``deal_record`` scores a
   deal typed at the table, each distinct deal shape once (``shapes``). Player ids are
   reserved first (``bulk.reserve_ids``), so deals are scored with their final keys and an
   error message names the player as the file does. Any error: ``ImportFailed`` lists them
   all and nothing is written.
2. **Write in one short transaction** (``write``). Sessions, deals and score lines are
   prepared as database parameters before the transaction opens; inside it only bulk inserts
   run (the deals' history rows copied by the database from the deal rows), and the standings
   aggregates, summed once per player and period, are added with one upsert each
   (``INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c``), last, so a deal saved
   meanwhile waits for a moment at most. One bad row, or a fault at any point: nothing is
   imported.
3. **Ratings** are replayed after the commit by the task worker (``ratings_queue``), not in
   the import's own time; readers see the ratings from before the import until the replay
   switches to its new ones at once.

The file's bytes are read into rows by ``services/import_files.py``.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from ...models import Club
from ...results_format import (
    DAIFUGO_COLUMNS,
    NAPOLEON_COLUMNS,
    NAPOLEON_DEAL_OPTIONAL,
    SESSION_OPTIONAL,
)
from ..import_files import MAX_BYTES, Source, source_label
from ..ratings_queue import ratings_replay_queue
from .check import source_check
from .problems import (
    ChangedError,
    ImportFailed,
    ImportProblem,
    ImportReport,
    failed,
    import_error,
    import_summary,
)
from .rows import Progress, source_of
from .write import plan_write, prepare

__all__ = [
    "DAIFUGO_COLUMNS", "MAX_BYTES", "NAPOLEON_COLUMNS", "NAPOLEON_DEAL_OPTIONAL",
    "SESSION_OPTIONAL", "ImportFailed", "ImportProblem", "ImportReport", "import_summary",
    "results_import",
]  # fmt: skip


def _noop(stage: str, done: int, total: int) -> None:
    return None


def results_import(
    *, club: Club, file: bytes | str | None = None, rows: Iterable[Iterable[str]] | None = None,
    user=None, filename: str = "", sheet: str = "", progress: Progress | None = None,
    on_written: Callable[[ImportReport], None] | None = None,
) -> ImportReport:  # fmt: skip
    """Import a results file (CSV bytes or text, or an .xlsx workbook) or already-split
    ``rows`` (header first) into ``club``. Raises ``ImportFailed`` listing every problem; then
    nothing is written. ``progress(stage, done, total)`` is called now and then;
    ``on_written(report)`` inside the write transaction, after the rows, so that what it writes
    (a background job's outcome) is committed with them or not at all."""
    progress = progress or _noop
    source = source_of(file, rows, filename, sheet)
    with _no_cycle_collection():
        try:
            return _import(club, source, user, progress, on_written)
        except ChangedError:
            pass
        try:  # the club changed between the check and the write: check everything again, once
            return _import(club, source, user, progress, on_written)
        except ChangedError:
            raise failed(1, "file", import_error("file", "changed_meanwhile")) from None


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while the import runs. The import builds hundreds of
    thousands of rows, tuples and dicts that live until the write, and the collector walks all
    of them again and again as they pile up (a quarter of the import's CPU time for 20,000
    lines, docs/performance.md); none of them is part of a cycle, and reference counting
    frees them as before. The collector runs again afterwards, as it was."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _import(club: Club, source: Source, user, progress: Progress, on_written=None) -> ImportReport:
    checked = source_check(club, source, progress)
    game, total = checked.game, checked.total
    progress("writing", total, total)
    plan = prepare(club, checked, user)
    report = ImportReport(
        game=game, sessions=[s for s, _r in plan.sessions], deals=plan.deal_count,
        redeals=plan.redeals, players_created=len(plan.new_players),
        source=source_label(source.kind, source.sheet), source_kind=source.kind,
        sheet=source.sheet,
    )  # fmt: skip
    committed = (lambda: on_written(report)) if on_written else None
    plan_write(club, game, plan, committed)
    # Ratings are derived from the whole history: replayed once, after the import committed,
    # by the task worker (services/ratings_queue.py); until then readers see the ratings as
    # they were before the import, never half of it.
    ratings_replay_queue(club_id=club.pk, game=game)
    progress("done", total, total)
    return report
