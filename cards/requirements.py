"""Structured list-building records parsed from the War Council `Requirements` mini-language.

The community data (`data/warcouncil/{units,attachments,ncus}.csv`) carries a small
machine-readable language in its `Requirements` column: one directive per line, sometimes
two on one line (`Limited:2 Ignore:'X'`). `parse_requirements` turns one cell into a list
of JSON-able records (the value stored in `Card.requirements`); `parse_printed_restrictions`
derives the few records that only exist as printed tags (`Loyalty: **STANNIS BARATHEON**`).

Every record is a dict with a `"type"` key. Each type has a frozen dataclass below with
`to_record()` / `from_record()`; `record_from_dict` dispatches on the type. References to
other cards are dicts of one of three shapes:

* name ref    `{"name": "Tommen Baratheon", "title": "Next in Succession"}` (title optional),
  matched against card names / characters;
* card ref    `{"card": "10116"}`, a War Council id;
* faction ref `{"faction": "bolton"}`, for quoted faction names such as `'House Bolton'`.

An unknown or malformed directive raises `RequirementSyntaxError`: nothing is dropped
silently. See docs/requirements.md for the meaning of every record type.

This module is pure Python (no Django ORM) so the importer, the validator and tests can
share it.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from cards.normalise import fold, slug_key

__all__ = [
    "DIRECTIVE_TYPES",
    "FACTIONS",
    "PRINTED_TYPES",
    "RECORD_CLASSES",
    "RECORD_TYPES",
    "ActsAsCommander",
    "Adds",
    "CardRef",
    "ControlledBy",
    "Controls",
    "CopyLimit",
    "CopyLimitPer",
    "CostReduction",
    "FactionRef",
    "FieldedByAbility",
    "FirstFree",
    "HostClass",
    "HostFaction",
    "IgnoresAttachmentLimit",
    "Loyalty",
    "MustAttachTo",
    "NameRef",
    "NotWith",
    "PetOf",
    "Record",
    "RequirementSyntaxError",
    "Requires",
    "RulesCard",
    "Solo",
    "UnknownRecordType",
    "describe",
    "describe_ref",
    "faction_slug",
    "parse_directives",
    "parse_printed_restrictions",
    "parse_ref",
    "parse_requirements",
    "record_from_dict",
    "ref_from_record",
]


# --------------------------------------------------------------------------- errors


class RequirementSyntaxError(ValueError):
    """A `Requirements` cell holds a directive this parser does not know (or cannot read)."""

    def __init__(self, message: str, *, line: int, text: str, card_id: str = "") -> None:
        self.message = message
        self.line = line
        self.text = text
        self.card_id = card_id
        where = f"card {card_id}, " if card_id else ""
        super().__init__(f"{message} ({where}line {line}: {text!r})")


class UnknownRecordType(ValueError):
    """A record dict whose `"type"` is not in the vocabulary."""


# --------------------------------------------------------------------------- factions

#: slug -> (English name, French name). The slugs are the project's TMG faction slugs.
FACTIONS: dict[str, tuple[str, str]] = {
    "lannister": ("House Lannister", "Maison Lannister"),
    "stark": ("House Stark", "Maison Stark"),
    "freefolk": ("Free Folk", "Peuple Libre"),
    "neutral": ("Neutral", "Neutre"),
    "nightswatch": ("Night's Watch", "Garde de Nuit"),
    "baratheon": ("House Baratheon", "Maison Baratheon"),
    "targaryen": ("House Targaryen", "Maison Targaryen"),
    "greyjoy": ("House Greyjoy", "Maison Greyjoy"),
    "martell": ("House Martell", "Maison Martell"),
    "bolton": ("House Bolton", "Maison Bolton"),
    "brotherhood": ("Brotherhood Without Banners", "Fraternité sans Bannières"),
}

# Folded spellings that name a faction when they appear as a whole quoted argument.
_FACTION_FULL_NAMES: dict[str, str] = {fold(en): slug for slug, (en, _fr) in FACTIONS.items()}
# Looser spellings accepted where the argument can only be a faction (`Faction: X`).
_FACTION_ALIASES: dict[str, str] = dict(_FACTION_FULL_NAMES)
_FACTION_ALIASES.update({slug: slug for slug in FACTIONS})
_FACTION_ALIASES.update(
    {
        "free folk": "freefolk",
        "night's watch": "nightswatch",
        "nights watch": "nightswatch",
        "brotherhood": "brotherhood",
    }
)


def faction_slug(name: str) -> str | None:
    """The project slug for a faction name ('House Bolton', "Night's Watch", 'Targaryen')."""
    return _FACTION_ALIASES.get(fold(name))


# --------------------------------------------------------------------------- refs


@dataclass(frozen=True)
class NameRef:
    """A card or character by name (and title when the data gives one)."""

    name: str
    title: str | None = None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"name": self.name}
        if self.title:
            record["title"] = self.title
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> NameRef:
        return cls(name=record["name"], title=record.get("title") or None)


@dataclass(frozen=True)
class CardRef:
    """A card by War Council id."""

    card: str

    def to_record(self) -> dict[str, Any]:
        return {"card": self.card}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> CardRef:
        return cls(card=str(record["card"]))


@dataclass(frozen=True)
class FactionRef:
    """A whole faction (every card of it), by project slug."""

    faction: str

    def to_record(self) -> dict[str, Any]:
        return {"faction": self.faction}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> FactionRef:
        return cls(faction=record["faction"])


Ref = NameRef | CardRef | FactionRef


def ref_from_record(record: dict[str, Any]) -> Ref:
    """The ref dataclass for a ref dict (`name`, `card` or `faction` key)."""
    if "card" in record:
        return CardRef.from_record(record)
    if "faction" in record:
        return FactionRef.from_record(record)
    if "name" in record:
        return NameRef.from_record(record)
    raise ValueError(f"not a ref: {record!r}")


def parse_ref(text: str) -> Ref:
    """The ref for the text inside one pair of quotes.

    `'House Bolton'` -> faction ref; `'Tommen Baratheon, Next in Succession'` -> name + title
    (split at the first comma); anything else -> name ref.
    """
    text = " ".join(text.split())
    slug = _FACTION_FULL_NAMES.get(fold(text))
    if slug:
        return FactionRef(slug)
    name, sep, title = text.partition(",")
    if sep and title.strip():
        return NameRef(name=name.strip(), title=title.strip())
    return NameRef(name=text)


def _refs_to_records(refs: Iterable[Ref]) -> list[dict[str, Any]]:
    return [ref.to_record() for ref in refs]


def _refs_from_records(records: Iterable[dict[str, Any]]) -> tuple[Ref, ...]:
    return tuple(ref_from_record(r) for r in records)


def _opt_ref(record: dict[str, Any] | None) -> Ref | None:
    return ref_from_record(record) if record else None


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Record:
    """Base class: every record type has a `TYPE` and a dict round trip."""

    TYPE: ClassVar[str] = ""

    def to_record(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Record:  # pragma: no cover - overridden
        raise NotImplementedError

    @classmethod
    def _check(cls, record: dict[str, Any]) -> None:
        if record.get("type") != cls.TYPE:
            raise UnknownRecordType(f"expected a {cls.TYPE!r} record, got {record.get('type')!r}")


@dataclass(frozen=True)
class Requires(Record):
    """Only fieldable when the army holds the refs: all of them (`all`) or at least one (`any`)."""

    TYPE: ClassVar[str] = "requires"
    refs: tuple[Ref, ...]
    mode: str = "all"

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "refs": _refs_to_records(self.refs), "mode": self.mode}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Requires:
        cls._check(record)
        return cls(refs=_refs_from_records(record["refs"]), mode=record.get("mode", "all"))


@dataclass(frozen=True)
class NotWith(Record):
    """May not share an army with any of the refs."""

    TYPE: ClassVar[str] = "not_with"
    refs: tuple[Ref, ...]

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "refs": _refs_to_records(self.refs)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> NotWith:
        cls._check(record)
        return cls(refs=_refs_from_records(record["refs"]))


@dataclass(frozen=True)
class PetOf(Record):
    """A companion (direwolf, dragon, beast): only fieldable when its owner is in the army."""

    TYPE: ClassVar[str] = "pet_of"
    ref: Ref

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "ref": self.ref.to_record()}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> PetOf:
        cls._check(record)
        return cls(ref=ref_from_record(record["ref"]))


@dataclass(frozen=True)
class RulesCard(Record):
    """Links a faction / special rules card (rules.csv id, see cards.faction_rules)."""

    TYPE: ClassVar[str] = "rules_card"
    card: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": self.card}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> RulesCard:
        cls._check(record)
        return cls(card=str(record["card"]))


@dataclass(frozen=True)
class Controls(Record):
    """This card brings another card with it and controls it (Varamyr -> his Eagle)."""

    TYPE: ClassVar[str] = "controls"
    card: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": self.card}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Controls:
        cls._check(record)
        return cls(card=str(record["card"]))


@dataclass(frozen=True)
class ControlledBy(Record):
    """Inverse of `controls`: this card is brought in by one of the listed cards."""

    TYPE: ClassVar[str] = "controlled_by"
    cards: tuple[str, ...]

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "cards": list(self.cards)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ControlledBy:
        cls._check(record)
        return cls(cards=tuple(str(c) for c in record["cards"]))


@dataclass(frozen=True)
class Adds(Record):
    """Taking this card automatically adds another card to the army."""

    TYPE: ClassVar[str] = "adds"
    card: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": self.card}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Adds:
        cls._check(record)
        return cls(card=str(record["card"]))


@dataclass(frozen=True)
class CopyLimit(Record):
    """At most `max` copies per army; copies carrying an `ignore` ref do not count."""

    TYPE: ClassVar[str] = "copy_limit"
    max: int
    ignore: tuple[Ref, ...] = ()

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "max": self.max, "ignore": _refs_to_records(self.ignore)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> CopyLimit:
        cls._check(record)
        return cls(max=int(record["max"]), ignore=_refs_from_records(record.get("ignore", ())))


@dataclass(frozen=True)
class CopyLimitPer(Record):
    """At most `max_per` copies for each unit of `unit_type` matching `per` in the army."""

    TYPE: ClassVar[str] = "copy_limit_per"
    max_per: int
    per: Ref
    unit_type: str

    def to_record(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "max_per": self.max_per,
            "per": self.per.to_record(),
            "unit_type": self.unit_type,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> CopyLimitPer:
        cls._check(record)
        return cls(
            max_per=int(record["max_per"]),
            per=ref_from_record(record["per"]),
            unit_type=record["unit_type"],
        )


@dataclass(frozen=True)
class IgnoresAttachmentLimit(Record):
    """Does not use the host's one attachment slot (always, or only on a host holding a ref)."""

    TYPE: ClassVar[str] = "ignores_attachment_limit"
    when_host_has: Ref | None = None

    def to_record(self) -> dict[str, Any]:
        host = self.when_host_has.to_record() if self.when_host_has else None
        return {"type": self.TYPE, "when_host_has": host}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> IgnoresAttachmentLimit:
        cls._check(record)
        return cls(when_host_has=_opt_ref(record.get("when_host_has")))


