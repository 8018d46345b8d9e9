"""The record types a `Card.requirements` list holds, each a frozen dataclass.

Every record is a dict with a `"type"` key; its dataclass round-trips it with
`to_record()` / `from_record()`, and `record_from_dict` dispatches on the type. The
round trip is written once, in `Record`, rather than twice in each of twenty classes:
each field says how its value is stored (a `_Codec`: plain value, number, card id, ref,
list of refs...) and, when the dict key is not the field name, under which key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import UnknownRecordType
from .refs import Ref, ref_from_record


@dataclass(frozen=True)
class _Codec:
    """How one field is written into a record dict (`dump`) and read back (`load`)."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


_VALUE = _Codec(_same, _same)
_INT = _Codec(_same, int)
_BOOL = _Codec(_same, bool)
_CARD_ID = _Codec(_same, str)
_CARD_IDS = _Codec(list, lambda ids: tuple(str(card) for card in ids))
_REF = _Codec(lambda ref: ref.to_record(), ref_from_record)
_OPTIONAL_REF = _Codec(
    lambda ref: ref.to_record() if ref else None,
    lambda record: ref_from_record(record) if record else None,
)
_REFS = _Codec(
    lambda refs: [ref.to_record() for ref in refs],
    lambda records: tuple(ref_from_record(record) for record in records),
)


def _stored(codec: _Codec, *, key: str | None = None) -> dict[str, Any]:
    """Field metadata: stored with `codec` under `key` (the field name when not given)."""
    return {"codec": codec, "key": key}


@dataclass(frozen=True)
class Record:
    """Base class: every record type has a `TYPE` and a dict round trip."""

    TYPE: ClassVar[str] = ""

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"type": self.TYPE}
        for spec in dataclasses.fields(self):
            key = spec.metadata["key"] or spec.name
            record[key] = spec.metadata["codec"].dump(getattr(self, spec.name))
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Record:
        """The dataclass for `record`: `UnknownRecordType` for another type, `KeyError` for
        a missing field that has no default."""
        if record.get("type") != cls.TYPE:
            raise UnknownRecordType(f"expected a {cls.TYPE!r} record, got {record.get('type')!r}")
        values = {}
        for spec in dataclasses.fields(cls):
            key = spec.metadata["key"] or spec.name
            if key in record:
                values[spec.name] = spec.metadata["codec"].load(record[key])
            elif spec.default is dataclasses.MISSING:
                raise KeyError(key)
        return cls(**values)


@dataclass(frozen=True)
class Requires(Record):
    """Only fieldable when the army holds the refs: all of them (`all`) or at least one (`any`)."""

    TYPE: ClassVar[str] = "requires"
    refs: tuple[Ref, ...] = field(metadata=_stored(_REFS))
    mode: str = field(default="all", metadata=_stored(_VALUE))


@dataclass(frozen=True)
class NotWith(Record):
    """May not share an army with any of the refs."""

    TYPE: ClassVar[str] = "not_with"
    refs: tuple[Ref, ...] = field(metadata=_stored(_REFS))


@dataclass(frozen=True)
class PetOf(Record):
    """A companion (direwolf, dragon, beast): only fieldable when its owner is in the army."""

    TYPE: ClassVar[str] = "pet_of"
    ref: Ref = field(metadata=_stored(_REF))


@dataclass(frozen=True)
class RulesCard(Record):
    """Links a faction / special rules card (rules.csv id, see cards.faction_rules)."""

    TYPE: ClassVar[str] = "rules_card"
    card: str = field(metadata=_stored(_CARD_ID))


@dataclass(frozen=True)
class Controls(Record):
    """This card brings another card with it and controls it (Varamyr -> his Eagle)."""

    TYPE: ClassVar[str] = "controls"
    card: str = field(metadata=_stored(_CARD_ID))


@dataclass(frozen=True)
class ControlledBy(Record):
    """Inverse of `controls`: this card is brought in by one of the listed cards."""

    TYPE: ClassVar[str] = "controlled_by"
    cards: tuple[str, ...] = field(metadata=_stored(_CARD_IDS))


@dataclass(frozen=True)
class Adds(Record):
    """Taking this card automatically adds another card to the army."""

    TYPE: ClassVar[str] = "adds"
    card: str = field(metadata=_stored(_CARD_ID))


