"""Saved lists. The models belong to the `armybuilder` app (re-exported by armybuilder.models).

A list stores only choices: which card, in which role, on which host, in which order, and
the version of each card it was built with (`ListEntry.card_version`). It never stores
whether it is legal: that is recomputed, from the pinned versions, every time it is shown.
New card data changes a saved list only when its owner updates it to the current cards
(`services.update_to_current_cards`).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import Card, CardSet, CardVersion, Faction, Scenario


class ListGame(models.TextChoices):
    TMG = "tmg", _("ASOIAF Tabletop Miniatures Game")
    TACTICS = "tactics", _("ASOIAF Tactics")


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private")
    LINK = "link", _("Anyone with the link")


class EntryRole(models.TextChoices):
    UNIT = "unit", _("Combat unit")
    ATTACHMENT = "attachment", _("Attachment")
    NCU = "ncu", _("Non-combat unit")
    FIGURE = "figure", _("Figure")
    EQUIPMENT = "equipment", _("Equipment")


class ArmyList(models.Model):
    # Null for a list an anonymous visitor is building (remembered in their session).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="army_lists",
    )
    game = models.CharField(max_length=16, choices=ListGame.choices, default=ListGame.TMG)
    name = models.CharField(max_length=120, blank=True)
    faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="army_lists")
    # TMG
    points_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    ruleset = models.CharField(max_length=64, blank=True)
    # Tactics
    scenario = models.ForeignKey(
        Scenario, on_delete=models.SET_NULL, null=True, blank=True, related_name="army_lists"
    )
    gold = models.PositiveSmallIntegerField(null=True, blank=True)
    silver = models.PositiveSmallIntegerField(null=True, blank=True)
    copper = models.PositiveSmallIntegerField(null=True, blank=True)
    # Tactics: the side of an asymmetric scenario ("a" or "b"), and the players' card sets
    # the warband draws from besides the shipped cards.
    scenario_side = models.CharField(max_length=1, default="a", blank=True)
    card_sets = models.ManyToManyField(CardSet, blank=True, related_name="army_lists")

    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    share_token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "armybuilder"
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.name or f"{self.faction.name_en} {self.points_limit or ''}".strip()

    @property
    def size_label(self) -> str:
        """The game size as the pages show it: TMG points ("40"), a Tactics gold-silver-copper
        budget ("3-6-18"); "" when it is not known."""
        if self.game == ListGame.TACTICS:
            coins = (self.gold, self.silver, self.copper)
            return "" if None in coins else "-".join(map(str, coins))
        return str(self.points_limit) if self.points_limit else ""

    def display_name(self, lang: str = "en") -> str:
        if self.name:
            return self.name
        return f"{self.faction.name(lang)} {self.size_label}".rstrip()


class ListEntry(models.Model):
    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="entries")
    # PROTECT: a list keeps pointing at the card it chose, even across re-imports.
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="list_entries")
    # The card's version when the entry was added (its current one): the list is judged with
    # these stats until its owner updates it. Null: the card has no recorded version (made
    # in the admin), and the card's current stats are used.
    card_version = models.ForeignKey(
        CardVersion,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    role = models.CharField(max_length=16, choices=EntryRole.choices)
    # The host unit of an attachment, or the figure holding an equipment.
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    position = models.PositiveIntegerField(default=0)
    # A card made commander through a faction rule (Mag the Mighty, …).
    chosen_commander = models.BooleanField(default=False)

    class Meta:
        app_label = "armybuilder"
        ordering = ["position", "id"]
        verbose_name_plural = "list entries"

    def __str__(self) -> str:
        return f"{self.army_list_id}:{self.role}:{self.card_id}"
