"""Celery tasks: thin. The job id goes in; exports.services does the work and keeps the state.

acks_late: a message is acknowledged only after the job ran, so a worker that dies mid-job
leaves the message to be delivered again (the claim then sees whether anyone still runs it).
Only TransientExportError is retried: the service raises it after putting the job back in
the queue, and fails the job itself once its attempts are spent.
"""

from celery import shared_task
from celery.signals import worker_process_init
from django.conf import settings

from . import services
from .dispatch import RUN_EXPORT


@shared_task(
    name=RUN_EXPORT,
    acks_late=True,
    ignore_result=True,
    soft_time_limit=settings.CITADEL_EXPORT_SOFT_TIME_LIMIT,
    time_limit=settings.CITADEL_EXPORT_TIME_LIMIT,
    autoretry_for=(services.TransientExportError,),
    # The service counts attempts in the database; Celery's counter is only a backstop.
    max_retries=settings.CITADEL_EXPORT_MAX_ATTEMPTS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
)
def run_export_job(job_id: str) -> None:
    services.run_export(job_id=job_id)


@worker_process_init.connect
def preload_pdf_engine(**_kwargs) -> None:
    """Load WeasyPrint and Pango when a worker process starts (about 0.7 s), so the first
    reader's export does not wait for it. The web process never imports it."""
    import weasyprint  # noqa: F401
