"""Export job services: claim, run, fail, retry, reap and prune (Celery in-process)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from exports import dispatch, services, tasks
from exports.documents import DocumentError
from exports.models import ExportJob, ExportStatus

from .conftest import make_job

pytestmark = pytest.mark.django_db


def long_ago(settings) -> timezone.datetime:
    """Further back than any worker may run a job (hard time limit plus grace)."""
    limit = settings.CITADEL_EXPORT_TIME_LIMIT + settings.CITADEL_EXPORT_STALE_GRACE
    return timezone.now() - timedelta(seconds=limit + 1)


def running_job(settings, *, attempts: int, started_at=None) -> ExportJob:
    job = make_job()
    ExportJob.objects.filter(pk=job.pk).update(
        status=ExportStatus.RUNNING,
        attempts=attempts,
        started_at=started_at or long_ago(settings),
        progress=40,
    )
    job.refresh_from_db()
    return job


# --- creating and dispatching ------------------------------------------------------------------


def test_create_export_sends_task_only_after_commit(django_capture_on_commit_callbacks, section):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = make_job(params={"section_id": section.pk})
    job.refresh_from_db()
    assert job.status == ExportStatus.QUEUED
    assert len(callbacks) == 1


def test_create_export_in_process_runs_job_to_done(django_capture_on_commit_callbacks, section):
    with django_capture_on_commit_callbacks(execute=True):
        job = make_job(params={"section_id": section.pk})
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts) == (ExportStatus.DONE, 100, 1)


def test_create_export_sets_expiry_from_setting(settings):
    settings.CITADEL_EXPORT_EXPIRY_HOURS = 2
    job = make_job()
    assert timedelta(hours=1, minutes=59) < job.expires_at - job.created_at <= timedelta(hours=2)


@pytest.fixture
def with_broker():
    """Dispatch through a broker, as in production, instead of in-process."""
    conf = tasks.run_export_job.app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = eager


def test_dispatch_export_broker_unreachable_fails_job_with_message(monkeypatch, with_broker):
    def unreachable(*args, **kwargs):
        raise BrokerUnavailable("connection refused")

    monkeypatch.setattr(dispatch, "send_run_export", unreachable)
    job = make_job()
    services.dispatch_export(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.FAILED
    assert "queue cannot be reached" in job.error


# --- claiming ----------------------------------------------------------------------------------


def test_claim_export_second_claim_gets_nothing():
    job = make_job()
    assert services.claim_export(job_id=job.pk) is not None
    assert services.claim_export(job_id=job.pk) is None


def test_claim_export_finished_job_gets_nothing(section):
    job = make_job(params={"section_id": section.pk})
    services.run_export(job_id=job.pk)
    assert services.claim_export(job_id=job.pk) is None


def test_claim_export_takes_over_running_job_whose_worker_is_gone(settings):
    job = running_job(settings, attempts=1)
    claimed = services.claim_export(job_id=job.pk)
    assert claimed is not None
    assert (claimed.attempts, claimed.progress) == (2, 0)


def test_claim_export_leaves_running_job_with_live_worker(settings):
    job = running_job(settings, attempts=1, started_at=timezone.now())
    assert services.claim_export(job_id=job.pk) is None


def test_claim_export_refuses_job_out_of_attempts(settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 2
    job = running_job(settings, attempts=2)
    assert services.claim_export(job_id=job.pk) is None


# --- running -----------------------------------------------------------------------------------


def test_run_export_stores_pdf_and_marks_done(section):
    job = make_job(params={"section_id": section.pk})
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.DONE
    assert job.finished_at is not None and job.pages >= 1
    with default_storage.open(job.file.name, "rb") as stored:
        assert stored.read(5) == b"%PDF-"


def test_run_export_duplicated_message_renders_once(renderer, section):
    job = make_job(params={"section_id": section.pk})
    services.run_export(job_id=job.pk)
    services.run_export(job_id=job.pk)
    assert renderer.calls == 1


def test_run_export_raising_renderer_fails_with_message(renderer):
    renderer.fail_with.append(RuntimeError("boom"))
    job = make_job()
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.FAILED
    assert "error on our side" in job.error
    assert job.finished_at is not None


def test_run_export_document_error_fails_at_once_with_its_message(renderer):
    renderer.fail_with.append(DocumentError("No rules section has this id."))
    job = make_job()
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == (
        ExportStatus.FAILED,
        "No rules section has this id.",
        1,
    )


def test_run_export_soft_time_limit_fails_with_message(renderer, settings):
    settings.CITADEL_EXPORT_SOFT_TIME_LIMIT = 42
    renderer.fail_with.append(SoftTimeLimitExceeded())
    job = make_job()
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.FAILED
    assert "42 seconds" in job.error


def test_run_export_transient_error_requeues_and_asks_for_retry(renderer):
    renderer.fail_with.append(OperationalError("server closed the connection"))
    job = make_job()
    with pytest.raises(services.TransientExportError):
        services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (ExportStatus.QUEUED, 1)


def test_run_export_transient_error_on_last_attempt_fails(renderer, settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 1
    renderer.fail_with.append(ConnectionError("redis went away"))
    job = make_job()
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.FAILED
    assert "unavailable" in job.error


def test_run_export_error_message_in_job_language(renderer):
    renderer.fail_with.append(RuntimeError("boom"))
    job = make_job(language="fr")
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert "erreur de notre côté" in job.error


def test_record_progress_never_goes_back_and_stays_below_100():
    job = services.claim_export(job_id=make_job().pk)
    services.record_progress(job=job, percent=60)
    services.record_progress(job=job, percent=30)
    services.record_progress(job=job, percent=100)
    job.refresh_from_db()
    assert job.progress == services.MAX_RUNNING_PROGRESS


def test_complete_export_superseded_attempt_writes_nothing(settings, section):
    from exports.documents import RenderedDocument

    job = make_job(params={"section_id": section.pk})
    first = services.claim_export(job_id=job.pk)
    ExportJob.objects.filter(pk=job.pk).update(started_at=long_ago(settings))
    second = services.claim_export(job_id=job.pk)
    document = RenderedDocument(filename="late.pdf", content=b"%PDF-late", pages=1)
    assert services.complete_export(job=first, document=document) is False
    assert not default_storage.exists(f"exports/{job.pk}/late.pdf")
    second.refresh_from_db()
    assert (second.status, second.attempts) == (ExportStatus.RUNNING, 2)


# --- the task ----------------------------------------------------------------------------------


def test_task_options_make_it_late_acked_time_limited_and_retrying_transient_errors_only():
    task = tasks.run_export_job
    assert task.acks_late is True
    assert 0 < task.soft_time_limit < task.time_limit
    assert task.autoretry_for == (services.TransientExportError,)
    assert task.retry_backoff


def test_task_transient_error_retries_then_done(renderer, section):
    renderer.fail_with.append(OperationalError("database is restarting"))
    job = make_job(params={"section_id": section.pk})
    tasks.run_export_job.apply(args=[str(job.pk)], throw=False)
    job.refresh_from_db()
    assert (job.status, job.attempts, renderer.calls) == (ExportStatus.DONE, 2, 2)


def test_task_transient_errors_past_max_attempts_fail_job(renderer, settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 2
    renderer.fail_with.extend([OperationalError("down"), OperationalError("still down")])
    job = make_job()
    tasks.run_export_job.apply(args=[str(job.pk)], throw=False)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (ExportStatus.FAILED, 2)


# --- workers that vanished ---------------------------------------------------------------------


def test_reap_export_stale_job_with_attempts_left_is_queued_again(
    settings, django_capture_on_commit_callbacks
):
    job = running_job(settings, attempts=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        reaped = services.reap_export(job=job)
    assert (reaped.status, reaped.progress) == (ExportStatus.QUEUED, 0)
    assert len(callbacks) == 1  # sent again once committed


def test_reap_export_stale_job_out_of_attempts_fails_with_message(settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 2
    job = running_job(settings, attempts=2)
    reaped = services.reap_export(job=job)
    assert reaped.status == ExportStatus.FAILED
    assert "given up" in reaped.error


def test_reap_export_running_job_within_time_limit_is_left_running(settings):
    job = running_job(settings, attempts=1, started_at=timezone.now() - timedelta(seconds=5))
    assert services.reap_export(job=job).status == ExportStatus.RUNNING


def test_reap_stale_exports_counts_requeued_and_failed(settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 2
    running_job(settings, attempts=1)
    running_job(settings, attempts=2)
    running_job(settings, attempts=1, started_at=timezone.now())
    assert services.reap_stale_exports() == services.ReapResult(requeued=1, failed=1)


# --- messages the broker lost ------------------------------------------------------------------


def queued_job(*, waited_seconds: int, dispatched: bool = True) -> ExportJob:
    """A queued job put back in the queue `waited_seconds` ago (or, first sent, created
    then)."""
    job = make_job()
    then = timezone.now() - timedelta(seconds=waited_seconds)
    ExportJob.objects.filter(pk=job.pk).update(
        created_at=then, dispatched_at=then if dispatched else None
    )
    job.refresh_from_db()
    return job


def test_reap_export_requeued_job_is_not_taken_for_lost(
    settings, django_capture_on_commit_callbacks
):
    job = running_job(settings, attempts=1)
    ExportJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.CITADEL_EXPORT_RESEND_AFTER + 1)
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.reap_export(job=job)
        again = services.reap_export(job=job)
    assert again.status == ExportStatus.QUEUED
    assert len(callbacks) == 1  # sent by the reaping, not resent by the second read


def test_reap_export_queued_job_whose_message_was_lost_is_resent(
    settings, django_capture_on_commit_callbacks
):
    job = queued_job(waited_seconds=settings.CITADEL_EXPORT_RESEND_AFTER + 1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        reaped = services.reap_export(job=job)
    assert reaped.status == ExportStatus.QUEUED
    assert timezone.now() - reaped.dispatched_at < timedelta(seconds=5)
    assert len(callbacks) == 1


def test_reap_export_queued_job_recently_sent_is_not_resent(
    settings, django_capture_on_commit_callbacks
):
    job = queued_job(waited_seconds=settings.CITADEL_EXPORT_RESEND_AFTER - 30)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.reap_export(job=job)
    assert callbacks == []


def test_reap_stale_exports_resends_lost_messages_once(
    settings, django_capture_on_commit_callbacks
):
    waited = settings.CITADEL_EXPORT_RESEND_AFTER + 1
    queued_job(waited_seconds=waited)
    queued_job(waited_seconds=waited, dispatched=False)  # committed, never sent
    queued_job(waited_seconds=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = services.reap_stale_exports()
        second = services.reap_stale_exports()
    assert (first.resent, second.resent) == (2, 0)
    assert len(callbacks) == 2


# --- expiry ------------------------------------------------------------------------------------


def test_prune_expired_exports_deletes_job_and_file(section):
    job = make_job(params={"section_id": section.pk})
    services.run_export(job_id=job.pk)
    job.refresh_from_db()
    name = job.file.name
    ExportJob.objects.filter(pk=job.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert services.prune_expired_exports() == 1
    assert not ExportJob.objects.filter(pk=job.pk).exists()
    assert not default_storage.exists(name)


def test_prune_expired_exports_keeps_unexpired_and_running_jobs(settings):
    make_job()
    old_running = running_job(settings, attempts=1, started_at=timezone.now())
    ExportJob.objects.filter(pk=old_running.pk).update(expires_at=timezone.now())
    assert services.prune_expired_exports() == 0


def test_prune_exports_command_reaps_and_prunes(settings, capsys):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 1
    running_job(settings, attempts=1)
    expired = make_job()
    ExportJob.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(days=1))
    call_command("prune_exports")
    assert capsys.readouterr().out.strip() == (
        "stale jobs re-queued: 0, failed: 1; lost messages resent: 0; expired exports deleted: 1"
    )


def test_prune_exports_task_reaps_and_prunes(settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 1
    stale = running_job(settings, attempts=1)
    expired = make_job()
    ExportJob.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(days=1))
    tasks.prune_exports.delay()
    assert ExportJob.objects.get(pk=stale.pk).status == ExportStatus.FAILED
    assert not ExportJob.objects.filter(pk=expired.pk).exists()


def test_prune_exports_is_in_the_beat_schedule(settings):
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks.prune_exports.name in names


def test_dispatch_export_in_process_retries_transient_error_then_done(renderer, section):
    renderer.fail_with.append(OperationalError("database is locked"))
    job = make_job(params={"section_id": section.pk})
    services.dispatch_export(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (ExportStatus.DONE, 2)


def test_run_export_claim_transient_error_leaves_job_queued_and_asks_for_retry(monkeypatch):
    def database_gone(**kwargs):
        raise OperationalError("the database system is starting up")

    job = make_job()
    monkeypatch.setattr(services, "claim_export", database_gone)
    with pytest.raises(services.TransientExportError):
        services.run_export(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (ExportStatus.QUEUED, 0)
