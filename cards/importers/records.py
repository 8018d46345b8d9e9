"""The plain records every card importer produces and `cards.services` writes.

Both sources (the community data and `citadel-cards/1` files) end up as one
`ImportRecords` bundle whose fields are named like the model fields, so a single writer
upserts them. Records hold no ORM objects: references to other rows are natural keys
(faction slug, ability key, character key, card external id).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.models import TACTICS_FIELDS, TEXT_FIELDS, UNIT_STAT_FIELDS


class CardImportError(Exception):
    """Malformed import input: which file, which row (or JSON path) and why."""

    def __init__(self, file: str, row: int | str | None, reason: str) -> None:
        self.file = file
        self.row = row
        self.reason = reason
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.row is None or self.row == "":
            return f"{self.file}: {self.reason}"
        if isinstance(self.row, int):
            return f"{self.file} row {self.row}: {self.reason}"
        return f"{self.file} {self.row}: {self.reason}"


@dataclass(frozen=True)
class Origin:
    """Where a record came from, for error messages raised after parsing."""

    file: str
    row: int | str | None = None


@dataclass
class SigilRecord:
    slug: str
    name_en: str
    name_fr: str = ""


@dataclass
class FactionRecord:
    game: str
    slug: str
    name_en: str
    name_fr: str = ""
    is_neutral: bool = False
    warcouncil_code: int | None = None
    sort_order: int = 100
    sigils: list[SigilRecord] = field(default_factory=list)


@dataclass
class CharacterRecord:
    key: str
    name_en: str
    name_fr: str = ""
    # True when only guessed from a card that names it: create if missing, never overwrite.
    implied: bool = False


@dataclass
class AbilityRecord:
    game: str
    key: str
    name_en: str
    name_fr: str = ""
    # Prose: None = the source does not give it (a stats-only file): keep what is stored.
    text_en: str | None = ""
    text_fr: str | None = ""
    trigger_en: str | None = ""
    trigger_fr: str | None = ""
    icons: list[str] = field(default_factory=list)
    version: str = ""
    # True when only named by a card: create if missing, never overwrite.
    implied: bool = False


#: Prose fields a stats-only source leaves out (None in a record: keep the stored text).
PROSE_FIELDS: tuple[str, ...] = ("text_en", "text_fr", "trigger_en", "trigger_fr")

#: Card model fields an importer sets directly (the writer compares exactly these).
CARD_VALUE_FIELDS: tuple[str, ...] = (
    "kind",
    "name_en",
    "name_fr",
    "title_en",
    "title_fr",
    "version",
    "is_character",
    "is_commander",
    "points",
    *UNIT_STAT_FIELDS,
    "attacks",
    *TEXT_FIELDS,
    "boxes",
    *TACTICS_FIELDS,
    "requirements",
    "extra",
)


@dataclass
class CardRecord:
    game: str
    external_id: str
    kind: str
    name_en: str
    faction: str | None = None
    sigil: str | None = None
    name_fr: str = ""
    title_en: str = ""
    title_fr: str = ""
    version: str = ""
    is_character: bool = False
    is_commander: bool = False
    points: int | None = None
    unit_type: str = ""
    tray: str = ""
    speed: int | None = None
    defense: int | None = None
    morale: int | None = None
    wounds: int | None = None
    attacks: list[dict[str, Any]] = field(default_factory=list)
    # Prose: None = the source does not give it (a stats-only file): keep what is stored.
    trigger_en: str | None = ""
    trigger_fr: str | None = ""
    text_en: str | None = ""
    text_fr: str | None = ""
    boxes: list[str] = field(default_factory=list)
    gold: int | None = None
    silver: int | None = None
    copper: int | None = None
    mounted: bool = False
    will: int | None = None
    carriers: list[str] = field(default_factory=list)
    is_unique: bool = False
    requirements: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # Natural keys, resolved by the writer.
    characters: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    commander_card: str | None = None
    replaces: str | None = None
    origin: Origin | None = None

    def error(self, reason: str) -> CardImportError:
        """An import error naming where the card came from (its file and row when known)."""
        origin = self.origin or Origin("import", f"card {self.external_id}")
        return CardImportError(origin.file, origin.row, reason)


@dataclass
class ScenarioRecord:
    game: str
    slug: str
    kind: str
    name_en: str
    name_fr: str = ""
    summary_en: str = ""
    summary_fr: str = ""
    tournament_legal: bool | None = None
    deployment: dict[str, Any] = field(default_factory=dict)
    objectives: dict[str, Any] = field(default_factory=dict)
    scoring: dict[str, Any] = field(default_factory=dict)
    special_components: list[Any] = field(default_factory=list)
    gold: int | None = None
    silver: int | None = None
    copper: int | None = None
    rounds: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    sort_order: int = 100


@dataclass
class ImportRecords:
    """Everything one import writes, in one transaction."""

    source: str
    factions: list[FactionRecord] = field(default_factory=list)
    characters: list[CharacterRecord] = field(default_factory=list)
    abilities: list[AbilityRecord] = field(default_factory=list)
    cards: list[CardRecord] = field(default_factory=list)
    scenarios: list[ScenarioRecord] = field(default_factory=list)

    def merged_with(self, other: ImportRecords) -> ImportRecords:
        """Both bundles in one; a row the other bundle repeats (same natural key) wins."""

        def merge(mine: list, theirs: list, key) -> list:
            by_key = {key(item): item for item in mine}
            by_key.update({key(item): item for item in theirs})
            return list(by_key.values())

        return ImportRecords(
            source=", ".join(dict.fromkeys(s for s in (self.source, other.source) if s)),
            factions=merge(self.factions, other.factions, lambda f: (f.game, f.slug)),
            characters=merge(self.characters, other.characters, lambda c: c.key),
            abilities=merge(self.abilities, other.abilities, lambda a: (a.game, a.key)),
            cards=merge(self.cards, other.cards, lambda c: (c.game, c.external_id)),
            scenarios=merge(self.scenarios, other.scenarios, lambda s: (s.game, s.slug)),
        )
