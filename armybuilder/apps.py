from django.apps import AppConfig


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = "Citadel"

    def ready(self) -> None:
        from .citations import connect_signals

        connect_signals()
