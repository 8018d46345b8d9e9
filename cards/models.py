"""The card database for both miniatures games (TMG points armies, Tactics coin warbands).

One `Card` row is one card identity (game + external id, e.g. War Council id "20201").
Re-importing updated data updates it in place, so saved lists keep pointing at the same
row; every distinct printing/errata the importers have seen is kept in `CardVersion`, a
row that never changes once written (`Card.current_version` names the one the card's
columns hold now; saved list entries are pinned to the version they were added with).
Everything a validator needs is a field or a structured record, never prose.
"""

import hashlib
import json
import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from common.i18n import localized


class Game(models.TextChoices):
    TMG = "tmg", _("ASOIAF Tabletop Miniatures Game")
    TACTICS = "tactics", _("ASOIAF Tactics")
    AGOT = "agot", _("A Game of Thrones: The Board Game")
    HOTK = "hotk", _("Hand of the King")


class CardKind(models.TextChoices):
    # TMG
    UNIT = "unit", _("Combat unit")
    ATTACHMENT = "attachment", _("Attachment")
    NCU = "ncu", _("Non-combat unit")
    TACTICS = "tactics", _("Tactics card")
    SPECIAL = "special", _("Special / faction rule card")
    # Tactics
    HERO = "hero", _("Hero")
    CHAMPION = "champion", _("Champion")
    SOLDIER = "soldier", _("Soldier")
    EQUIPMENT = "equipment", _("Equipment")


TMG_KINDS = frozenset({"unit", "attachment", "ncu", "tactics", "special"})
TACTICS_KINDS = frozenset({"hero", "champion", "soldier", "equipment"})
FIGURE_KINDS = ("hero", "champion", "soldier")

# Card columns in groups: the admin form, the importers' records, the version snapshots,
# the citadel-cards/1 reader and the API build their field lists from these, so a column
# is named once per group.
#: TMG unit statistics.
UNIT_STAT_FIELDS = ("unit_type", "tray", "speed", "defense", "morale", "wounds")
#: Printed prose, in both languages.
TEXT_FIELDS = ("trigger_en", "trigger_fr", "text_en", "text_fr")
#: Tactics cost and figure / equipment values.
TACTICS_FIELDS = ("gold", "silver", "copper", "mounted", "will", "carriers", "is_unique")


class NamedInTwoLanguages:
    """`name(lang)` for a model with `name_en` / `name_fr` columns (a plain mixin: no field,
    so no migration)."""

    def name(self, lang: str = "en") -> str:
        return localized(self, "name", lang)


class UnitType(models.TextChoices):
    INFANTRY = "infantry", _("Infantry")
    CAVALRY = "cavalry", _("Cavalry")
    MONSTER = "monster", _("Monster")
    WAR_MACHINE = "war_machine", _("War machine")
    NONE = "none", _("None")


class Tray(models.TextChoices):
    INFANTRY = "infantry", _("Infantry tray")
    CAVALRY = "cavalry", _("Cavalry tray")
    SOLO = "solo", _("Solo tray")
    WAR_MACHINE = "war_machine", _("War machine tray")
    NONE = "none", _("No tray")


class Faction(NamedInTwoLanguages, models.Model):
    game = models.CharField(max_length=16, choices=Game.choices)
    slug = models.SlugField(max_length=40)
    name_en = models.CharField(max_length=80)
    name_fr = models.CharField(max_length=80, blank=True)
    is_neutral = models.BooleanField(default=False)
    # The two-digit faction code inside War Council ids (KFFNN); null outside TMG.
    warcouncil_code = models.PositiveSmallIntegerField(null=True, blank=True)
    sort_order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        ordering = ["game", "sort_order", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["game", "slug"], name="faction_unique_slug_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.name_en} ({self.game})"


class Sigil(models.Model):
    """A Tactics sub-loyalty mark on a faction emblem: figures with different sigils never mix."""

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="sigils")
    slug = models.SlugField(max_length=40)
    name_en = models.CharField(max_length=80)
    name_fr = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["faction", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="sigil_unique_per_faction")
        ]

    def __str__(self) -> str:
        return f"{self.faction.slug}/{self.slug}"


