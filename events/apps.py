import logging

from django.apps import AppConfig

logger = logging.getLogger(__name__)


def _on_new_card_data(sender, changes, source, **kwargs) -> None:
    """New card versions were imported: re-check the lists judged with the old ones (the
    errata check, in a worker; in this process when there is no broker)."""
    from celery import current_app
    from kombu.exceptions import OperationalError

    from .tasks import CHECK_ERRATA, check_errata_task

    label = f"import {source}".strip()
    if current_app.conf.task_always_eager:
        check_errata_task(source=label)
        return
    try:
        conf = current_app.conf  # the site's own queue (CITADEL_CELERY_QUEUE), as exports
        current_app.send_task(CHECK_ERRATA, kwargs={"source": label}, queue=conf.task_default_queue)
    except OperationalError:
        # The periodic check finds the same lists later.
        logger.exception("errata check not sent: the broker cannot be reached")


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"
    verbose_name = "Tournament events"

    def ready(self) -> None:
        from cards.signals import card_versions_changed

        card_versions_changed.connect(_on_new_card_data, dispatch_uid="events.errata")