@dataclass(frozen=True)
class CostReduction(Record):
    """Cost goes down by `amount` when attached to a given unit or when a ref is in the army.

    `free` means the printed card makes it cost nothing (then `amount` does not matter);
    `first_only` means only the first copy in the army gets the reduction.
    """

    TYPE: ClassVar[str] = "cost_reduction"
    amount: int = 1
    when_attached_to: Ref | None = None
    when_present: Ref | None = None
    free: bool = False
    first_only: bool = False

    def to_record(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "amount": self.amount,
            "when_attached_to": (
                self.when_attached_to.to_record() if self.when_attached_to else None
            ),
            "when_present": self.when_present.to_record() if self.when_present else None,
            "free": self.free,
            "first_only": self.first_only,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> CostReduction:
        cls._check(record)
        return cls(
            amount=int(record.get("amount", 1)),
            when_attached_to=_opt_ref(record.get("when_attached_to")),
            when_present=_opt_ref(record.get("when_present")),
            free=bool(record.get("free", False)),
            first_only=bool(record.get("first_only", False)),
        )


@dataclass(frozen=True)
class _Flag(Record):
    """A record without fields."""

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Record:
        cls._check(record)
        return cls()


@dataclass(frozen=True)
class Solo(_Flag):
    """A solo unit (individual tray): it can never take an attachment."""

    TYPE: ClassVar[str] = "solo"


@dataclass(frozen=True)
class ActsAsCommander(_Flag):
    """Counts as the army's commander for list building (Areo Hotah standing in for Doran)."""

    TYPE: ClassVar[str] = "acts_as_commander"


@dataclass(frozen=True)
class FieldedByAbility(Record):
    """Never bought directly: it only enters play through the named ability."""

    TYPE: ClassVar[str] = "fielded_by_ability"
    ability: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "ability": self.ability}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> FieldedByAbility:
        cls._check(record)
        return cls(ability=record["ability"])


