from django.apps import AppConfig


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = "Citadel"
