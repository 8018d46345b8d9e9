from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rules reference")

    def ready(self) -> None:
        # The search index is built (or started in the background) when a process gets
        # its first request, so the first search does not wait for it.
        from django.core.signals import request_started

        from .search.vocabulary import warm_up_once

        request_started.connect(warm_up_once, dispatch_uid="rules-search-warm-up")