@dataclass(frozen=True)
class HostFaction(Record):
    """This attachment may only join units of the given faction."""

    TYPE: ClassVar[str] = "host_faction"
    faction: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "faction": self.faction}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> HostFaction:
        cls._check(record)
        return cls(faction=record["faction"])


@dataclass(frozen=True)
class MustAttachTo(Record):
    """This attachment must join a unit matching one of the refs."""

    TYPE: ClassVar[str] = "must_attach_to"
    refs: tuple[Ref, ...]

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "refs": _refs_to_records(self.refs)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> MustAttachTo:
        cls._check(record)
        return cls(refs=_refs_from_records(record["refs"]))


@dataclass(frozen=True)
class HostClass(Record):
    """This attachment may only join units of a class / affiliation (slug, e.g. `ranger`)."""

    TYPE: ClassVar[str] = "host_class"
    class_: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "class": self.class_}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> HostClass:
        cls._check(record)
        return cls(class_=record["class"])


@dataclass(frozen=True)
class FirstFree(Record):
    """The first card of a named group taken in the army costs nothing."""

    TYPE: ClassVar[str] = "first_free"
    group: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "group": self.group}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> FirstFree:
        cls._check(record)
        return cls(group=record["group"])


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
    to: str

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "to": self.to}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Loyalty:
        cls._check(record)
        return cls(to=record["to"])


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
RECORD_CLASSES: dict[str, type[Record]] = {
    cls.TYPE: cls for cls in (*_DIRECTIVE_CLASSES, *_PRINTED_CLASSES)
}

