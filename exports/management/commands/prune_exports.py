"""Housekeeping for PDF exports; run it from cron every few minutes (it is cheap).

Re-queues or fails jobs whose worker vanished, resends queued jobs whose message was lost
(both are also noticed whenever someone reads the job), then deletes expired jobs with
their files.
"""

from django.core.management.base import BaseCommand

from exports import services


class Command(BaseCommand):
    help = "Reap export jobs whose worker vanished and delete expired exports with their files."

    def handle(self, *args, **options) -> None:
        reaped = services.reap_stale_exports()
        pruned = services.prune_expired_exports()
        self.stdout.write(
            f"stale jobs re-queued: {reaped.requeued}, failed: {reaped.failed}; "
            f"lost messages resent: {reaped.resent}; "
            f"expired exports deleted: {pruned}"
        )