class Character(models.Model):
    """One person of the saga; every card version of that person shares it (uniqueness key)."""

    key = models.SlugField(max_length=80, unique=True)
    name_en = models.CharField(max_length=120)
    name_fr = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.name_en


class Ability(models.Model):
    """A named ability or keyword. Text is empty when only the stats-only snapshot is loaded."""

    game = models.CharField(max_length=16, choices=Game.choices, default=Game.TMG)
    key = models.SlugField(max_length=120)
    name_en = models.CharField(max_length=160)
    name_fr = models.CharField(max_length=160, blank=True)
    text_en = models.TextField(blank=True)
    text_fr = models.TextField(blank=True)
    trigger_en = models.TextField(blank=True)
    trigger_fr = models.TextField(blank=True)
    icons = models.JSONField(default=list, blank=True)
    version = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["game", "key"]
        verbose_name_plural = "abilities"
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="ability_unique_key_per_game")
        ]

    def __str__(self) -> str:
        return self.name_en


class SetVisibility(models.TextChoices):
    PRIVATE = "private", _("Private")
    LINK = "link", _("Anyone with the link")
    PUBLISHED = "published", _("Published")


class CardSet(models.Model):
    """Cards a player entered (figures, equipment, scenarios), or the demo's example set.

    Its cards are ordinary `Card` rows (`Card.card_set`), with external ids prefixed by the
    set's slug; who may see them follows the set (`cards.card_sets.selectors`). A set may
    also give a cost to a shipped card whose cost is unknown (`CostOverride`)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="card_sets",
        help_text=_("Empty for a set the project ships (the demo's example set)."),
    )
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=16, choices=Game.choices, default=Game.TACTICS)
    factions = models.ManyToManyField(Faction, blank=True, related_name="card_sets")
    description = models.TextField(blank=True)
    licence_note = models.TextField(blank=True)
    visibility = models.CharField(
        max_length=16, choices=SetVisibility.choices, default=SetVisibility.PRIVATE
    )
    share_token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    hidden_by_admin = models.BooleanField(
        default=False, help_text=_("Hidden by a moderator: only its owner sees it.")
    )
    is_example = models.BooleanField(
        default=False, help_text=_("Made-up data for trying the builder, not official.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Card(NamedInTwoLanguages, models.Model):
    game = models.CharField(max_length=16, choices=Game.choices, db_index=True)
    kind = models.CharField(max_length=16, choices=CardKind.choices, db_index=True)
    external_id = models.CharField(
        max_length=64, help_text=_("Stable id from the source data, e.g. War Council id 20201.")
    )
    faction = models.ForeignKey(
        Faction, on_delete=models.PROTECT, null=True, blank=True, related_name="cards"
    )
    sigil = models.ForeignKey(
        Sigil, on_delete=models.PROTECT, null=True, blank=True, related_name="cards"
    )
    name_en = models.CharField(max_length=160)
    name_fr = models.CharField(max_length=160, blank=True)
    title_en = models.CharField(max_length=160, blank=True)
    title_fr = models.CharField(max_length=160, blank=True)
    version = models.CharField(
        max_length=32, blank=True, help_text=_("Printing/errata label, e.g. 2021-S03 or S06.")
    )
    characters = models.ManyToManyField(Character, blank=True, related_name="cards")
    is_character = models.BooleanField(default=False)
    is_commander = models.BooleanField(default=False)

    # --- TMG ---
    points = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Points cost; 0 for commanders (printed C/G).")
    )
    unit_type = models.CharField(max_length=16, choices=UnitType.choices, blank=True)
    tray = models.CharField(max_length=16, choices=Tray.choices, blank=True)
    speed = models.PositiveSmallIntegerField(null=True, blank=True)
    defense = models.PositiveSmallIntegerField(null=True, blank=True, help_text="N of N+")
    morale = models.PositiveSmallIntegerField(null=True, blank=True, help_text="N of N+")
    wounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # TMG: [{"name_en", "name_fr", "range": "melee|short|long", "to_hit": 4, "dice": [7, 5, 4]}]
    # Tactics: [{"name_en", "name_fr", "range": "melee|ranged", "ap": 1, "dice": 2, "to_hit": 6,
    #            "spend": 0, "upgrades": [{"cost": 1, "effect_en": ...}]}]
    attacks = models.JSONField(default=list, blank=True)
    commander_card = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="commander_tactics",
        help_text=_("Tactics card: the commander whose deck it belongs to."),
    )
    replaces = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replaced_by",
        help_text=_("Tactics card: the basic-deck card it replaces."),
    )
    trigger_en = models.TextField(blank=True)
    trigger_fr = models.TextField(blank=True)
    text_en = models.TextField(blank=True)
    text_fr = models.TextField(blank=True)
    boxes = models.JSONField(default=list, blank=True)

    # --- Tactics ---
    gold = models.PositiveSmallIntegerField(null=True, blank=True)
    silver = models.PositiveSmallIntegerField(null=True, blank=True)
    copper = models.PositiveSmallIntegerField(null=True, blank=True)
    mounted = models.BooleanField(default=False)
    will = models.PositiveSmallIntegerField(null=True, blank=True, help_text="N of N+")
    carriers = models.JSONField(
        default=list, blank=True, help_text=_("Equipment: figure kinds that may carry it.")
    )
    is_unique = models.BooleanField(default=False, help_text=_("Equipment: one per warband."))

    # --- both ---
    abilities = models.ManyToManyField(Ability, through="CardAbility", blank=True)
    requirements = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Structured list-building records (see cards.requirements)."),
    )
    extra = models.JSONField(default=dict, blank=True)
    # The player's set the card belongs to (null: a shipped card); see `CardSet`.
    card_set = models.ForeignKey(
        CardSet, on_delete=models.CASCADE, null=True, blank=True, related_name="cards"
    )
    search_text = models.TextField(blank=True, editable=False)
    source = models.CharField(max_length=32, blank=True)
    # The version whose stats the columns above hold now (the importer points it at what it
    # just wrote); null for a card no importer has recorded (made in the admin, a test).
    current_version = models.ForeignKey(
        "CardVersion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "kind", "name_en", "title_en"]
        constraints = [
            models.UniqueConstraint(fields=["game", "external_id"], name="card_unique_external_id"),
        ]
        indexes = [models.Index(fields=["game", "kind", "faction"])]

    def __str__(self) -> str:
        return self.full_name()

    def title(self, lang: str = "en") -> str:
        return localized(self, "title", lang)

    def full_name(self, lang: str = "en") -> str:
        title = self.title(lang)
        return f"{self.name(lang)} - {title}" if title else self.name(lang)

    @property
    def has_known_cost(self) -> bool:
        if self.game == Game.TACTICS:
            return None not in (self.gold, self.silver, self.copper)
        return self.points is not None

    def coins(self) -> dict[str, int | None]:
        return {"gold": self.gold, "silver": self.silver, "copper": self.copper}


class CardAbility(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="card_abilities")
    ability = models.ForeignKey(Ability, on_delete=models.PROTECT, related_name="card_abilities")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["card", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "ability", "position"], name="cardability_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.card_id}:{self.position}:{self.ability_id}"


def version_digest(version: str, stats: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a version's label and stats: two imports that saw the
    same printing give the same digest, any changed value (or label) another one."""
    canonical = json.dumps(
        {"version": version, "stats": stats},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ImmutableVersionError(ValueError):
    """A recorded card version was saved again with other stats: history is never rewritten,
    an importer records a new version instead."""


class CardVersion(models.Model):
    """A printing or errata of a card as an importer saw it (stats snapshot, no prose).

    Immutable: a re-import whose stats differ records a new row (the same label may appear
    twice), so a list pinned to this row is judged with exactly these stats forever.
    `digest` (see `version_digest`) identifies the content; it is unique per card."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="versions")
    version = models.CharField(max_length=32)
    stats = models.JSONField(default=dict)
    digest = models.CharField(max_length=64, editable=False)
    source = models.CharField(max_length=32, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card", "recorded_at", "version"]
        constraints = [
            models.UniqueConstraint(fields=["card", "digest"], name="cardversion_unique_digest")
        ]

    def __str__(self) -> str:
        return f"{self.card.external_id}@{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        digest = version_digest(self.version, self.stats)
        if not self._state.adding and self.pk is not None:
            stored = CardVersion.objects.filter(pk=self.pk).values_list("digest", flat=True).first()
            if stored is not None and stored != digest:
                raise ImmutableVersionError(
                    f"card version {self.pk} is recorded: its label and stats never change"
                )
        self.digest = digest
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "digest"}
        super().save(*args, **kwargs)


class CostOverride(models.Model):
    """A set's cost for a shipped card whose own cost is unknown ("cost from <set>")."""

    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="overrides")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="cost_overrides")
    gold = models.PositiveSmallIntegerField(default=0)
    silver = models.PositiveSmallIntegerField(default=0)
    copper = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["card_set", "card"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "card"], name="costoverride_unique_card")
        ]

    def __str__(self) -> str:
        return f"{self.card_set_id}:{self.card_id}"


