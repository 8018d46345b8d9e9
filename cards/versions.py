"""What changed between two recorded versions of a card, field by field.

An errata report ("Stark Sworn Swords: points 5 → 6") and a saved list's "update to the
current cards" both say it from two `CardVersion.stats` mappings. Values are compared as
recorded; lists (abilities, characters, carriers) say what was added and removed, and
structured values (requirements, attacks) only that they changed.

Pure: importable without Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from common.i18n import Message, _, pgettext_lazy

# The fields a reader cares about first, then the rest in this order.
FIELD_LABELS: dict[str, Message] = {
    "points": pgettext_lazy("card field", "points"),
    "gold": pgettext_lazy("card field", "gold"),
    "silver": pgettext_lazy("card field", "silver"),
    "copper": pgettext_lazy("card field", "copper"),
    "faction": pgettext_lazy("card field", "faction"),
    "kind": pgettext_lazy("card field", "kind"),
    "is_commander": pgettext_lazy("card field", "commander"),
    "is_character": pgettext_lazy("card field", "character"),
    "unit_type": pgettext_lazy("card field", "unit type"),
    "tray": pgettext_lazy("card field", "tray"),
    "speed": pgettext_lazy("card field", "speed"),
    "defense": pgettext_lazy("card field", "defense"),
    "morale": pgettext_lazy("card field", "morale"),
    "wounds": pgettext_lazy("card field", "wounds"),
    "will": pgettext_lazy("card field", "will"),
    "attacks": pgettext_lazy("card field", "attacks"),
    "abilities": pgettext_lazy("card field", "abilities"),
    "requirements": pgettext_lazy("card field", "construction rules"),
    "characters": pgettext_lazy("card field", "characters"),
    "carriers": pgettext_lazy("card field", "may be carried by"),
    "is_unique": pgettext_lazy("card field", "unique"),
    "mounted": pgettext_lazy("card field", "mounted"),
    "commander_card": pgettext_lazy("card field", "commander card"),
    "replaces": pgettext_lazy("card field", "replaces"),
    "name_en": pgettext_lazy("card field", "name"),
    "title_en": pgettext_lazy("card field", "title"),
}
_ORDER = {name: position for position, name in enumerate(FIELD_LABELS)}
# Lists whose items are names or keys: what was added and removed is what a reader wants.
_SETS = frozenset({"abilities", "characters", "carriers"})
# Values too structured to print: only that they changed.
_OPAQUE = frozenset({"requirements", "attacks"})
# Fields that change what a list costs.
COST_FIELDS = frozenset({"points", "gold", "silver", "copper"})


@dataclass(frozen=True)
class StatChange:
    """One field of a card that differs between two versions."""

    field: str
    old: Any
    new: Any

    @property
    def added(self) -> tuple[str, ...]:
        if self.field not in _SETS:
            return ()
        return tuple(item for item in self.new or () if item not in (self.old or ()))

    @property
    def removed(self) -> tuple[str, ...]:
        if self.field not in _SETS:
            return ()
        return tuple(item for item in self.old or () if item not in (self.new or ()))

    @property
    def affects_cost(self) -> bool:
        return self.field in COST_FIELDS

    def label(self, lang: str | None) -> str:
        known = FIELD_LABELS.get(self.field)
        return known.in_language(lang) if known is not None else self.field

    def describe(self, lang: str | None, names: Mapping[str, str] | None = None) -> str:
        """ "points 5 → 6", "abilities: + Vicious, − Taunt", "construction rules changed".
        `names`: display names of keys and slugs (abilities, characters, factions, kinds)."""
        names = names or {}
        label = self.label(lang)
        if self.field in _OPAQUE:
            return _("{field} changed", field=label).in_language(lang)
        if self.field in _SETS:
            parts = [f"+ {names.get(item, item)}" for item in self.added]
            parts += [f"− {names.get(item, item)}" for item in self.removed]
            return f"{label}: {', '.join(parts)}"
        return f"{label} {_value(self.old, lang, names)} → {_value(self.new, lang, names)}"

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new}


def _value(value: Any, lang: str | None, names: Mapping[str, str]) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return (_("yes") if value else _("no")).in_language(lang)
    return names.get(value, str(value)) if isinstance(value, str) else str(value)


def stat_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[StatChange, ...]:
    """The fields whose values differ, the ones that matter most first. A field one version
    does not record is not a change (the stats format may have grown since)."""
    changes = [
        StatChange(field=name, old=old[name], new=new[name])
        for name in old.keys() & new.keys()
        if _comparable(old[name]) != _comparable(new[name])
    ]
    return tuple(sorted(changes, key=lambda c: (_ORDER.get(c.field, len(_ORDER)), c.field)))


def _comparable(value: Any) -> Any:
    # Sets compare without their order; None and "" are both "not set".
    if value in (None, ""):
        return None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return frozenset(value)
    return value
