"""Writes to card sets: the set itself, its cards (one writer for the form and the import),
its scenarios, its cost overrides, sharing and moderation. Keyword-only and typed.

A set's card is an ordinary `Card` whose external id is `<set slug>.<id>`; every save
records its stats as a `CardVersion` (a new row when they changed), so a warband that took
the card keeps judging it with the version it was added with (`ListEntry.card_version`)
when the set's owner edits it later.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from cards.figure_types import figure_kind_from_cost
from cards.models import (
    FIGURE_KINDS,
    TACTICS_KINDS,
    Card,
    CardSet,
    CardVersion,
    Character,
    CostOverride,
    Faction,
    Game,
    Scenario,
    ScenarioKind,
    SetVisibility,
    Sigil,
    version_digest,
)
from cards.normalise import slug_key
from cards.query.text import search_text_from

MAX_SET_CARDS = 2000
COINS = ("gold", "silver", "copper")


# --- values -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """One attack mode of a Tactics figure."""

    name: str
    range: str = "melee"  # melee | ranged
    ap: int | None = None
    dice: int | None = None
    to_hit: int | None = None

    def as_record(self) -> dict[str, Any]:
        return {
            "name_en": self.name,
            "name_fr": "",
            "range": self.range,
            "ap": self.ap,
            "dice": self.dice,
            "to_hit": self.to_hit,
            "spend": None,
            "upgrades": [],
        }


@dataclass(frozen=True)
class AbilityText:
    name: str
    text: str = ""


@dataclass(frozen=True)
class SetCardInput:
    """Everything the card form and the import give for one card of a set."""

    kind: str  # hero | champion | soldier | equipment
    name_en: str
    card_id: str = ""  # the id inside the set; default: from the name and title
    name_fr: str = ""
    title_en: str = ""
    title_fr: str = ""
    faction: str | None = None  # a Tactics faction slug; None for equipment
    sigil: str | None = None
    character: str = ""  # mounted and foot versions of one person share it
    mounted: bool = False
    gold: int | None = None
    silver: int | None = None
    copper: int | None = None
    will: int | None = None
    defense: int | None = None
    wounds: int | None = None
    attacks: tuple[Attack, ...] = ()
    abilities: tuple[AbilityText, ...] = ()
    carriers: tuple[str, ...] = ()  # equipment: hero / champion / soldier
    unique: bool = False  # equipment: one per warband
    infantry_only: bool = False  # equipment: not on a mounted figure
    version: str = ""

    @property
    def key(self) -> str:
        return slug_key(self.card_id or f"{self.name_en} {self.title_en}")


@dataclass(frozen=True)
class ScenarioInput:
    name_en: str
    scenario_id: str = ""
    name_fr: str = ""
    summary_en: str = ""
    summary_fr: str = ""
    special_rules_en: str = ""
    special_rules_fr: str = ""
    budget: tuple[int, int, int] | None = None  # gold, silver, copper (each side)
    budget_b: tuple[int, int, int] | None = None  # the second side of an asymmetric one
    side_a: str = ""
    side_b: str = ""
    rounds: int | None = None

    @property
    def key(self) -> str:
        return slug_key(self.scenario_id or self.name_en)


@dataclass(frozen=True)
class RowError:
    """A row that stops a write: its number (from 1, in the order given) and why."""

    row: int
    reason: str


class CardSetError(ValidationError):
    """Bad input for a set: `rows` say which row and why (nothing was written)."""

    def __init__(self, message: str, *, rows: Sequence[RowError] = (), code: str = "invalid"):
        super().__init__(message, code=code)
        self.rows = tuple(rows)


@dataclass
class WriteSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    cards: list[Card] = field(default_factory=list)


# --- the set ------------------------------------------------------------------------------------


def _unique_slug(name: str) -> str:
    base = slugify(name)[:40] or "set"
    return f"{base}-{uuid.uuid4().hex[:6]}"


def _check_text(value: str, what: str, limit: int) -> str:
    value = (value or "").strip()
    if len(value) > limit:
        raise CardSetError(
            _("%(what)s is too long (at most %(limit)d characters).")
            % {"what": what, "limit": limit},
            code=what,
        )
    return value


@transaction.atomic
def create_card_set(
    *,
    owner: AbstractBaseUser | None,
    name: str,
    game: str = Game.TACTICS,
    factions: Iterable[Faction] = (),
    description: str = "",
    licence_note: str = "",
    visibility: str = SetVisibility.PRIVATE,
    slug: str | None = None,
    is_example: bool = False,
) -> CardSet:
    name = _check_text(name, "name", 120)
    if not name:
        raise CardSetError(_("A set needs a name."), code="name")
    if game != Game.TACTICS:
        raise CardSetError(_("Card sets hold Tactics cards for now."), code="game")
    _check_visibility(visibility)
    card_set = CardSet.objects.create(
        owner=owner,
        name=name,
        game=game,
        slug=slug or _unique_slug(name),
        description=_check_text(description, "description", 5000),
        licence_note=_check_text(licence_note, "licence_note", 1000),
        visibility=visibility,
        is_example=is_example,
    )
    card_set.factions.set(_check_factions(factions, game))
    return card_set


def _check_visibility(visibility: str) -> None:
    if visibility not in SetVisibility.values:
        raise CardSetError(_("Unknown visibility."), code="visibility")


def _check_factions(factions: Iterable[Faction], game: str) -> list[Faction]:
    factions = list(factions)
    if any(f.game != game for f in factions):
        raise CardSetError(_("A faction of another game."), code="factions")
    return factions


@transaction.atomic
def update_card_set(
    *,
    card_set: CardSet,
    name: str,
    factions: Iterable[Faction] = (),
    description: str = "",
    licence_note: str = "",
    visibility: str | None = None,
) -> CardSet:
    name = _check_text(name, "name", 120)
    if not name:
        raise CardSetError(_("A set needs a name."), code="name")
    card_set.name = name
    card_set.description = _check_text(description, "description", 5000)
    card_set.licence_note = _check_text(licence_note, "licence_note", 1000)
    if visibility is not None:
        _check_visibility(visibility)
        card_set.visibility = visibility
    card_set.save()
    card_set.factions.set(_check_factions(factions, card_set.game))
    return card_set


def set_visibility(*, card_set: CardSet, visibility: str) -> CardSet:
    """Share (private / link / published); the owner may unpublish at any time."""
    _check_visibility(visibility)
    card_set.visibility = visibility
    card_set.save(update_fields=["visibility", "updated_at"])
    return card_set


def hide_card_set(*, card_set: CardSet, hidden: bool, by: AbstractBaseUser) -> CardSet:
    """An admin hides a set (only its owner sees it then), or shows it again."""
    if not getattr(by, "is_staff", False):
        raise PermissionDenied(_("Only an admin may hide a set."))
    card_set.hidden_by_admin = hidden
    card_set.save(update_fields=["hidden_by_admin", "updated_at"])
    return card_set


def delete_card_set(*, card_set: CardSet) -> None:
    """Delete a set that no saved warband uses (a used one is unpublished instead)."""
    if card_set.cards.filter(list_entries__isnull=False).exists():
        raise CardSetError(
            _("Saved warbands use cards of this set: make it private instead."), code="in_use"
        )
    card_set.delete()


# --- cards --------------------------------------------------------------------------------------


def external_id(card_set: CardSet, key: str) -> str:
    return f"{card_set.slug}.{key}"


def local_id(card_set: CardSet, card: Card) -> str:
    prefix = f"{card_set.slug}."
    return card.external_id.removeprefix(prefix)


def _check_card(value: SetCardInput, factions: dict[str, Faction]) -> str | None:
    """Why the card cannot be saved, or None."""
    if value.kind not in TACTICS_KINDS:
        return _("unknown kind %(kind)s (hero, champion, soldier or equipment)") % {
            "kind": value.kind
        }
    if not value.name_en.strip():
        return _("a card needs a name")
    if len(value.name_en) > 160 or len(value.title_en) > 160:
        return _("a name or title is longer than 160 characters")
    if not value.key:
        return _("a card needs a name made of letters or digits")
    coins = [getattr(value, c) for c in COINS]
    if any(c is not None and (not isinstance(c, int) or not 0 <= c <= 99) for c in coins):
        return _("coins are whole numbers from 0 to 99")
    if value.kind in FIGURE_KINDS:
        if not value.faction:
            return _("a figure needs a faction (or neutral)")
        if value.faction not in factions:
            return _("unknown faction %(faction)s") % {"faction": value.faction}
        implied = figure_kind_from_cost(*coins) if None not in coins else None
        if implied and implied != value.kind:
            return _("a %(kind)s cannot cost %(cost)s: that cost makes a %(implied)s") % {
                "kind": value.kind,
                "cost": "-".join(str(c) for c in coins),
                "implied": implied,
            }
    elif value.faction and value.faction not in factions:
        return _("unknown faction %(faction)s") % {"faction": value.faction}
    if any(c not in FIGURE_KINDS for c in value.carriers):
        return _("carriers are hero, champion or soldier")
    if any(a.range not in ("melee", "ranged") for a in value.attacks):
        return _("an attack range is melee or ranged")
    return None


def _card_values(value: SetCardInput, factions: dict[str, Faction]) -> dict[str, Any]:
    faction = factions.get(value.faction or "")
    sigil = None
    if faction is not None and value.sigil:
        sigil = Sigil.objects.filter(faction=faction, slug=value.sigil).first()
    extra: dict[str, Any] = {}
    if value.abilities:
        extra["abilities"] = [{"name": a.name, "text": a.text} for a in value.abilities]
    if value.infantry_only:
        extra["infantry_only"] = True
    return {
        "game": Game.TACTICS,
        "kind": value.kind,
        "faction": faction,
        "sigil": sigil,
        "name_en": value.name_en.strip(),
        "name_fr": value.name_fr.strip(),
        "title_en": value.title_en.strip(),
        "title_fr": value.title_fr.strip(),
        "version": value.version[:32],
        "is_character": bool(value.character) and value.kind != "equipment",
        "mounted": value.mounted,
        "gold": value.gold,
        "silver": value.silver,
        "copper": value.copper,
        "will": value.will,
        "defense": value.defense,
        "wounds": value.wounds,
        "attacks": [a.as_record() for a in value.attacks],
        "carriers": list(value.carriers) if value.kind == "equipment" else [],
        "is_unique": value.unique,
        "extra": extra,
        "source": "card-set",
        "search_text": search_text_from(
            [value.name_en, value.name_fr, value.title_en, value.title_fr]
            + [a.name for a in value.abilities]
        ),
    }


_STAT_KEYS = (
    "kind",
    "name_en",
    "title_en",
    "mounted",
    "gold",
    "silver",
    "copper",
    "will",
    "defense",
    "wounds",
    "attacks",
    "carriers",
    "is_unique",
)


def version_stats(values: dict[str, Any], character: str) -> dict[str, Any]:
    """What a `CardVersion` records of a set's card (the keys `tactics_card_at` reads)."""
    stats = {key: values[key] for key in _STAT_KEYS}
    stats["faction"] = values["faction"].slug if values["faction"] else None
    stats["characters"] = [character] if character else []
    stats["infantry_only"] = bool(values["extra"].get("infantry_only"))
    return stats


