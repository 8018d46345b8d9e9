"""Export jobs: start, claim, run, fail, reap and prune. All writes to ExportJob live here.

The states a job goes through:

    queued ──claim──► running ──► done
      ▲                  │  └───► failed   (bad parameters, time limit, an unexpected error)
      └── transient error or lost worker, while attempts remain (else failed)

A queued job whose message the broker lost (a Redis restart keeps no queue) is sent again
once it has waited CITADEL_EXPORT_RESEND_AFTER seconds. Every write after the claim is fenced
by `attempts`: a worker that was given up for dead and then wakes up finds its attempt
superseded and writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from uuid import UUID

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerUnavailable

from armybuilder import broker as probes
from armybuilder.checking import CheckError, detect_game
from armybuilder.lists.selectors import get_list_for_viewer
from events.models import EventList
from events.selectors import event_for_viewer, is_organiser, lists_for_viewer
from rules.models import Rulebook, Section

from . import dispatch, selectors
from .documents import DocumentError, RenderedDocument, render_pdf
from .models import ExportJob, ExportKind, ExportStatus

logger = logging.getLogger(__name__)

# Errors a second try can cure: the database or a network service went away for a moment.
# Anything else either fails the same way again or is a bug; neither deserves a retry.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    ConnectionError,
    TimeoutError,
)

# Progress stays below 100 until the file is stored: 100 means "downloadable".
MAX_RUNNING_PROGRESS = 99


class TransientExportError(Exception):
    """The job was put back in the queue after a transient error: the task retries it."""


class ExportQueueUnavailable(Exception):
    """The export queue (the broker) cannot be reached: no job was created. Try later."""


class ExportTargetNotFound(Exception):
    """The list, section or book does not exist or this viewer may not read it (a 404)."""


class ExportRequestInvalid(Exception):
    """A parameter is unusable; `field` names it for the 400 answer."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class ExportViewer:
    """Who asks: a signed-in user, or an anonymous session (its owner token and the lists
    it created, see armybuilder.lists)."""

    user: AbstractBaseUser | AnonymousUser | None
    session_owner: str = ""
    session_list_ids: Collection[int] = ()

    @property
    def signed_in_user(self) -> AbstractBaseUser | None:
        user = self.user
        return user if user is not None and user.is_authenticated else None


@dataclass(frozen=True, slots=True)
class ReapResult:
    requeued: int = 0
    failed: int = 0
    resent: int = 0


# --- limits ------------------------------------------------------------------------------------


def max_attempts() -> int:
    return max(1, settings.CITADEL_EXPORT_MAX_ATTEMPTS)


def stale_before(now: datetime) -> datetime:
    """A job started before this instant has outlived the worker's hard time limit: the
    worker killed it or died, so nobody is running it any more."""
    seconds = settings.CITADEL_EXPORT_TIME_LIMIT + settings.CITADEL_EXPORT_STALE_GRACE
    return now - timedelta(seconds=seconds)


def lost_before(now: datetime) -> datetime:
    """A job still queued whose message was sent before this instant has waited far longer
    than any queue should make it wait: its message was most likely lost."""
    return now - timedelta(seconds=settings.CITADEL_EXPORT_RESEND_AFTER)


def _expiry(now: datetime) -> datetime:
    return now + timedelta(hours=settings.CITADEL_EXPORT_EXPIRY_HOURS)


# --- starting a job ----------------------------------------------------------------------------