#: Types produced by `parse_requirements` (the War Council mini-language).
DIRECTIVE_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _DIRECTIVE_CLASSES)
#: Types produced by `parse_printed_restrictions` (printed tags).
PRINTED_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _PRINTED_CLASSES)
#: Every type a `Card.requirements` list may hold.
RECORD_TYPES: frozenset[str] = DIRECTIVE_TYPES | PRINTED_TYPES


def record_from_dict(record: dict[str, Any]) -> Record:
    """The dataclass for a record dict; raises `UnknownRecordType` for an unknown type."""
    cls = RECORD_CLASSES.get(record.get("type", ""))
    if cls is None:
        raise UnknownRecordType(f"unknown requirement record type {record.get('type')!r}")
    return cls.from_record(record)


# --------------------------------------------------------------------------- parser

_ID = r"\d{5}"
_UNIT_TYPES: dict[str, str] = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "monster": "monster",
    "siege engine": "war_machine",
    "war machine": "war_machine",
}
_UNIT_TYPE_ALT = r"Infantry|Cavalry|Monster|Siege\s+Engine|War\s+Machine"
# Directive keywords that take no colon-argument (a quoted name may be followed by one).
_BARE_KEYWORDS = r"Solo|FakeCommander|BartardsBoy|BastardsBoy|Ignores\s+Limit|Fielded\s+by"
# A closing quote is one followed by: end of line, `, '` (next name), another directive
# (`Word:` or a bare keyword) or a unit type. Apostrophes inside names (`R'hllor`,
# `Varamyr's Eagle`, `Bastards' Girls`) are followed by none of these.
_CLOSE = (
    r"'(?=\s*$|\s*,\s*'|\s+[A-Za-z][A-Za-z ]*:"
    rf"|\s+(?:{_BARE_KEYWORDS})(?![\w])|\s+(?:{_UNIT_TYPE_ALT})(?![\w]))"
)
_QUOTED = rf"'[^\n]*?{_CLOSE}"
_QUOTED_LIST = rf"{_QUOTED}(?:\s*,\s*{_QUOTED})*"
_QUOTED_BODY = re.compile(rf"'(?P<body>[^\n]*?){_CLOSE}")
_END = r"(?=\s|$)"


def _quoted_refs(text: str) -> tuple[Ref, ...]:
    return tuple(parse_ref(m.group("body")) for m in _QUOTED_BODY.finditer(text))


@dataclass(frozen=True)
class _Directive:
    keyword: str  # as named in error messages
    head: re.Pattern[str]  # the keyword alone: a match with bad arguments is "malformed"
    pattern: re.Pattern[str]  # the whole directive
    build: Callable[[re.Match[str], _Context], Record | None]


@dataclass
class _Context:
    requirement_text: str
    records: list[Record]
    line_no: int
    line: str
    card_id: str


def _directive(keyword: str, head: str, body: str, build) -> _Directive:
    if not head.endswith(":"):
        head += r"(?!\w)"  # a bare keyword is a whole word: "SoloX" is not "Solo"
    return _Directive(
        keyword=keyword,
        head=re.compile(head, re.IGNORECASE),
        pattern=re.compile(head + body + _END, re.IGNORECASE),
        build=build,
    )


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_REDUCE_BY = re.compile(r"\breduce\b[^.]*?\bby (\d+|one|two|three|four|five)\b")
_FREE = re.compile(r"\bis free\b")
_FIRST_FREE = re.compile(r"\bfirst\b[^.]*?\bis free\b")


def _reduction_terms(requirement_text: str) -> dict[str, Any]:
    """amount / free / first_only for a cost reduction, read from the printed text."""
    text = fold(requirement_text)
    terms: dict[str, Any] = {"amount": 1, "free": False, "first_only": False}
    by = _REDUCE_BY.search(text)
    if by:
        raw = by.group(1)
        terms["amount"] = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    if _FREE.search(text):
        terms["free"] = True
        terms["first_only"] = bool(_FIRST_FREE.search(text))
    return terms