@dataclass(frozen=True)
class CopyLimit(Record):
    """At most `max` copies per army; copies carrying an `ignore` ref do not count."""

    TYPE: ClassVar[str] = "copy_limit"
    max: int = field(metadata=_stored(_INT))
    ignore: tuple[Ref, ...] = field(default=(), metadata=_stored(_REFS))


@dataclass(frozen=True)
class CopyLimitPer(Record):
    """At most `max_per` copies for each unit of `unit_type` matching `per` in the army."""

    TYPE: ClassVar[str] = "copy_limit_per"
    max_per: int = field(metadata=_stored(_INT))
    per: Ref = field(metadata=_stored(_REF))
    unit_type: str = field(metadata=_stored(_VALUE))


@dataclass(frozen=True)
class IgnoresAttachmentLimit(Record):
    """Does not use the host's one attachment slot (always, or only on a host holding a ref)."""

    TYPE: ClassVar[str] = "ignores_attachment_limit"
    when_host_has: Ref | None = field(default=None, metadata=_stored(_OPTIONAL_REF))


@dataclass(frozen=True)
class CostReduction(Record):
    """Cost goes down by `amount` when attached to a given unit or when a ref is in the army.

    `free` means the printed card makes it cost nothing (then `amount` does not matter);
    `first_only` means only the first copy in the army gets the reduction.
    """

    TYPE: ClassVar[str] = "cost_reduction"
    amount: int = field(default=1, metadata=_stored(_INT))
    when_attached_to: Ref | None = field(default=None, metadata=_stored(_OPTIONAL_REF))
    when_present: Ref | None = field(default=None, metadata=_stored(_OPTIONAL_REF))
    free: bool = field(default=False, metadata=_stored(_BOOL))
    first_only: bool = field(default=False, metadata=_stored(_BOOL))


@dataclass(frozen=True)
class Solo(Record):
    """A solo unit (individual tray): it can never take an attachment."""

    TYPE: ClassVar[str] = "solo"


@dataclass(frozen=True)
class ActsAsCommander(Record):
    """Counts as the army's commander for list building (Areo Hotah standing in for Doran)."""

    TYPE: ClassVar[str] = "acts_as_commander"


@dataclass(frozen=True)
class FieldedByAbility(Record):
    """Never bought directly: it only enters play through the named ability."""

    TYPE: ClassVar[str] = "fielded_by_ability"
    ability: str = field(metadata=_stored(_VALUE))


@dataclass(frozen=True)
class HostFaction(Record):
    """This attachment may only join units of the given faction."""

    TYPE: ClassVar[str] = "host_faction"
    faction: str = field(metadata=_stored(_VALUE))


@dataclass(frozen=True)
class MustAttachTo(Record):
    """This attachment must join a unit matching one of the refs."""

    TYPE: ClassVar[str] = "must_attach_to"
    refs: tuple[Ref, ...] = field(metadata=_stored(_REFS))


@dataclass(frozen=True)
class HostClass(Record):
    """This attachment may only join units of a class / affiliation (slug, e.g. `ranger`)."""

    TYPE: ClassVar[str] = "host_class"
    class_: str = field(metadata=_stored(_VALUE, key="class"))


@dataclass(frozen=True)
class FirstFree(Record):
    """The first card of a named group taken in the army costs nothing."""

    TYPE: ClassVar[str] = "first_free"
    group: str = field(metadata=_stored(_VALUE))


@dataclass(frozen=True)
class Loyalty(Record):
    """A printed loyalty tag (from prose, not from the mini-language).

    Meaning: all loyalty-tagged cards in one army must share the same loyalty. A card
    tagged `stannis-baratheon` cannot be in an army that holds any card tagged with a
    different loyalty (e.g. `renly-baratheon`); cards without a tag are unaffected. The
    tag sits on units, attachments and NCUs (the `Requirement Text` / `Restrictions`
    columns) and, in the card JSON, as a `Loyalty: <name>` ability on commanders such as
    Stannis, Renly, Davos or Andrew Estermont, so in practice the commander's loyalty
    decides which loyal cards the army may take. Loyalties are not always characters:
    Targaryen has `greens` and `blacks`.
    """

    TYPE: ClassVar[str] = "loyalty"
    to: str = field(metadata=_stored(_VALUE))


