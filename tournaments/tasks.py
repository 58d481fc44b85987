"""The task's former address, for rows queued before it moved beside its service
(``services/import_jobs.py``); remove one release after the move."""

from .services.import_jobs import import_job_run

__all__ = ["import_job_run"]