def _find_ref(text: str, ref: Ref) -> tuple[int, int] | None:
    """Span of a name ref inside folded prose (full "name, title" first, then name)."""
    if not isinstance(ref, NameRef):
        return None
    for needle in (f"{ref.name}, {ref.title}" if ref.title else None, ref.name):
        if needle:
            at = text.find(fold(needle))
            if at >= 0:
                return at, at + len(fold(needle))
    return None


_OR = re.compile(r"\bor\b")


def _requires_mode(refs: tuple[Ref, ...], requirement_text: str) -> str:
    """`any` when the printed text joins the required names with "or", else `all`."""
    if len(refs) < 2 or not requirement_text:
        return "all"
    text = fold(requirement_text)
    spans = [_find_ref(text, ref) for ref in refs]
    if any(span is None for span in spans):
        return "all"
    ordered = sorted(s for s in spans if s is not None)
    for (_, end), (start, _) in itertools.pairwise(ordered):
        if _OR.search(text[end:start]):
            return "any"
    return "all"


def _build_requires(m: re.Match[str], ctx: _Context) -> Record:
    refs = _quoted_refs(m.group("refs"))
    return Requires(refs=refs, mode=_requires_mode(refs, ctx.requirement_text))


def _build_ignore(m: re.Match[str], ctx: _Context) -> None:
    """`Ignore:'X'` extends the `Limited:N` just before it (same cell)."""
    if not ctx.records or not isinstance(ctx.records[-1], CopyLimit):
        raise RequirementSyntaxError(
            "directive 'Ignore' must follow a 'Limited:N' directive",
            line=ctx.line_no,
            text=ctx.line,
            card_id=ctx.card_id,
        )
    limit = ctx.records[-1]
    ctx.records[-1] = dataclasses.replace(
        limit, ignore=limit.ignore + _quoted_refs(m.group("refs"))
    )
    return None


def _build_host_faction(m: re.Match[str], ctx: _Context) -> Record:
    slug = faction_slug(m.group("faction").strip("'"))
    if slug is None:
        raise RequirementSyntaxError(
            f"directive 'Faction' names an unknown faction {m.group('faction')!r}",
            line=ctx.line_no,
            text=ctx.line,
            card_id=ctx.card_id,
        )
    return HostFaction(slug)


def _build_reduce(m: re.Match[str], ctx: _Context) -> Record:
    terms = _reduction_terms(ctx.requirement_text)
    if m.groupdict().get("id"):
        return CostReduction(when_attached_to=CardRef(m.group("id")), **terms)
    return CostReduction(when_present=parse_ref(m.group("ref")[1:-1]), **terms)


def _build_copy_limit_per(m: re.Match[str], ctx: _Context) -> Record:
    unit_type = _UNIT_TYPES[" ".join(m.group("unit_type").lower().split())]
    return CopyLimitPer(
        max_per=int(m.group("n") or 1), per=parse_ref(m.group("ref")[1:-1]), unit_type=unit_type
    )


_FACTION_NAME_ALT = "|".join(
    sorted(
        (re.escape(name).replace(r"\ ", r"\s+") for name in _FACTION_ALIASES),
        key=len,
        reverse=True,
    )
)

