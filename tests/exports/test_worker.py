"""Exports through a real Redis broker and a real Celery worker (in a thread of this process).

The worker thread reads the rows the test commits, hence transaction=True. Redis comes from
CITADEL_TEST_REDIS_URL (scripts/test sets it for both database passes; default: the local
server's db 15). Without a reachable Redis these tests skip, except in CI, when
CITADEL_REQUIRE_SERVICES is set, or when CITADEL_TEST_REDIS_URL was given: then they fail.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from datetime import timedelta

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from armybuilder.celery import app
from exports import services
from exports.models import ExportJob, ExportStatus

from .conftest import make_job

pytestmark = pytest.mark.django_db(transaction=True)

EXPORTS = "/api/v1/exports/"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
WAIT_SECONDS = 30
# The queue names a Celery worker with default settings, or Citadel's own, consumes.
STRANGER_QUEUES = ["celery", settings.CITADEL_CELERY_QUEUE]


def _redis_url() -> str:
    url = os.environ.get("CITADEL_TEST_REDIS_URL") or DEFAULT_REDIS_URL
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        message = f"Redis is not reachable at {url} for the real-worker export tests: {exc}"
        required = (
            os.environ.get("CI")
            or os.environ.get("CITADEL_REQUIRE_SERVICES") == "1"
            or os.environ.get("CITADEL_TEST_REDIS_URL")
        )
        if required:
            pytest.fail(message)
        pytest.skip(message)
    return url


def forget_broker_connections() -> None:
    """The app caches its connection and producer pools on first use; drop them so the next
    message goes to the broker now configured (kombu keeps one pool per broker URL)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture(scope="module")
def worker():
    """The project's Celery app pointed at Redis, with one worker consuming a queue of
    its own."""
    url = _redis_url()
    conf = app.conf
    saved = {key: conf[key] for key in ("broker_url", "task_always_eager", "task_default_queue")}
    # A queue of this run's own: a stranger's worker on the same Redis database never takes
    # these messages, and this worker never takes the stranger's.
    queue = f"citadel-test-{uuid.uuid4().hex[:12]}"
    conf.update(broker_url=url, task_always_eager=False, task_default_queue=queue)
    forget_broker_connections()
    try:
        with start_worker(
            app, pool="solo", queues=[queue], perform_ping_check=False, shutdown_timeout=30
        ) as w:
            yield w
    finally:
        conf.update(saved)
        forget_broker_connections()
        redis.Redis.from_url(url).delete(queue)


def retry_locked(read, tries: int = 20):
    """SQLite's shared in-memory test database answers "table is locked" at once (no busy
    wait) when the worker thread writes; the test thread waits and reads again."""
    for _ in range(tries - 1):
        try:
            return read()
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc):
                raise
            time.sleep(0.05)
    return read()


