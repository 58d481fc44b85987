"""Background tasks (django-tasks; the worker is ``manage.py db_worker``)."""

from django_tasks import task

from .services.import_jobs import import_job_execute


@task()
def import_job_run(*, job_id: int) -> str:
    """Import one uploaded file (an ``ImportJob``); its outcome is written to the job."""
    return import_job_execute(job_id=job_id).status
