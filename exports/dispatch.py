"""Sending an export job's task, by name, through the project's Celery app (whether the
broker and a worker answer is armybuilder.broker's: /health/ asks it too).

The task module (exports.tasks) imports the services it runs; the services send that task.
Sending it by name from here keeps the two from importing each other: this module knows the
task's name and the app, not the task. `celery.current_app` is the project's app in every
thread of a process that started Django (armybuilder.celery makes it the default app).
"""

from __future__ import annotations

from uuid import UUID

from celery import current_app

RUN_EXPORT = "exports.run_export"
PRUNE_EXPORTS = "exports.prune_exports"


def send_run_export(*, job_id: UUID | str) -> None:
    """One message for a worker to run the job. Raises kombu's OperationalError when the
    broker cannot be reached."""
    # The queue is read at each send (not cached by Celery's router): a test run, or a second
    # site on the same Redis, consumes its own (CITADEL_CELERY_QUEUE).
    conf = current_app.conf
    current_app.send_task(RUN_EXPORT, args=[str(job_id)], queue=conf.task_default_queue)
