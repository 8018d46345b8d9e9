"""References from one record to other cards: by name (and title), by id, or a faction.

A ref is stored as a dict of one of three shapes:

* name ref    `{"name": "Tommen Baratheon", "title": "Next in Succession"}` (title optional),
  matched against card names / characters;
* card ref    `{"card": "10116"}`, a War Council id;
* faction ref `{"faction": "bolton"}`, for quoted faction names such as `'House Bolton'`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Self

from cards.normalise import fold

from .factions import FACTION_FULL_NAMES


@dataclass(frozen=True)
class _Ref:
    """A ref dict holds the ref's fields under their own names; an optional field left
    unset (a name ref without title) is left out. Values are kept as text."""

    def to_record(self) -> dict[str, Any]:
        return {
            spec.name: getattr(self, spec.name)
            for spec in dataclasses.fields(self)
            if spec.default is dataclasses.MISSING or getattr(self, spec.name)
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        return cls(
            **{
                spec.name: str(record[spec.name])
                if spec.default is dataclasses.MISSING
                else record.get(spec.name) or None
                for spec in dataclasses.fields(cls)
            }
        )


@dataclass(frozen=True)
class NameRef(_Ref):
    """A card or character by name (and title when the data gives one)."""

    name: str
    title: str | None = None


@dataclass(frozen=True)
class CardRef(_Ref):
    """A card by War Council id."""

    card: str


@dataclass(frozen=True)
class FactionRef(_Ref):
    """A whole faction (every card of it), by project slug."""

    faction: str


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
    slug = FACTION_FULL_NAMES.get(fold(text))
    if slug:
        return FactionRef(slug)
    name, sep, title = text.partition(",")
    if sep and title.strip():
        return NameRef(name=name.strip(), title=title.strip())
    return NameRef(name=text)