def _factions() -> dict[str, Faction]:
    return {f.slug: f for f in Faction.objects.filter(game=Game.TACTICS)}


@transaction.atomic
def save_set_cards(
    *, card_set: CardSet, values: Sequence[SetCardInput], first_row: int = 1
) -> WriteSummary:
    """Create or update cards of a set (matched by id), all or nothing: the first bad row
    raises `CardSetError` naming it, and nothing is written."""
    factions = _factions()
    seen: set[str] = set()
    for row, value in enumerate(values, start=first_row):
        reason = _check_card(value, factions)
        if reason is None and value.key in seen:
            reason = _("the id %(id)s appears twice") % {"id": value.key}
        if reason is not None:
            raise CardSetError(
                _("Row %(row)d: %(reason)s") % {"row": row, "reason": reason},
                rows=[RowError(row, reason)],
                code="row",
            )
        seen.add(value.key)
    existing = {c.external_id: c for c in card_set.cards.select_related("faction", "sigil")}
    if len(existing.keys() | {external_id(card_set, v.key) for v in values}) > MAX_SET_CARDS:
        raise CardSetError(
            _("A set holds at most %(max)d cards.") % {"max": MAX_SET_CARDS}, code="size"
        )
    summary = WriteSummary()
    now = timezone.now()
    new: list[Card] = []
    changed: list[Card] = []
    changed_fields: set[str] = set()
    wanted: dict[str, tuple[dict[str, Any], str]] = {}
    for value in values:
        ext = external_id(card_set, value.key)
        fields = _card_values(value, factions)
        wanted[ext] = (fields, value.character)
        card = existing.get(ext)
        if card is None:
            new.append(Card(external_id=ext, card_set=card_set, **fields))
            continue
        differ = {k for k, v in fields.items() if getattr(card, k) != v}
        if not differ:
            summary.unchanged += 1
            continue
        for key in differ:
            setattr(card, key, fields[key])
        changed_fields |= differ
        card.updated_at = now
        changed.append(card)
    Card.objects.bulk_create(new, batch_size=500)
    if changed:  # only the columns some card changed (a CASE per column and row)
        columns = [name for name in _card_fields() if name in changed_fields]
        Card.objects.bulk_update(changed, [*columns, "updated_at"], batch_size=500)
    summary.created, summary.updated = len(new), len(changed)
    cards = {c.external_id: c for c in card_set.cards.filter(external_id__in=list(wanted))}
    _write_characters(cards, wanted)
    _write_versions(cards, wanted)
    summary.cards = [cards[ext] for ext in wanted]
    CardSet.objects.filter(pk=card_set.pk).update(updated_at=now)
    return summary


