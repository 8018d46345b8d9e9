from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards")

    def ready(self) -> None:
        # Layers above cards (the rules reference) plug their card-page links in through
        # a `card_links` module: see cards.rule_links.
        autodiscover_modules("card_links")
