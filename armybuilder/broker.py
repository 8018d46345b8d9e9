"""Asking the project's Celery app whether its broker and a worker answer: what /health/
reports and what refuses a new export with a 503 before a job is stored.

Generic probes of the app (no task, no app of ours): they live with the project package so
that /health/ (armybuilder.health) and the exports (exports.services, exports.dispatch) both
import them downward. `celery.current_app` is the project's app in every thread of a process
that started Django (armybuilder.celery makes it the default app).
"""

from __future__ import annotations

from celery import current_app
from kombu.exceptions import OperationalError as BrokerUnavailable

# Seconds to wait for the broker, or for a worker's answer, when asking if they are there.
PROBE_TIMEOUT = 1.0


def runs_in_process() -> bool:
    """No broker to send to (the demo without a worker, CELERY_TASK_ALWAYS_EAGER): the caller
    runs the job itself."""
    return bool(current_app.conf.task_always_eager)


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
