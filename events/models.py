"""Tournament events: an event, its players (or teams), and the one list each player brings.

States of an event (computed, never stored twice):

    open ──(deadline passes, or an organiser locks early)──▶ locked ──(publish)──▶ published

- open: players submit and resubmit; every submission is judged at once and stored with
  the card versions and ruleset it was judged with, and its fingerprint. Card data
  re-imported while the event is open re-judges the lists (errata impact).
- locked: nothing about a list changes any more: `EventList` rows are never written again
  (services refuse, with a message). The deadline locks by itself: `Event.is_locked` is
  true from the deadline on, whether or not anyone pressed "lock".
- published: every list can be read by whoever can read the event (before that a player
  reads only their own list; organisers read all).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armybuilder.lists.models import ArmyList, ListGame
from cards.models import Scenario


class EventVisibility(models.TextChoices):
    PUBLIC = "public", _("Public: listed and readable by anyone")
    UNLISTED = "unlisted", _("Unlisted: only organisers, players and people with the join link")


class EventQuerySet(models.QuerySet):
    def open(self, now: datetime | None = None) -> EventQuerySet:
        """Events whose lists have not locked yet (no early lock, deadline still ahead)."""
        now = now or timezone.now()
        return self.filter(
            models.Q(locked_at__isnull=True) | models.Q(locked_at__gt=now),
            models.Q(deadline__isnull=True) | models.Q(deadline__gt=now),
        )


class Event(models.Model):
    name = models.CharField(max_length=120)
    date = models.DateField()
    place = models.CharField(max_length=160, blank=True)
    game = models.CharField(max_length=16, choices=ListGame.choices, default=ListGame.TMG)
    # TMG: the game size; Tactics: a scenario with a budget, or a gold-silver-copper budget.
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    scenario = models.ForeignKey(
        Scenario, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    gold = models.PositiveSmallIntegerField(null=True, blank=True)
    silver = models.PositiveSmallIntegerField(null=True, blank=True)
    copper = models.PositiveSmallIntegerField(null=True, blank=True)
    ruleset = models.CharField(max_length=64, blank=True)
    # Slugs of the TMG game modes (or Tactics scenarios) the event will play.
    game_modes = models.JSONField(default=list, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # Players per team; 1 for an individual event.
    team_size = models.PositiveSmallIntegerField(default=1)
    visibility = models.CharField(
        max_length=16, choices=EventVisibility.choices, default=EventVisibility.UNLISTED
    )
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_events")
    # The join link: /events/join/<token>/ lets a signed-in player join an unlisted event.
    join_token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    locked_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["visibility", "-date"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_team_event(self) -> bool:
        return self.team_size > 1

    def lock_time(self) -> datetime | None:
        """When the lists locked (or lock): the earlier of an early lock and the deadline."""
        times = [t for t in (self.locked_at, self.deadline) if t is not None]
        return min(times) if times else None

    @property
    def is_locked(self) -> bool:
        when = self.lock_time()
        return when is not None and when <= timezone.now()

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def budget_label(self) -> str:
        """Tactics: "3-6-18"; "" when the event has no coin budget."""
        coins = (self.gold, self.silver, self.copper)
        return "" if None in coins else "-".join(map(str, coins))

    @property
    def size_label(self) -> str:
        if self.game == ListGame.TACTICS:
            return self.budget_label
        return str(self.points) if self.points else ""


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_unique_name_per_event")
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player of one event: a signed-in user who joined (or was added), or only a name
    (lists the organiser collected elsewhere and brought in by bulk intake)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="event_players",
    )
    name = models.CharField(max_length=120)
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=models.Q(user__isnull=False),
                name="player_one_per_user_per_event",
            ),
            models.UniqueConstraint(fields=["event", "name"], name="player_unique_name_per_event"),
        ]

    def __str__(self) -> str:
        return self.name


class ListSource(models.TextChoices):
    SAVED = "saved", _("Saved list")
    TEXT = "text", _("Pasted text")
    SHARE_CODE = "share_code", _("War Council share code")
    INTAKE = "intake", _("Bulk intake")


class ListStatus(models.TextChoices):
    LEGAL = "legal", _("Legal")
    ILLEGAL = "illegal", _("Illegal")
    UNREADABLE = "unreadable", _("Unreadable")


class EventList(models.Model):
    """The list a player brings, as last submitted: the text exactly as given, and the
    verdict it was judged with (both languages), the card versions and ruleset behind that
    verdict, and the fingerprint over all three."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="event_list")
    source = models.CharField(max_length=16, choices=ListSource.choices)
    saved_list = models.ForeignKey(
        ArmyList, on_delete=models.SET_NULL, null=True, blank=True, related_name="event_lists"
    )
    text = models.TextField()
    # The canonical list (what the fingerprint covers); "" when nothing could be read.
    canonical = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=ListStatus.choices)
    points = models.PositiveIntegerField(null=True, blank=True)  # TMG
    # What it spends as printed: points ("38") or gold-silver-copper ("3-5-12").
    spent = models.CharField(max_length=32, blank=True)
    # {"en": result JSON, "fr": result JSON}: the checklist JSON, as the API writes it.
    result = models.JSONField(default=dict)
    # {"en": …, "fr": …}: the line-by-line reading as the pages show it
    # (armybuilder.lists.selectors.Reading, stored as its fields).
    reading = models.JSONField(default=dict)
    # {card external id: version digest} of every card the list uses.
    card_versions = models.JSONField(default=dict)
    ruleset = models.CharField(max_length=64, blank=True)
    # When the card data the verdict used was recorded (the newest version among its cards).
    data_date = models.DateTimeField(null=True, blank=True)
    fingerprint = models.CharField(max_length=20)
    revision = models.PositiveIntegerField(default=1)
    submitted_at = models.DateTimeField()
    judged_at = models.DateTimeField()
    approved = models.BooleanField(default=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The organisers' note (never shown to the player).
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["player__name", "id"]

    def __str__(self) -> str:
        return f"{self.player} ({self.fingerprint})"

    @property
    def legal(self) -> bool:
        return self.status == ListStatus.LEGAL

    def result_in(self, lang: str) -> dict:
        return self.result.get(lang) or self.result.get("en") or {}

    def reading_in(self, lang: str) -> dict:
        return self.reading.get(lang) or self.reading.get("en") or {}


class ErrataReport(models.Model):
    """One errata check that found lists whose verdict new card data changes (see
    events/errata.py): the cards that changed, and one `ErrataImpact` per list."""

    created_at = models.DateTimeField(auto_now_add=True)
    # What started the check: "import citadel-json", "periodic", "command".
    source = models.CharField(max_length=64, blank=True)
    # [{"game", "id", "name", "old_version", "new_version", "changes": [{field, old, new}]}]
    cards = models.JSONField(default=list)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"errata report {self.pk} ({self.created_at:%Y-%m-%d %H:%M})"


class ErrataImpact(models.Model):
    """What new card data did (an open event's list, re-judged) or would do (a saved list,
    pinned to older versions until its owner updates it) to one list."""

    report = models.ForeignKey(ErrataReport, on_delete=models.CASCADE, related_name="impacts")
    event_list = models.ForeignKey(
        EventList, on_delete=models.CASCADE, null=True, blank=True, related_name="impacts"
    )
    army_list = models.ForeignKey(
        ArmyList, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The card versions it was checked against (a digest): a saved list is reported once
    # for the same new data.
    target = models.CharField(max_length=64)
    spent_before = models.CharField(max_length=32, blank=True)
    spent_after = models.CharField(max_length=32, blank=True)
    legal_before = models.BooleanField()
    legal_after = models.BooleanField()
    # Points (coins) or legality changed: what the report shows.
    changed = models.BooleanField()
    # [{"card": id, "name": {"en", "fr"}, "field", "old", "new"}]
    reasons = models.JSONField(default=list)
    # Finding codes the new data adds and takes away.
    findings_added = models.JSONField(default=list)
    findings_removed = models.JSONField(default=list)

    class Meta:
        ordering = ["report", "id"]
        indexes = [models.Index(fields=["army_list", "target"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(event_list__isnull=False) | models.Q(army_list__isnull=False),
                name="errata_impact_names_a_list",
            )
        ]

    def __str__(self) -> str:
        return f"impact {self.pk} of report {self.report_id}"
