"""The plain values a TMG army is validated from: no ORM, no request.

Selectors turn cards into `CardFacts` once; parsers and the builder assemble an
`ArmyDraft`; the validator reads only these.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from cards.normalise import fold
from common.i18n import Bilingual, CardLabel

from .rulesets import Ruleset


class memoized:
    """cached_property without the per-access lock Python 3.11 takes: computed once per
    instance, then read straight from the instance dict (works on frozen dataclasses)."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value


#: Record types only the points read (armybuilder.tmg.points), never a list check.
POINTS_ONLY_TYPES = frozenset({"reduces_cost_of", "cost_reduction", "first_free"})


@dataclass(frozen=True)
class CardFacts(CardLabel):
    id: str
    kind: str  # unit | attachment | ncu | tactics | special
    faction: str  # faction slug; "neutral" for neutral cards
    name_en: str
    name_fr: str = ""
    title_en: str = ""
    title_fr: str = ""
    points: int | None = 0
    unit_type: str = ""  # infantry | cavalry | monster | war_machine | none
    tray: str = ""  # infantry | cavalry | solo | war_machine | none
    is_character: bool = False
    characters: tuple[str, ...] = ()
    is_commander: bool = False
    attaches_to_enemy: bool = False
    requirements: tuple[Mapping, ...] = ()
    abilities: tuple[str, ...] = ()  # ability keys
    tactics: tuple[str, ...] = ()  # a commander's tactics-card ids
    version: str = ""

    @property
    def is_neutral(self) -> bool:
        return self.faction == "neutral"

    @memoized
    def _records_by_type(self) -> dict[str, tuple[Mapping, ...]]:
        grouped: dict[str, list[Mapping]] = {}
        for record in self.requirements:
            grouped.setdefault(record.get("type", ""), []).append(record)
        return {kind: tuple(records) for kind, records in grouped.items()}

    @memoized
    def is_solo(self) -> bool:
        return self.tray == "solo" or bool(self.records("solo"))

    @memoized
    def record_types(self) -> frozenset[str]:
        return frozenset(self._records_by_type)

    @memoized
    def is_checked(self) -> bool:
        """Does a list check (not only the points) read one of the card's records?"""
        return bool(self.requirements) and not self.record_types <= POINTS_ONLY_TYPES

    @memoized
    def aliases(self) -> tuple[Mapping, ...]:
        """The card's `counts_as` records: whom else it answers to in other cards'
        conditions (a bannerman counting as his lord). Empty for nearly every card."""
        return self.records("counts_as") if self.requirements else ()

    def records(self, record_type: str) -> tuple[Mapping, ...]:
        return self._records_by_type.get(record_type, ())

    def matches_name(self, name: str, title: str | None = None) -> bool:
        if fold(self.name_en) != fold(name) and fold(self.name_fr) != fold(name):
            return False
        if title is None:
            return True
        return fold(title) in {fold(self.title_en), fold(self.title_fr)}


@dataclass(frozen=True)
class Entry:
    """One card in the list; `ref` names it in findings (e.g. "unit-2.attachment-1")."""

    ref: str
    card: CardFacts


@dataclass(frozen=True)
class UnitEntry(Entry):
    attachments: tuple[Entry, ...] = ()

    @classmethod
    def with_attachments(
        cls, ref: str, card: CardFacts, attachments: Iterable[CardFacts]
    ) -> UnitEntry:
        """A unit and its attachments, each ref named as findings name it
        ("unit-2.attachment-1")."""
        return cls(
            ref=ref,
            card=card,
            attachments=tuple(
                Entry(ref=f"{ref}.attachment-{number}", card=attachment)
                for number, attachment in enumerate(attachments, start=1)
            ),
        )


@dataclass(frozen=True)
class ArmyDraft:
    faction: str
    points_limit: int
    ruleset: Ruleset
    units: tuple[UnitEntry, ...] = ()
    ncus: tuple[Entry, ...] = ()
    # Attachments the list names without a host (or on an NCU): always a finding.
    unattached: tuple[Entry, ...] = ()
    # A card chosen as commander through a faction rule (Mag the Mighty, …), by entry ref.
    chosen_commander: str | None = None
    name: str = ""

    def attachments(self) -> Iterator[tuple[UnitEntry | None, Entry]]:
        for unit in self.units:
            for attachment in unit.attachments:
                yield unit, attachment
        for attachment in self.unattached:
            yield None, attachment

    def entries(self) -> tuple[Entry, ...]:
        return self._entries

    @memoized
    def _entries(self) -> tuple[Entry, ...]:
        ordered: list[Entry] = []
        for unit in self.units:
            ordered.append(unit)
            ordered.extend(unit.attachments)
        ordered.extend(self.ncus)
        ordered.extend(self.unattached)
        return tuple(ordered)

    @memoized
    def constrained(self) -> tuple[Entry, ...]:
        """Entries whose card carries requirement records the list checks read (most carry
        none; records that only change points, such as Adaptive's, are read by the points)."""
        return tuple(entry for entry in self._entries if entry.card.is_checked)

    @memoized
    def aliased(self) -> tuple[Entry, ...]:
        """Entries whose card answers to another name too (`counts_as`): almost always none."""
        return tuple(entry for entry in self.constrained if entry.card.aliases)

    @memoized
    def commanders(self) -> tuple[Entry, ...]:
        """The army's commander(s). A card that only stands in for the commander on the
        battlefield (Areo Hotah for Doran Martell) is not a second commander."""
        return tuple(
            entry
            for entry in self._entries
            if (entry.card.is_commander and not entry.card.records("acts_as_commander"))
            or entry.ref == self.chosen_commander
        )

    def without(self, ref: str) -> ArmyDraft:
        """The same army with one entry removed (a unit takes its attachments with it)."""
        from dataclasses import replace

        units = tuple(
            replace(unit, attachments=tuple(a for a in unit.attachments if a.ref != ref))
            for unit in self.units
            if unit.ref != ref
        )
        return replace(
            self,
            units=units,
            ncus=tuple(e for e in self.ncus if e.ref != ref),
            unattached=tuple(e for e in self.unattached if e.ref != ref),
        )


@dataclass(frozen=True)
class ArmyContext:
    """Facts about the card pool the validator needs beyond the list itself."""

    # Army-scope faction rule records (cards.faction_rules) for the army's faction.
    faction_rules: tuple[Mapping, ...] = ()
    # Character keys that have a card of the army's faction (Bolton prefers its own version).
    faction_characters: frozenset[str] = frozenset()
    # Tactics cards by id, for the deck.
    tactics_cards: Mapping[str, CardFacts] = field(default_factory=dict)
    # The faction's basic tactics deck (card ids), in print order.
    basic_deck: tuple[str, ...] = ()
    # Replacement map: tactics card id -> the basic-deck card ids it replaces.
    replaces: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Display names of factions: slug -> (English, French).
    faction_names: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def faction_label(self, slug: str | None) -> Bilingual:
        """A faction's name in both languages, for a finding's message (the slug when the
        pool does not know it)."""
        return Bilingual(*self.faction_names.get(slug or "", (slug or "", slug or "")))
