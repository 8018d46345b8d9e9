"""Sending an export job's task, by name, through the project's Celery app; and asking
whether the broker and a worker answer (the 503 of a new export, /health/).

The task module (exports.tasks) imports the services it runs; the services send that task.
Sending it by name from here keeps the two from importing each other: this module knows the
task's name and the app, not the task. `celery.current_app` is the project's app in every
thread of a process that started Django (armybuilder.celery makes it the default app).
"""

from __future__ import annotations

from uuid import UUID

from celery import current_app
from kombu.exceptions import OperationalError as BrokerUnavailable

RUN_EXPORT = "exports.run_export"
PRUNE_EXPORTS = "exports.prune_exports"
# Seconds to wait for the broker, or for a worker's answer, when asking if they are there.
PROBE_TIMEOUT = 1.0


def runs_in_process() -> bool:
    """No broker to send to (the demo, CELERY_TASK_ALWAYS_EAGER): the caller runs the job."""
    return bool(current_app.conf.task_always_eager)


def send_run_export(*, job_id: UUID | str) -> None:
    """One message for a worker to run the job. Raises kombu's OperationalError when the
    broker cannot be reached."""
    # The queue is read at each send (not cached by Celery's router): a test run, or a second
    # site on the same Redis, consumes its own (CITADEL_CELERY_QUEUE).
    conf = current_app.conf
    current_app.send_task(RUN_EXPORT, args=[str(job_id)], queue=conf.task_default_queue)


def broker_reachable(*, timeout: float = PROBE_TIMEOUT) -> bool:
    """The broker accepts a connection now. A new connection, not a pooled one: a pooled
    connection can look connected after the server went away."""
    try:
        with current_app.connection_for_write(connect_timeout=timeout) as connection:
            connection.ensure_connection(max_retries=0, timeout=timeout)
            connection.default_channel  # noqa: B018 - opening a channel talks to the server
    except (BrokerUnavailable, OSError):
        return False
    return True


def workers_answering(*, timeout: float = PROBE_TIMEOUT) -> int:
    """How many workers answered a ping (at least one is enough: it stops at the first)."""
    try:
        replies = current_app.control.ping(timeout=timeout, limit=1)
    except (BrokerUnavailable, OSError):
        return 0
    return len(replies or ())