def export_params(
    *,
    kind: str,
    viewer: ExportViewer,
    list_id: int | None = None,
    token: str | None = None,
    text: str | None = None,
    game: str | None = None,
    section_id: int | None = None,
    rulebook_id: int | None = None,
    event_id: int | None = None,
    event_list_id: int | None = None,
    site: str | None = None,
) -> dict:
    """The renderer's parameters for a request whose fields have the right types, once the
    target is known to exist and be readable by this viewer."""
    if kind == ExportKind.ARMY_LIST:
        if list_id is not None:
            army_list = get_list_for_viewer(
                list_id=list_id,
                token=token,
                user=viewer.user,
                session_list_ids=viewer.session_list_ids,
            )
            if army_list is None:
                raise ExportTargetNotFound(_("No list you may see has this number."))
            # `site`: the address the request came to, for the sheet's QR code and short link.
            return {"list_id": army_list.pk, **({"site": site} if site else {})}
        try:
            return {"text": text or "", "game": detect_game(text or "", game or None)}
        except CheckError as exc:
            raise ExportRequestInvalid("game", str(exc)) from exc
    if kind == ExportKind.RULES_SECTION:
        if not Section.objects.filter(pk=section_id).exists():
            raise ExportTargetNotFound(_("No rules section has this id."))
        return {"section_id": section_id}
    if kind == ExportKind.RULEBOOK:
        if not Rulebook.objects.filter(pk=rulebook_id).exists():
            raise ExportTargetNotFound(_("No rulebook has this id."))
        return {"rulebook_id": rulebook_id}
    if kind == ExportKind.EVENT_LISTS:
        return _event_lists_params(viewer, event_id=event_id, event_list_id=event_list_id)
    raise ExportRequestInvalid(
        "kind",
        _("Unknown export kind %(kind)s: use army-list, rules-section or rulebook.")
        % {"kind": kind},
    )


def _event_lists_params(
    viewer: ExportViewer, *, event_id: int | None, event_list_id: int | None
) -> dict:
    """One list the viewer may read, or every list of an event whose lists they all may
    read (its organisers, or anyone once the lists are published)."""
    user = viewer.signed_in_user
    if event_list_id is not None:
        stored = EventList.objects.select_related("player__event").filter(pk=event_list_id).first()
        event = stored.player.event if stored else None
        if event is None or not lists_for_viewer(event, user).filter(pk=event_list_id).exists():
            raise ExportTargetNotFound(_("No list you may see has this number."))
        return {"event_list_id": event_list_id}
    event = event_for_viewer(event_id=event_id, user=user)
    if event is None or not (is_organiser(event, user) or event.is_published):
        raise ExportTargetNotFound(_("No event whose lists you may print has this number."))
    return {"event_id": event.pk}


def start_export(
    *, kind: str, language: str, viewer: ExportViewer, **fields: int | str | None
) -> ExportJob:
    """Check the request (see export_params), then create the job and queue it. Raises
    ExportQueueUnavailable, storing nothing, when the broker cannot be reached."""
    params = export_params(kind=kind, viewer=viewer, **fields)
    if not probes.runs_in_process() and not probes.broker_reachable():
        raise ExportQueueUnavailable(
            _(
                "Exports are paused for a moment: the export queue cannot be reached. "
                "Please try again in a minute."
            )
        )
    return create_export(kind=kind, params=params, language=language, viewer=viewer)


def create_export(*, kind: str, params: dict, language: str, viewer: ExportViewer) -> ExportJob:
    """A queued job; its task is sent once the surrounding transaction commits, so a worker
    never looks for a row it cannot see yet."""
    now = timezone.now()
    owner = viewer.signed_in_user
    job = ExportJob.objects.create(
        owner=owner,
        session_owner="" if owner is not None else viewer.session_owner,
        kind=kind,
        params=params,
        language=language,
        created_at=now,
        expires_at=_expiry(now),
    )
    transaction.on_commit(partial(dispatch_export, job_id=job.pk))
    return job


def dispatch_export(*, job_id: UUID) -> None:
    """Send the job's task. A broker that cannot be reached fails the job with a message
    instead of leaving it queued with no message to run it."""
    if probes.runs_in_process():
        _run_in_process(job_id=job_id)
        return
    try:
        dispatch.send_run_export(job_id=job_id)
    except BrokerUnavailable:
        logger.exception("export %s: the broker cannot be reached", job_id)
        ExportJob.objects.filter(pk=job_id, status=ExportStatus.QUEUED).update(
            status=ExportStatus.FAILED,
            error=_("The export queue cannot be reached. Please try again in a few minutes."),
            finished_at=timezone.now(),
        )


