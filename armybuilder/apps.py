from django.apps import AppConfig


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = "Citadel"

    def ready(self) -> None:
        from .citations import connect_signals

        connect_signals()
        # The Celery app is configured from Django's settings, so it is loaded once Django
        # is: the package's __init__ stays empty and the pure game logic Django-free.
        from . import celery  # noqa: F401
