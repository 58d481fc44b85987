"""The ratings replay after an import, as a task of the worker (django-tasks).

An import writes a club's deals and score lines in one transaction and notes that its ratings
must be replayed (``ratings.ratings_lines_changed``); the replay — the whole history of the
club's game learned again, its rating history rows written — then runs in the task worker
(``manage.py worker``), not in the import's own time: the upload's request, the import's job
and ``manage.py import_results`` end at the commit.

Ratings are never seen half-done. Until the replay is written, every reader sees the ratings as
they were before the import (the rating history's current generation and the players' current
ratings, both untouched by the import); the replay writes its history under a new generation no
reader looks at and switches to it, with the players' ratings, in one short transaction
(``ratings.ratings_replay``). A deal recorded meanwhile is learned as before and caught up by
the replay. If the task is lost (the worker's queue emptied by hand), ``manage.py
ratings_rebuild`` replays every club.
"""

from __future__ import annotations

from django_tasks import task

from .ratings import ratings_replay


@task()
def ratings_replay_run(*, club_id: int, game: str) -> int:
    """The task: replay the club's ratings in ``game``; returns the generation written."""
    return ratings_replay(club_id=club_id, game=game).generation


def ratings_replay_queue(*, club_id: int, game: str) -> None:
    """Queue the club's replay (call after the import's transaction committed)."""
    ratings_replay_run.enqueue(club_id=club_id, game=game)
