"""What the pages and the API both read from a request: who is asking, and the throttle."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

from armybuilder.lists.visitors import session_list_ids
from common.i18n import current_language

from .models import ExportJob, ExportKind
from .selectors import get_job_for_viewer
from .services import ExportViewer, reap_export, start_export

SESSION_OWNER_KEY = "citadel_export_owner"


def session_owner(request: HttpRequest, *, create: bool) -> str:
    """This browser's anonymous export token. Kept in the session data (not the session
    key), so it survives the key change at login; `create` makes one on the first export."""
    token = request.session.get(SESSION_OWNER_KEY, "")
    if not isinstance(token, str):
        token = ""
    if not token and create:
        token = secrets.token_urlsafe(24)
        request.session[SESSION_OWNER_KEY] = token
    return token


def export_viewer(request: HttpRequest, *, create_session: bool = False) -> ExportViewer:
    return ExportViewer(
        user=request.user,
        session_owner=session_owner(request, create=create_session),
        session_list_ids=session_list_ids(request),
    )


def start_requested_export(request: HttpRequest, validated: dict) -> ExportJob:
    """The job for a validated ExportRequestSerializer (API body or Export PDF form)."""
    fields = dict(validated)
    kind = fields.pop("kind")
    language = fields.pop("language", None) or current_language()
    if kind == ExportKind.ARMY_LIST and fields.get("list_id") is not None:
        fields["site"] = request.build_absolute_uri("/").rstrip("/")
    return start_export(
        kind=kind,
        language=language,
        viewer=export_viewer(request, create_session=True),
        **fields,
    )


class ExportRateThrottle(SimpleRateThrottle):
    """Export creation per user (per address for anonymous visitors): CITADEL_EXPORT_RATE,
    e.g. "30/hour". Shared by the API and the pages' Export PDF button."""

    scope = "exports"

    def get_rate(self) -> str:
        return settings.CITADEL_EXPORT_RATE

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def requested_job(request: HttpRequest, job_id) -> ExportJob | None:
    """The viewer's job (None: not theirs, or none), its lost worker noticed on the way, so
    a reader never sees "running" forever even if prune_exports does not run."""
    job = get_job_for_viewer(
        job_id=job_id, user=request.user, session_owner=session_owner(request, create=False)
    )
    return None if job is None else reap_export(job=job)
