from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rules reference")

    def ready(self) -> None:
        # The search index is built (or started in the background) when a process gets
        # its first request, so the first search does not wait for it.
        from django.core.signals import request_started
        from django.db.models.signals import post_delete

        from common.blas import one_blas_thread

        from .search.vocabulary import recheck_soon, warm_up_once

        one_blas_thread()  # the search's small products: common/blas.py

        request_started.connect(warm_up_once, dispatch_uid="rules-search-warm-up")
        # The index keeps the sections it shows: one deleted makes this process check the
        # books at its next search (other processes within RECHECK_SECONDS).
        post_delete.connect(
            recheck_soon, sender="rules.Section", dispatch_uid="rules-search-section-deleted"
        )
