"""Celery tasks: thin. The job id goes in; exports.services does the work and keeps the state.

acks_late: a message is acknowledged only after the job ran, so a worker that dies mid-job
leaves the message to be delivered again (the claim then sees whether anyone still runs it).
Only TransientExportError is retried: the service raises it after putting the job back in
the queue, and fails the job itself once its attempts are spent.
"""

import logging

from celery import shared_task
from celery.signals import worker_process_init
from django.conf import settings

from . import services
from .dispatch import PRUNE_EXPORTS, RUN_EXPORT

logger = logging.getLogger(__name__)


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


@shared_task(name=PRUNE_EXPORTS, ignore_result=True)
def prune_exports() -> None:
    """Periodic (Celery beat, CELERY_BEAT_SCHEDULE): what `manage.py prune_exports` does."""
    reaped = services.reap_stale_exports()
    pruned = services.prune_expired_exports()
    if reaped.requeued or reaped.failed or reaped.resent or pruned:
        logger.info("prune_exports: %s; expired deleted: %d", reaped, pruned)


@worker_process_init.connect
def preload_pdf_engine(**_kwargs) -> None:
    """Load WeasyPrint and Pango when a worker process starts (about 0.7 s), so the first
    reader's export does not wait for it. The web process never imports it."""
    import weasyprint  # noqa: F401