def _card_fields() -> list[str]:
    return [
        "kind", "faction", "sigil", "name_en", "name_fr", "title_en", "title_fr", "version",
        "is_character", "mounted", "gold", "silver", "copper", "will", "defense", "wounds",
        "attacks", "carriers", "is_unique", "extra", "source", "search_text",
    ]  # fmt: skip


def _write_characters(cards: dict[str, Card], wanted: dict[str, tuple[dict, str]]) -> None:
    """Link each card to its character (the mounted / foot pairing key)."""
    keys = {slug_key(character) for _fields, character in wanted.values() if character}
    known = {c.key: c for c in Character.objects.filter(key__in=keys)}
    missing = []
    for fields, character in wanted.values():
        key = slug_key(character) if character else ""
        if key and key not in known:
            known[key] = Character(key=key, name_en=fields["name_en"])
            missing.append(known[key])
    Character.objects.bulk_create(missing, ignore_conflicts=True)
    known = {c.key: c for c in Character.objects.filter(key__in=keys)}
    through = Card.characters.through
    through.objects.filter(card_id__in=[c.pk for c in cards.values()]).delete()
    through.objects.bulk_create(
        [
            through(card_id=cards[ext].pk, character_id=known[slug_key(character)].pk)
            for ext, (_fields, character) in wanted.items()
            if character
        ]
    )


