"""Reads of export jobs: who may see a job, which jobs are stale or expired."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from .models import ExportJob, ExportStatus


def get_job_for_viewer(
    *,
    job_id: UUID | str,
    user: AbstractBaseUser | AnonymousUser | None,
    session_owner: str = "",
) -> ExportJob | None:
    """The job if this viewer started it: its owner, or the anonymous session that created
    it. None otherwise, for a job that does not exist too (both are a 404)."""
    job = ExportJob.objects.filter(pk=job_id).first()
    if job is None:
        return None
    if job.owner_id is not None:
        return (
            job if user is not None and user.is_authenticated and user.pk == job.owner_id else None
        )
    return job if session_owner and job.session_owner == session_owner else None


def stale_running_jobs(*, stale_before: datetime) -> Iterator[ExportJob]:
    return ExportJob.objects.filter(
        status=ExportStatus.RUNNING, started_at__lt=stale_before
    ).iterator()


def lost_queued_jobs(*, lost_before: datetime) -> Iterator[ExportJob]:
    """Queued jobs whose message was sent (or, never sent, which were created) too long ago."""
    return (
        ExportJob.objects.filter(status=ExportStatus.QUEUED)
        .filter(
            Q(dispatched_at__lt=lost_before)
            | Q(dispatched_at__isnull=True, created_at__lt=lost_before)
        )
        .iterator()
    )


def expired_jobs(*, now: datetime) -> QuerySet[ExportJob]:
    # A job still running is never pruned under its worker, however old it is.
    return ExportJob.objects.filter(expires_at__lt=now).exclude(status=ExportStatus.RUNNING)
