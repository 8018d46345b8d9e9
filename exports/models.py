"""Export jobs: the database row is the source of truth for a PDF export.

The Celery task only carries the job id; everything it needs (kind, parameters, language)
and everything a reader asks (status, progress, error, file) lives here, so a message can be
lost, duplicated or redelivered without losing or repeating work.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ExportKind(models.TextChoices):
    ARMY_LIST = "army-list", _("Army list")
    RULES_SECTION = "rules-section", _("Rules section")
    RULEBOOK = "rulebook", _("Rulebook")
    EVENT_LISTS = "event-lists", _("Event list sheets")


class ExportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ExportJob(models.Model):
    # A UUID, not a counter: job ids appear in URLs and must not tell how many exports exist.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="export_jobs",
    )
    # Anonymous visitors: a random token kept in their session (not the session key itself,
    # which changes at login and must never sit in a table readable by other code).
    session_owner = models.CharField(max_length=64, blank=True, db_index=True)

    kind = models.CharField(max_length=16, choices=ExportKind.choices)
    params = models.JSONField(default=dict)
    language = models.CharField(max_length=2, default="en")

    status = models.CharField(
        max_length=8, choices=ExportStatus.choices, default=ExportStatus.QUEUED
    )
    progress = models.PositiveSmallIntegerField(default=0)
    # Incremented by every claim: the fencing token that keeps a reaped, re-run job's
    # earlier worker from writing over the new run.
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    file = models.FileField(upload_to="exports/", max_length=255, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    pages = models.PositiveIntegerField(null=True, blank=True)

    created_at = models.DateTimeField(default=timezone.now)
    # When the job was last put back in the queue (retry, reaped, resent); its first message
    # goes out as it is created. A queued job waiting much longer than that has probably
    # lost its message to the broker (a Redis restart keeps no queue) and is resent.
    dispatched_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "started_at"], name="export_status_started"),
            models.Index(fields=["expires_at"], name="export_expires"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (ExportStatus.DONE, ExportStatus.FAILED)