class ScenarioKind(models.TextChoices):
    GAME_MODE = "game_mode", _("Game mode (TMG)")
    SCENARIO = "scenario", _("Scenario (Tactics)")
    GAME_SIZE = "game_size", _("Game size (Tactics)")


class Scenario(NamedInTwoLanguages, models.Model):
    game = models.CharField(max_length=16, choices=Game.choices)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=16, choices=ScenarioKind.choices)
    name_en = models.CharField(max_length=120)
    name_fr = models.CharField(max_length=120, blank=True)
    summary_en = models.TextField(blank=True)
    summary_fr = models.TextField(blank=True)
    # TMG game modes
    tournament_legal = models.BooleanField(null=True, blank=True)
    deployment = models.JSONField(default=dict, blank=True)
    objectives = models.JSONField(default=dict, blank=True)
    scoring = models.JSONField(default=dict, blank=True)
    special_components = models.JSONField(default=list, blank=True)
    # Tactics budgets (per player, coins never convert); null = unknown
    gold = models.PositiveSmallIntegerField(null=True, blank=True)
    silver = models.PositiveSmallIntegerField(null=True, blank=True)
    copper = models.PositiveSmallIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # Tactics: an asymmetric scenario's second side (null: both sides take the budget above)
    gold_b = models.PositiveSmallIntegerField(null=True, blank=True)
    silver_b = models.PositiveSmallIntegerField(null=True, blank=True)
    copper_b = models.PositiveSmallIntegerField(null=True, blank=True)
    side_a_en = models.CharField(max_length=80, blank=True)
    side_b_en = models.CharField(max_length=80, blank=True)
    special_rules_en = models.TextField(blank=True)
    special_rules_fr = models.TextField(blank=True)
    card_set = models.ForeignKey(
        CardSet, on_delete=models.CASCADE, null=True, blank=True, related_name="scenarios"
    )
    extra = models.JSONField(default=dict, blank=True)
    sort_order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        ordering = ["game", "sort_order", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["game", "slug"], name="scenario_unique_slug_per_game")
        ]

    def __str__(self) -> str:
        return self.name_en

    @property
    def budget(self) -> dict[str, int] | None:
        if None in (self.gold, self.silver, self.copper):
            return None
        return {"gold": self.gold, "silver": self.silver, "copper": self.copper}

    @property
    def is_asymmetric(self) -> bool:
        return None not in (self.gold_b, self.silver_b, self.copper_b)

    def budget_for(self, side: str = "a") -> dict[str, int] | None:
        """The budget of one side ("a" or "b"); both sides take "a" unless asymmetric."""
        if side == "b" and self.is_asymmetric:
            return {"gold": self.gold_b, "silver": self.silver_b, "copper": self.copper_b}
        return self.budget
