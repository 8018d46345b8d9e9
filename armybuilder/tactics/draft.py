"""Plain values a Tactics warband is validated from (no ORM, no request)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cards.figure_types import figure_kind_from_cost
from common.i18n import CardLabel

COIN_TYPES = ("gold", "silver", "copper")
FIGURE_KINDS = ("hero", "champion", "soldier")


@dataclass(frozen=True)
class Coins:
    gold: int = 0
    silver: int = 0
    copper: int = 0

    def __add__(self, other: Coins) -> Coins:
        return Coins(self.gold + other.gold, self.silver + other.silver, self.copper + other.copper)

    def __sub__(self, other: Coins) -> Coins:
        return Coins(self.gold - other.gold, self.silver - other.silver, self.copper - other.copper)

    def fits_in(self, budget: Coins) -> bool:
        return all(getattr(self, c) <= getattr(budget, c) for c in COIN_TYPES)

    def as_dict(self) -> dict[str, int]:
        return {c: getattr(self, c) for c in COIN_TYPES}

    def label(self) -> str:
        return f"{self.gold}-{self.silver}-{self.copper}"

    @classmethod
    def parse(cls, text: str) -> Coins | None:
        """'3-6-18' (G-S-C) or None."""
        parts = [p.strip() for p in text.replace("/", "-").split("-")]
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            return None
        return cls(*(int(p) for p in parts))


def kind_for_cost(cost: Coins) -> str | None:
    return figure_kind_from_cost(cost.gold, cost.silver, cost.copper)


@dataclass(frozen=True)
class TacticsCard(CardLabel):
    id: str
    kind: str  # hero | champion | soldier | equipment
    name_en: str
    name_fr: str = ""
    title_en: str = ""
    title_fr: str = ""
    faction: str | None = None  # None for faction-less equipment
    sigil: str | None = None
    characters: tuple[str, ...] = ()
    mounted: bool = False
    cost: Coins | None = None  # None: not known yet, cannot be recruited
    carriers: tuple[str, ...] = FIGURE_KINDS  # equipment only
    unique: bool = False  # equipment only
    infantry_only: bool = False  # equipment only
    cost_from: str = ""  # the player's card set whose cost override gave `cost`
    example: bool = False  # from the demo's example set (made-up costs, not official)

    @property
    def is_neutral(self) -> bool:
        return self.faction == "neutral"

    @property
    def is_figure(self) -> bool:
        return self.kind in FIGURE_KINDS

    @property
    def unique_key(self) -> str:
        return self.characters[0] if self.characters else self.name_en.casefold()


@dataclass(frozen=True)
class FigureEntry:
    ref: str
    card: TacticsCard


@dataclass(frozen=True)
class EquipmentEntry:
    ref: str
    card: TacticsCard
    holder: str | None = None  # ref of the figure carrying it


@dataclass(frozen=True)
class WarbandDraft:
    faction: str | None
    budget: Coins | None
    figures: tuple[FigureEntry, ...] = ()
    equipment: tuple[EquipmentEntry, ...] = ()
    scenario: str = ""
    name: str = ""

    def spent(self) -> Coins:
        total = Coins()
        for entry in self.entries():
            total = total + (entry.card.cost or Coins())
        return total

    def entries(self) -> Iterator[FigureEntry | EquipmentEntry]:
        yield from self.figures
        yield from self.equipment


@dataclass(frozen=True)
class WarbandContext:
    """The cards the player could still buy (card pool, or the player's collection)."""

    available: tuple[TacticsCard, ...] = ()