def _write_versions(cards: dict[str, Card], wanted: dict[str, tuple[dict, str]]) -> None:
    """Record each card's stats as a version (a new row only when they changed) and point
    `current_version` at it."""
    pks = [c.pk for c in cards.values()]
    known = {
        (card_id, digest): pk
        for pk, card_id, digest in CardVersion.objects.filter(card_id__in=pks).values_list(
            "pk", "card_id", "digest"
        )
    }
    to_create: dict[tuple[int, str], CardVersion] = {}
    digests: dict[int, str] = {}
    for ext, (fields, character) in wanted.items():
        card = cards[ext]
        stats = version_stats(fields, slug_key(character) if character else "")
        digest = version_digest(card.version, stats)
        digests[card.pk] = digest
        if (card.pk, digest) not in known:
            to_create[(card.pk, digest)] = CardVersion(
                card_id=card.pk, version=card.version, stats=stats, digest=digest,
                source="card-set",
            )  # fmt: skip
    created = CardVersion.objects.bulk_create(list(to_create.values()), batch_size=500)
    if any(v.pk is None for v in created):
        created = list(CardVersion.objects.filter(card_id__in=pks))
    known.update({(v.card_id, v.digest): v.pk for v in created})
    moved = []
    for card in cards.values():
        version = known[(card.pk, digests[card.pk])]
        if card.current_version_id != version:
            card.current_version_id = version
            moved.append(card)
    Card.objects.bulk_update(moved, ["current_version"], batch_size=500)


def save_set_card(*, card_set: CardSet, value: SetCardInput, card: Card | None = None) -> Card:
    """Add a card to a set, or edit one (`card`: it keeps its id whatever its new name)."""
    if card is not None:
        if card.card_set_id != card_set.pk:
            raise CardSetError(_("That card belongs to another set."), code="card")
        value = _with_id(value, card_set, card)
    (saved,) = save_set_cards(card_set=card_set, values=[value]).cards
    return saved