# Order matters where one keyword is a prefix of another (Ignores Limit / Ignore,
# Limited 'X' Infantry / Limited N).
_DIRECTIVES: tuple[_Directive, ...] = (
    _directive("Requires", r"Requires\s*:", rf"\s*(?P<refs>{_QUOTED_LIST})", _build_requires),
    _directive(
        "Not",
        r"Not\s*:",
        rf"\s*(?P<refs>{_QUOTED_LIST})",
        lambda m, ctx: NotWith(refs=_quoted_refs(m.group("refs"))),
    ),
    _directive(
        "Pet",
        r"Pet\s*:",
        rf"\s*(?P<ref>{_QUOTED})",
        lambda m, ctx: PetOf(ref=parse_ref(m.group("ref")[1:-1])),
    ),
    _directive(
        "Rules", r"Rules\s*:", rf"\s*(?P<id>{_ID})", lambda m, ctx: RulesCard(m.group("id"))
    ),
    _directive(
        "Controls", r"Controls\s*:", rf"\s*(?P<id>{_ID})", lambda m, ctx: Controls(m.group("id"))
    ),
    _directive(
        "Controlled",
        r"Controlled\s*:",
        rf"\s*(?P<ids>{_ID}(?:\s*,\s*{_ID})*)",
        lambda m, ctx: ControlledBy(tuple(re.findall(_ID, m.group("ids")))),
    ),
    _directive("Add", r"Add\s*:", rf"\s*(?P<id>{_ID})", lambda m, ctx: Adds(m.group("id"))),
    _directive(
        "Limited",
        r"Limited\s*:",
        rf"\s*(?:(?P<n>\d+)\s+)?(?P<ref>{_QUOTED})\s+(?P<unit_type>{_UNIT_TYPE_ALT})",
        _build_copy_limit_per,
    ),
    _directive(
        "Limited",
        r"Limited\s*:",
        r"\s*(?P<n>\d+)",
        lambda m, ctx: CopyLimit(max=int(m.group("n"))),
    ),
    _directive(
        "Ignores Limit",
        r"Ignores\s+Limit\s*:",
        rf"\s*(?P<ref>{_QUOTED})",
        lambda m, ctx: IgnoresAttachmentLimit(parse_ref(m.group("ref")[1:-1])),
    ),
    _directive(
        "Ignores Limit", r"Ignores\s+Limit", "", lambda m, ctx: IgnoresAttachmentLimit(None)
    ),
    _directive("Ignore", r"Ignore\s*:", rf"\s*(?P<refs>{_QUOTED_LIST})", _build_ignore),
    _directive(
        "ReduceIfAttachedTo", r"ReduceIfAttachedTo\s*:", rf"\s*(?P<id>{_ID})", _build_reduce
    ),
    _directive("ReduceIfPresent", r"ReduceIfPresent\s*:", rf"\s*(?P<ref>{_QUOTED})", _build_reduce),
    _directive("Solo", r"Solo", "", lambda m, ctx: Solo()),
    _directive(
        "Fielded by",
        r"Fielded\s+by",
        r"\s+(?P<ability>[A-Za-z][\w'-]*)",
        lambda m, ctx: FieldedByAbility(slug_key(m.group("ability"))),
    ),
    _directive(
        "Faction",
        r"Faction\s*:",
        rf"\s*(?P<faction>'[^'\n]+'|(?:{_FACTION_NAME_ALT})(?!\w)|[A-Za-z]+)",
        _build_host_faction,
    ),
    _directive(
        "Attaches to",
        r"Attaches\s+to\s*:",
        rf"\s*(?P<refs>{_QUOTED_LIST})",
        lambda m, ctx: MustAttachTo(refs=_quoted_refs(m.group("refs"))),
    ),
    _directive(
        "Attached to class",
        r"Attached\s+to\s+class\s*:",
        rf"\s*(?P<ref>{_QUOTED})",
        lambda m, ctx: HostClass(slug_key(m.group("ref")[1:-1])),
    ),
    _directive("FakeCommander", r"FakeCommander", "", lambda m, ctx: ActsAsCommander()),
    # Spelled "BartardsBoy" in the data; the corrected spelling is accepted too.
    _directive("BartardsBoy", r"Ba(?:rt|st)ardsBoy", "", lambda m, ctx: FirstFree("bastards-boys")),
)

_WORD_HEAD = re.compile(r"(?P<name>[^\s:']+(?:\s+[^\s:']+)*?)\s*:")


def _directive_name(rest: str) -> str:
    """What the unreadable text calls itself: the words before a colon, else the first word."""
    head = _WORD_HEAD.match(rest)
    if head and "'" not in head.group(0):
        return head.group("name")
    return rest.split()[0] if rest.split() else rest


def parse_directives(cell: str, *, requirement_text: str = "", card_id: str = "") -> list[Record]:
    """The record dataclasses for one `Requirements` cell (see `parse_requirements`)."""
    records: list[Record] = []
    if not cell or not cell.strip():
        return records
    for line_no, raw in enumerate(cell.splitlines(), start=1):
        line = raw.strip()
        ctx = _Context(requirement_text, records, line_no, line, card_id)
        pos = 0
        while pos < len(line):
            for directive in _DIRECTIVES:
                m = directive.pattern.match(line, pos)
                if m:
                    record = directive.build(m, ctx)
                    if record is not None:
                        records.append(record)
                    pos = m.end()
                    break
            else:
                rest = line[pos:]
                known = next((d for d in _DIRECTIVES if d.head.match(line, pos)), None)
                if known is not None:
                    message = f"malformed arguments for directive {known.keyword!r}"
                else:
                    message = f"unknown directive {_directive_name(rest)!r}"
                raise RequirementSyntaxError(message, line=line_no, text=line, card_id=card_id)
            while pos < len(line) and line[pos].isspace():
                pos += 1
    return records


def parse_requirements(
    cell: str, *, requirement_text: str = "", card_id: str = ""
) -> list[dict[str, Any]]:
    """Parse one War Council `Requirements` cell into a list of record dicts.

    `requirement_text` is the card's printed `Requirement Text`: it decides whether a
    two-name `Requires:` needs both names or either ("or" between them), and gives the
    real amount of a `ReduceIf...` cost reduction. `card_id` only improves error messages.
    An empty cell gives `[]`; an unknown directive raises `RequirementSyntaxError`.
    """
    return [
        record.to_record()
        for record in parse_directives(cell, requirement_text=requirement_text, card_id=card_id)
    ]