@pytest.fixture(autouse=True)
def reads_without_table_locks():
    """SQLite's shared in-memory test database locks a table for the worker's writes while
    this thread reads it; read_uncommitted lets the polling reads take no table locks, so
    the worker does not meet "table is locked" (which it would rightly retry, adding an
    attempt the assertions do not expect)."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")
    yield


def wait_until_finished(job_id) -> ExportJob:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        job = retry_locked(lambda: ExportJob.objects.get(pk=job_id))
        if job.is_finished:
            return job
        time.sleep(0.05)
    pytest.fail(f"export {job_id} not finished after {WAIT_SECONDS} s: {job.status}")


class SlowCountingRenderer:
    """Counts renders; each takes a little while, so a duplicate message arrives mid-run."""

    def __init__(self, fail_first_with: BaseException | None = None):
        self.calls = 0
        self.lock = threading.Lock()
        self.fail_first_with = fail_first_with

    def __call__(self, **kwargs):
        from exports.documents import render_pdf

        with self.lock:
            self.calls += 1
            failure, self.fail_first_with = self.fail_first_with, None
        if failure is not None:
            raise failure
        time.sleep(0.3)
        return render_pdf(**kwargs)


def test_worker_api_export_reaches_done_with_downloadable_pdf(worker, player, section):
    client = APIClient()
    client.force_authenticate(player)
    created = client.post(
        EXPORTS, {"kind": "rules-section", "section_id": section.pk}, format="json"
    )
    assert created.status_code == 202
    job = wait_until_finished(created.json()["id"])
    assert job.status == ExportStatus.DONE
    status = retry_locked(lambda: client.get(created.json()["url"]))
    download = retry_locked(lambda: client.get(status.json()["download"]))
    assert b"".join(download.streaming_content).startswith(b"%PDF-")


def test_worker_raising_task_ends_failed_with_message(worker, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the printer is on fire")

    monkeypatch.setattr(services, "render_pdf", broken)
    job = wait_until_finished(make_job().pk)
    assert job.status == ExportStatus.FAILED
    assert "error on our side" in job.error


def test_worker_duplicated_message_runs_job_once(worker, monkeypatch, section):
    renderer = SlowCountingRenderer()
    monkeypatch.setattr(services, "render_pdf", renderer)
    job = make_job(params={"section_id": section.pk})
    # make_job's own dispatch ran at commit; send the same message twice more.
    services.dispatch_export(job_id=job.pk)
    services.dispatch_export(job_id=job.pk)
    assert wait_until_finished(job.pk).status == ExportStatus.DONE
    time.sleep(0.5)  # let the duplicates reach the worker and be refused
    assert renderer.calls == 1


def test_worker_retries_transient_error_with_backoff_then_done(worker, monkeypatch, section):
    renderer = SlowCountingRenderer(fail_first_with=OperationalError("connection reset"))
    monkeypatch.setattr(services, "render_pdf", renderer)
    job = wait_until_finished(make_job(params={"section_id": section.pk}).pk)
    assert (job.status, job.attempts, renderer.calls) == (ExportStatus.DONE, 2, 2)


def test_worker_vanished_job_is_rerun_not_left_running(worker, player, settings, section):
    # A worker took the job and died: "running" since before the hard time limit.
    settings.CITADEL_EXPORT_TIME_LIMIT = 2
    settings.CITADEL_EXPORT_STALE_GRACE = 1
    job = ExportJob.objects.create(
        owner=player,
        kind="rules-section",
        params={"section_id": section.pk},
        status=ExportStatus.RUNNING,
        attempts=1,
        started_at=timezone.now() - timedelta(seconds=4),
        expires_at=timezone.now() + timedelta(days=1),
    )
    client = APIClient()
    client.force_authenticate(player)
    answered = retry_locked(lambda: client.get(f"{EXPORTS}{job.pk}/"))
    assert answered.status_code == 200  # reading it noticed the lost worker and re-queued it
    job = wait_until_finished(job.pk)
    assert (job.status, job.attempts) == (ExportStatus.DONE, 2)


def test_worker_vanished_job_out_of_attempts_fails_past_time_limit(worker, player, settings):
    settings.CITADEL_EXPORT_TIME_LIMIT = 1
    settings.CITADEL_EXPORT_STALE_GRACE = 1
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 1
    job = ExportJob.objects.create(
        owner=player,
        kind="rules-section",
        params={"section_id": 1},
        status=ExportStatus.RUNNING,
        attempts=1,
        started_at=timezone.now(),
        expires_at=timezone.now() + timedelta(days=1),
    )
    client = APIClient()
    client.force_authenticate(player)
    assert retry_locked(lambda: client.get(f"{EXPORTS}{job.pk}/")).json()["status"] == "running"
    time.sleep(2.1)  # past the hard time limit and its grace: nobody can be running it
    body = retry_locked(lambda: client.get(f"{EXPORTS}{job.pk}/")).json()
    assert body["status"] == "failed"
    assert "given up" in body["error"]


@pytest.fixture
def stranger(worker):
    """Another Celery worker on the same Redis database (another checkout's tests, a local
    site): it takes whatever lands in the default queues and never runs it."""
    url = _redis_url()
    stop = threading.Event()
    taken: list[bytes] = []

    def consume() -> None:
        client = redis.Redis.from_url(url, socket_timeout=5)
        while not stop.is_set():
            popped = client.brpop(STRANGER_QUEUES, timeout=1)
            if popped is not None:
                taken.append(popped[1])

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    yield taken
    stop.set()
    thread.join(timeout=5)


def test_worker_messages_never_reach_a_strangers_worker_on_the_same_redis(
    stranger, player, section
):
    with transaction.atomic():  # sent together at commit: no write meets the worker's
        jobs = [make_job(user=player, params={"section_id": section.pk}) for _ in range(3)]
    finished = [wait_until_finished(job.pk) for job in jobs]
    assert [job.status for job in finished] == [ExportStatus.DONE] * 3
    assert stranger == []


def test_worker_queued_job_whose_message_was_lost_is_resent_and_done(
    worker, player, settings, section
):
    # Committed and "sent" long ago, but no message is in the queue: the broker lost it.
    settings.CITADEL_EXPORT_RESEND_AFTER = 60
    long_ago = timezone.now() - timedelta(seconds=61)
    job = ExportJob.objects.create(
        owner=player,
        kind="rules-section",
        params={"section_id": section.pk},
        created_at=long_ago,
        dispatched_at=long_ago,
        expires_at=timezone.now() + timedelta(days=1),
    )
    client = APIClient()
    client.force_authenticate(player)
    answered = retry_locked(lambda: client.get(f"{EXPORTS}{job.pk}/"))
    # Reading it noticed and sent it again; the worker may already have taken it.
    assert answered.json()["status"] in {"queued", "running", "done"}
    job = wait_until_finished(job.pk)  # without the resend, no message would ever run it
    assert (job.status, job.attempts) == (ExportStatus.DONE, 1)


def test_worker_health_reports_broker_and_worker_ok(worker, client):
    answer = retry_locked(lambda: client.get("/health/"))
    checks = answer.json()["checks"]
    assert answer.status_code == 200
    assert (checks["broker"]["status"], checks["worker"]["status"]) == ("ok", "ok")