def _with_id(value: SetCardInput, card_set: CardSet, card: Card) -> SetCardInput:
    return replace(value, card_id=local_id(card_set, card))


@transaction.atomic
def delete_set_card(*, card_set: CardSet, card: Card) -> None:
    if card.card_set_id != card_set.pk:
        raise CardSetError(_("That card belongs to another set."), code="card")
    if card.list_entries.exists():
        raise CardSetError(
            _("Saved warbands use this card: edit it instead of deleting it."), code="in_use"
        )
    card.delete()


# --- scenarios ----------------------------------------------------------------------------------


def _check_budget(budget: tuple[int, int, int] | None) -> bool:
    return budget is None or (
        len(budget) == 3 and all(isinstance(c, int) and 0 <= c <= 99 for c in budget)
    )


@transaction.atomic
def save_set_scenarios(
    *, card_set: CardSet, values: Sequence[ScenarioInput], first_row: int = 1
) -> list[Scenario]:
    """Create or update the scenarios of a set (matched by id), all or nothing."""
    saved = []
    for row, value in enumerate(values, start=first_row):
        reason = None
        if not value.name_en.strip() or not value.key:
            reason = _("a scenario needs a name")
        elif not (_check_budget(value.budget) and _check_budget(value.budget_b)):
            reason = _("a budget is three whole numbers from 0 to 99 (gold, silver, copper)")
        elif value.budget_b is not None and value.budget is None:
            reason = _("the second side's budget needs the first side's")
        if reason is not None:
            raise CardSetError(
                _("Scenario %(row)d: %(reason)s") % {"row": row, "reason": reason},
                rows=[RowError(row, reason)],
                code="row",
            )
        gold, silver, copper = value.budget or (None, None, None)
        gold_b, silver_b, copper_b = value.budget_b or (None, None, None)
        scenario, _created = Scenario.objects.update_or_create(
            game=Game.TACTICS,
            slug=external_id(card_set, value.key)[:60],
            defaults={
                "kind": ScenarioKind.SCENARIO,
                "card_set": card_set,
                "name_en": value.name_en.strip()[:120],
                "name_fr": value.name_fr.strip()[:120],
                "summary_en": value.summary_en,
                "summary_fr": value.summary_fr,
                "special_rules_en": value.special_rules_en,
                "special_rules_fr": value.special_rules_fr,
                "gold": gold,
                "silver": silver,
                "copper": copper,
                "gold_b": gold_b,
                "silver_b": silver_b,
                "copper_b": copper_b,
                "side_a_en": value.side_a[:80],
                "side_b_en": value.side_b[:80],
                "rounds": value.rounds,
            },
        )
        saved.append(scenario)
    return saved


# --- cost overrides -----------------------------------------------------------------------------


def set_cost_override(
    *, card_set: CardSet, card: Card, gold: int, silver: int, copper: int
) -> CostOverride:
    """Give a shipped card whose cost is unknown a cost, for warbands drawing from the set."""
    if card.card_set_id is not None or card.game != Game.TACTICS:
        raise CardSetError(_("Only a shipped Tactics card takes a cost override."), code="card")
    if card.has_known_cost:
        raise CardSetError(_("That card's cost is known: it takes no override."), code="card")
    if not _check_budget((gold, silver, copper)):
        raise CardSetError(_("Coins are whole numbers from 0 to 99."), code="cost")
    implied = figure_kind_from_cost(gold, silver, copper)
    if card.kind in FIGURE_KINDS and implied and implied != card.kind:
        raise CardSetError(
            _("A %(kind)s cannot cost that: the cost makes a %(implied)s.")
            % {"kind": card.kind, "implied": implied},
            code="cost",
        )
    override, _created = CostOverride.objects.update_or_create(
        card_set=card_set,
        card=card,
        defaults={"gold": gold, "silver": silver, "copper": copper},
    )
    CardSet.objects.filter(pk=card_set.pk).update(updated_at=timezone.now())
    return override


def remove_cost_override(*, card_set: CardSet, card: Card) -> None:
    CostOverride.objects.filter(card_set=card_set, card=card).delete()