# --------------------------------------------------------------------------- printed tags

_LOYALTY = re.compile(
    r"^[\s*_]*(?:Loyalty|Loyaut[ée])\s*:\s*"
    r"(?:\*\*\s*(?P<bold>[^*\n]+?)\s*\*\*|(?P<plain>[A-Za-z][A-Za-z' -]*?)\s*$)",
    re.IGNORECASE | re.MULTILINE,
)


def parse_printed_restrictions(text: str) -> list[dict[str, Any]]:
    """Records for the printed tags that the mini-language lacks (today: loyalty).

    Reads a `Requirement Text` (units, attachments) or `Restrictions` (NCUs) cell, or a
    `Loyalty: <name>` ability name. A line `Loyalty: **STANNIS BARATHEON**` gives
    `{"type": "loyalty", "to": "stannis-baratheon"}` (the French `Loyauté :` too). All
    other prose is ignored, never an error. See `Loyalty` for what the tag means.
    """
    records: list[dict[str, Any]] = []
    if not text:
        return records
    seen: set[str] = set()
    for m in _LOYALTY.finditer(text):
        slug = slug_key(m.group("bold") or m.group("plain") or "")
        if slug and slug not in seen:
            seen.add(slug)
            records.append(Loyalty(slug).to_record())
    return records


# --------------------------------------------------------------------------- describe

_UNIT_TYPE_NAMES = {
    "infantry": ("infantry", "d'infanterie"),
    "cavalry": ("cavalry", "de cavalerie"),
    "monster": ("monster", "de monstre"),
    "war_machine": ("war machine", "d'engin de siège"),
}
_GROUP_NAMES = {"bastards-boys": ("Bastard's Boys", "Bastard's Boys")}


def _is_fr(lang: str) -> bool:
    return (lang or "en").split("-")[0].lower() == "fr"


def _words(slug: str) -> str:
    """'stannis-baratheon' -> 'Stannis Baratheon'."""
    return " ".join(part.capitalize() for part in slug.split("-"))


def describe_ref(
    ref: dict[str, Any], lang: str = "en", *, card_name: Callable[[str], str] | None = None
) -> str:
    """A ref as text: a name (with title), a faction name, or a card id (or its name)."""
    fr = _is_fr(lang)
    if "card" in ref:
        card = str(ref["card"])
        if card_name is not None:
            name = card_name(card)
            if name:
                return name
        return f"la carte {card}" if fr else f"card {card}"
    if "faction" in ref:
        names = FACTIONS.get(ref["faction"])
        if names is None:
            return _words(ref["faction"])
        return names[1] if fr else names[0]
    if ref.get("title"):
        return f"{ref['name']}, {ref['title']}"
    return ref["name"]


def _join(items: list[str], fr: bool, conj_en: str, conj_fr: str) -> str:
    conj = conj_fr if fr else conj_en
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


