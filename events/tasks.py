"""Celery tasks of events: thin. The errata check runs after a card import that moved card
versions (sent by events.apps) and periodically (Celery beat, settings.CELERY_BEAT_SCHEDULE),
which also catches an import whose message was lost."""

from celery import shared_task

from . import errata

CHECK_ERRATA = "events.check_errata"


@shared_task(name=CHECK_ERRATA, acks_late=True, ignore_result=True)
def check_errata_task(source: str = "periodic") -> None:
    errata.check_errata(source=source)