# --- Citadel's own records (cards/data/construction_abilities.json) --------------------------
#
# Printed construction abilities the War Council mini-language does not encode. They are
# written by hand in the data file (our words, never card prose) and added to the card's
# requirements at import time; see docs/requirements.md.


@dataclass(frozen=True)
class ReducesCostOf(Record):
    """Lowers the cost of other cards: `count` of them, by `amount` each (never below 0).

    `scope` says where those cards are: `own_unit` (the attachments this unit carries, the
    Adaptive ability) or `army` (anywhere in the army). `kind` (`attachment`, `unit`, or
    empty for any) and `refs` (empty for any card) narrow the choice; the validator lowers
    the most expensive matching cards first, which is what a player would choose.
    """

    TYPE: ClassVar[str] = "reduces_cost_of"
    scope: str = field(metadata=_stored(_VALUE))
    amount: int = field(default=1, metadata=_stored(_INT))
    count: int = field(default=1, metadata=_stored(_INT))
    kind: str = field(default="", metadata=_stored(_VALUE))
    refs: tuple[Ref, ...] = field(default=(), metadata=_stored(_REFS))


@dataclass(frozen=True)
class MustCarry(Record):
    """This combat unit must carry an attachment matching one of the refs (a character who
    must lead it)."""

    TYPE: ClassVar[str] = "must_carry"
    refs: tuple[Ref, ...] = field(metadata=_stored(_REFS))


@dataclass(frozen=True)
class UnitGroupLimit(Record):
    """At most `max` attachments of the named group in any one unit."""

    TYPE: ClassVar[str] = "unit_group_limit"
    group: str = field(metadata=_stored(_VALUE))
    max: int = field(default=1, metadata=_stored(_INT))


@dataclass(frozen=True)
class CountsAs(Record):
    """For other cards' conditions that look for a card (needs, companions, cost
    reductions, host conditions), this card also answers to `ref`, or to the army's
    commander when `commander` is true. Never for character uniqueness, exclusions or the
    commander count."""

    TYPE: ClassVar[str] = "counts_as"
    ref: Ref | None = field(default=None, metadata=_stored(_OPTIONAL_REF))
    commander: bool = field(default=False, metadata=_stored(_BOOL))


_DIRECTIVE_CLASSES: tuple[type[Record], ...] = (
    Requires,
    NotWith,
    PetOf,
    RulesCard,
    Controls,
    ControlledBy,
    Adds,
    CopyLimit,
    CopyLimitPer,
    IgnoresAttachmentLimit,
    CostReduction,
    Solo,
    FieldedByAbility,
    HostFaction,
    MustAttachTo,
    HostClass,
    ActsAsCommander,
    FirstFree,
)
_PRINTED_CLASSES: tuple[type[Record], ...] = (Loyalty,)
_CITADEL_CLASSES: tuple[type[Record], ...] = (ReducesCostOf, MustCarry, UnitGroupLimit, CountsAs)
RECORD_CLASSES: dict[str, type[Record]] = {
    cls.TYPE: cls for cls in (*_DIRECTIVE_CLASSES, *_PRINTED_CLASSES, *_CITADEL_CLASSES)
}

#: Types produced by `parse_requirements` (the War Council mini-language).
DIRECTIVE_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _DIRECTIVE_CLASSES)
#: Types produced by `parse_printed_restrictions` (printed tags).
PRINTED_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _PRINTED_CLASSES)
#: Types only Citadel's table writes (cards/data/construction_abilities.json).
CITADEL_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _CITADEL_CLASSES)
#: Every type a `Card.requirements` list may hold.
RECORD_TYPES: frozenset[str] = DIRECTIVE_TYPES | PRINTED_TYPES | CITADEL_TYPES


def record_from_dict(record: dict[str, Any]) -> Record:
    """The dataclass for a record dict; raises `UnknownRecordType` for an unknown type."""
    cls = RECORD_CLASSES.get(record.get("type", ""))
    if cls is None:
        raise UnknownRecordType(f"unknown requirement record type {record.get('type')!r}")
    return cls.from_record(record)