def _run_in_process(*, job_id: UUID) -> None:
    """No broker (the demo, CELERY_TASK_ALWAYS_EAGER): run the job in this process. Eager
    Celery would raise its retries into the web request, so transient errors are retried
    here, at once: there is no worker to hand them to."""
    for _attempt in range(max_attempts()):
        try:
            run_export(job_id=job_id)
        except TransientExportError:
            continue
        return


# --- running a job -----------------------------------------------------------------------------


def claim_export(*, job_id: UUID | str, now: datetime | None = None) -> ExportJob | None:
    """Take the job for this worker, atomically: one UPDATE that only a queued job, or a
    running one whose worker is gone, passes. A second delivery of the same message finds
    the job running (or finished) and gets None."""
    now = now or timezone.now()
    claimable = Q(status=ExportStatus.QUEUED) | Q(
        status=ExportStatus.RUNNING, started_at__lt=stale_before(now)
    )
    claimed = ExportJob.objects.filter(claimable, pk=job_id, attempts__lt=max_attempts()).update(
        status=ExportStatus.RUNNING,
        started_at=now,
        finished_at=None,
        progress=0,
        error="",
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return None
    return ExportJob.objects.get(pk=job_id)


def _this_attempt(job: ExportJob):
    """The job's row, as long as this attempt still owns it."""
    return ExportJob.objects.filter(pk=job.pk, status=ExportStatus.RUNNING, attempts=job.attempts)


def record_progress(*, job: ExportJob, percent: int) -> None:
    percent = max(0, min(int(percent), MAX_RUNNING_PROGRESS))
    _this_attempt(job).filter(progress__lt=percent).update(progress=percent)


def complete_export(*, job: ExportJob, document: RenderedDocument) -> bool:
    """Store the file and mark the job done. False (and no file left behind) when this
    attempt no longer owns the job."""
    filename = get_valid_filename(document.filename) or "export.pdf"
    if not filename.lower().endswith(".pdf"):
        filename += ".pdf"
    # One folder per job: a re-run replaces its own file instead of piling up copies.
    path = f"exports/{job.pk}/{filename}"
    if default_storage.exists(path):
        default_storage.delete(path)
    stored = default_storage.save(path, ContentFile(document.content))
    now = timezone.now()
    done = _this_attempt(job).update(
        status=ExportStatus.DONE,
        progress=100,
        file=stored,
        filename=filename,
        pages=document.pages,
        finished_at=now,
        expires_at=_expiry(now),
    )
    if not done:
        default_storage.delete(stored)
    return bool(done)


def fail_export(*, job: ExportJob, message: str) -> bool:
    """Mark this attempt failed with a message for the reader."""
    return bool(
        _this_attempt(job).update(
            status=ExportStatus.FAILED, error=message, finished_at=timezone.now()
        )
    )


def _requeue(job: ExportJob) -> bool:
    # The task's retry sends the next message itself, hence dispatched_at.
    return bool(
        _this_attempt(job).update(
            status=ExportStatus.QUEUED, progress=0, started_at=None, dispatched_at=timezone.now()
        )
    )


def _language(job: ExportJob) -> str:
    # Messages are written in the job's language when the site speaks it.
    return job.language if job.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def run_export(*, job_id: UUID | str) -> None:
    """Claim the job and render its document. Never raises for a job that fails (the reader
    sees "failed" and the message); raises TransientExportError after putting the job back
    in the queue, so the task retries with backoff."""
    try:
        job = claim_export(job_id=job_id)
    except TRANSIENT_ERRORS as exc:
        # Nothing changed yet: the job is still queued, and the retry will claim it.
        raise TransientExportError(str(exc)) from exc
    if job is None:
        return
    with translation.override(_language(job)):
        try:
            document = render_pdf(
                kind=job.kind,
                params=job.params,
                language=job.language,
                on_progress=lambda percent: record_progress(job=job, percent=percent),
            )
            complete_export(job=job, document=document)
        except DocumentError as exc:
            fail_export(job=job, message=str(exc))
        except SoftTimeLimitExceeded:
            fail_export(
                job=job,
                message=_(
                    "The export took longer than %(seconds)d seconds and was stopped. "
                    "Try a smaller part of the book."
                )
                % {"seconds": settings.CITADEL_EXPORT_SOFT_TIME_LIMIT},
            )
        except TRANSIENT_ERRORS as exc:
            logger.warning("export %s attempt %s: transient error %r", job.pk, job.attempts, exc)
            if job.attempts < max_attempts() and _requeue(job):
                raise TransientExportError(str(exc)) from exc
            fail_export(
                job=job,
                message=_("The export failed %(count)d times because a service was unavailable.")
                % {"count": job.attempts},
            )
        except Exception:
            logger.exception("export %s attempt %s failed", job.pk, job.attempts)
            fail_export(
                job=job,
                message=_("The export failed because of an error on our side. It has been logged."),
            )


# --- workers that vanished, files that expired -------------------------------------------------


def reap_export(*, job: ExportJob, now: datetime | None = None) -> ExportJob:
    """A running job whose worker is gone goes back to the queue while attempts remain, and
    fails with a message after that; a queued job whose message was lost is sent again. Any
    other job is returned as it is."""
    now = now or timezone.now()
    if not _reap(job, now):
        _resend(job, now)
    job.refresh_from_db()
    return job


def reap_stale_exports(*, now: datetime | None = None) -> ReapResult:
    now = now or timezone.now()
    outcomes = [
        _reap(job, now) for job in selectors.stale_running_jobs(stale_before=stale_before(now))
    ]
    resent = sum(
        _resend(job, now) for job in selectors.lost_queued_jobs(lost_before=lost_before(now))
    )
    return ReapResult(
        requeued=outcomes.count(ExportStatus.QUEUED),
        failed=outcomes.count(ExportStatus.FAILED),
        resent=resent,
    )


def _resend(job: ExportJob, now: datetime) -> bool:
    """Send a lost queued job's message again. Harmless if it was only slow: the claim lets
    one delivery run the job and the other does nothing."""
    if job.status != ExportStatus.QUEUED:
        return False
    waiting_since = job.dispatched_at or job.created_at
    if waiting_since >= lost_before(now):
        return False
    # Conditional on the value read, so two readers or cron runs resend it once.
    if not ExportJob.objects.filter(
        pk=job.pk, status=ExportStatus.QUEUED, dispatched_at=job.dispatched_at
    ).update(dispatched_at=now):
        return False
    logger.warning(
        "export %s: queued since %s with no worker taking it; resent", job.pk, waiting_since
    )
    transaction.on_commit(partial(dispatch_export, job_id=job.pk))
    return True


def _reap(job: ExportJob, now: datetime) -> ExportStatus | None:
    """What became of a stale job (queued again or failed), None when it was not stale."""
    if job.status != ExportStatus.RUNNING or job.started_at is None:
        return None
    stale = _this_attempt(job).filter(started_at__lt=stale_before(now))
    if job.attempts < max_attempts():
        if not stale.update(
            status=ExportStatus.QUEUED, progress=0, started_at=None, dispatched_at=now
        ):
            return None
        transaction.on_commit(partial(dispatch_export, job_id=job.pk))
        return ExportStatus.QUEUED
    with translation.override(_language(job)):
        message = _(
            "The export stopped answering %(count)d times (its worker was lost or it ran "
            "out of time) and was given up. Please try again."
        ) % {"count": job.attempts}
    if not stale.update(status=ExportStatus.FAILED, error=message, finished_at=now):
        return None
    return ExportStatus.FAILED


def prune_expired_exports(*, now: datetime | None = None) -> int:
    """Delete expired jobs and their files; returns how many jobs went."""
    count = 0
    for job in selectors.expired_jobs(now=now or timezone.now()):
        if job.file:
            job.file.delete(save=False)
        job.delete()
        count += 1
    return count