def describe(
    record: dict[str, Any],
    lang: str = "en",
    *,
    card_name: Callable[[str], str] | None = None,
) -> str:
    """A short sentence (English, or French for `lang="fr"`) for one record, for card pages.

    `card_name`, when given, turns a card id into a display name for card refs.
    Faction rule records (rules cards store them in `requirements` too) are described by
    `cards.faction_rules.describe_rule`. Raises `UnknownRecordType` for any other type.
    """
    fr = _is_fr(lang)
    kind = record.get("type")

    def ref(r: dict[str, Any]) -> str:
        return describe_ref(r, lang, card_name=card_name)

    def card(card_id: str) -> str:
        return ref({"card": card_id})

    if kind == "requires":
        names = [ref(r) for r in record["refs"]]
        if record.get("mode") == "any":
            joined = _join(names, fr, "or", "ou")
        else:
            joined = _join(names, fr, "and", "et")
        return f"Exige {joined} dans l'armée." if fr else f"Needs {joined} in the army."
    if kind == "not_with":
        joined = _join([ref(r) for r in record["refs"]], fr, "or", "ou")
        return f"Interdit dans une armée avec {joined}." if fr else f"Not allowed with {joined}."
    if kind == "pet_of":
        owner = ref(record["ref"])
        if fr:
            return f"Compagnon de {owner} : seulement si {owner} est dans l'armée."
        return f"Companion of {owner}: only allowed if {owner} is in the army."
    if kind == "rules_card":
        c = record["card"]
        return f"Utilise la carte de règles {c}." if fr else f"Uses rules card {c}."
    if kind == "controls":
        c = card(record["card"])
        return f"Amène et contrôle {c}." if fr else f"Brings and controls {c}."
    if kind == "controlled_by":
        joined = _join([card(c) for c in record["cards"]], fr, "or", "ou")
        return f"Amené et contrôlé par {joined}." if fr else f"Brought and controlled by {joined}."
    if kind == "adds":
        c = card(record["card"])
        return f"Ajoute {c} à l'armée sans autre choix." if fr else f"Adds {c} to the army."
    if kind == "copy_limit":
        n = record["max"]
        text = (
            f"Au plus {n} exemplaire{'s' if n > 1 else ''} par armée."
            if fr
            else f"At most {n} cop{'ies' if n > 1 else 'y'} per army."
        )
        if record.get("ignore"):
            joined = _join([ref(r) for r in record["ignore"]], fr, "or", "ou")
            text += (
                f" Les exemplaires portant {joined} ne comptent pas."
                if fr
                else f" Copies carrying {joined} do not count."
            )
        return text
    if kind == "copy_limit_per":
        en_type, fr_type = _UNIT_TYPE_NAMES.get(
            record["unit_type"], (record["unit_type"], record["unit_type"])
        )
        per = ref(record["per"])
        n = record["max_per"]
        if fr:
            return f"Au plus {n} par unité {fr_type} « {per} » dans l'armée."
        return f"At most {n} per {per} {en_type} unit in the army."
    if kind == "ignores_attachment_limit":
        host = record.get("when_host_has")
        if host:
            if fr:
                return (
                    "Ignore la limite habituelle d'attachements dans une unité "
                    f"comprenant {ref(host)}."
                )
            return f"Ignores the usual attachment limit in a unit with {ref(host)}."
        if fr:
            return "Ignore la limite habituelle d'attachements."
        return "Ignores the usual attachment limit."
    if kind == "cost_reduction":
        if record.get("when_attached_to"):
            cond_en = f"when attached to {ref(record['when_attached_to'])}"
            cond_fr = f"s'il est attaché à {ref(record['when_attached_to'])}"
        elif record.get("when_present"):
            cond_en = f"if the army includes {ref(record['when_present'])}"
            cond_fr = f"si l'armée comprend {ref(record['when_present'])}"
        else:
            cond_en, cond_fr = "", ""
        if record.get("free"):
            if record.get("first_only"):
                head = "Le premier exemplaire est gratuit" if fr else "The first copy is free"
            else:
                head = "Gratuit" if fr else "Free"
        else:
            n = record.get("amount", 1)
            head = (
                f"Coûte {n} point{'s' if n > 1 else ''} de moins"
                if fr
                else (f"Costs {n} point{'s' if n > 1 else ''} less")
            )
        cond = cond_fr if fr else cond_en
        return f"{head} {cond}.".replace(" .", ".")
    if kind == "solo":
        if fr:
            return "Unité individuelle : ne reçoit jamais d'attachement."
        return "Solo unit: never takes an attachment."
    if kind == "fielded_by_ability":
        ability = _words(record["ability"])
        if fr:
            return f"Ne s'achète pas : n'arrive que par la capacité {ability}."
        return f"Not bought directly: only brought in by the {ability} ability."
    if kind == "host_faction":
        names = FACTIONS.get(record["faction"], (record["faction"], record["faction"]))
        if fr:
            return f"Ne peut rejoindre que des unités de la faction {names[1]}."
        return f"May only join {names[0]} units."
    if kind == "must_attach_to":
        joined = _join([ref(r) for r in record["refs"]], fr, "or", "ou")
        if fr:
            return f"Doit être attaché à une unité {joined}."
        return f"Must be attached to a {joined} unit."
    if kind == "host_class":
        klass = _words(record["class"])
        if fr:
            return f"Ne peut rejoindre que des unités {klass}."
        return f"May only join {klass} units."
    if kind == "acts_as_commander":
        if fr:
            return "Compte comme le général pour la construction d'armée."
        return "Counts as the commander for army building."
    if kind == "first_free":
        en_group, fr_group = _GROUP_NAMES.get(record["group"], (_words(record["group"]),) * 2)
        if fr:
            return f"La première carte {fr_group} de l'armée est gratuite."
        return f"The first {en_group} card in the army is free."
    if kind == "loyalty":
        who = _words(record["to"])
        if fr:
            return f"Loyauté {who} : jamais avec des cartes d'une autre loyauté."
        return f"Loyal to {who}: never with cards of another loyalty."
    # Rules cards (kind "special") store faction rule records in the same field.
    from cards import faction_rules

    if kind in faction_rules.FACTION_RULE_TYPES:
        return faction_rules.describe_rule(record, lang)
    raise UnknownRecordType(f"unknown requirement record type {kind!r}")
