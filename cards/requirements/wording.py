"""How the sentences of `describe` and `describe_rule` name things: refs, slugs, lists.

A record's sentence is a template per language (`"Needs {refs} in the army."`); the
template is filled from `RecordWords`, which turns each field of the record into words in
the reader's language when the template asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common.i18n import pick

from .factions import faction_name

_UNIT_TYPE_NAMES = {
    "infantry": ("infantry", "d'infanterie"),
    "cavalry": ("cavalry", "de cavalerie"),
    "monster": ("monster", "de monstre"),
    "war_machine": ("war machine", "d'engin de siège"),
}
_GROUP_NAMES = {"bastards-boys": ("Bastard's Boys", "Bastard's Boys")}
_REF_FIELDS = frozenset(
    {
        "ref",
        "per",
        "when_host_has",
        "when_attached_to",
        "when_present",
        "commander",
        "battlefield_commander",
    }
)
_SLUG_FIELDS = frozenset({"ability", "class", "to"})


def words(slug: str) -> str:
    """'stannis-baratheon' -> 'Stannis Baratheon'."""
    return " ".join(part.capitalize() for part in slug.split("-"))


def join(items: list[str], conjunction: str) -> str:
    """'a, b or c' (with the conjunction already in the reader's language)."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def describe_ref(
    ref: dict[str, Any], lang: str = "en", *, card_name: Callable[[str], str] | None = None
) -> str:
    """A ref as text: a name (with title), a faction name, or a card id (or its name)."""
    if "card" in ref:
        card = str(ref["card"])
        name = card_name(card) if card_name is not None else ""
        return name or pick(lang, f"card {card}", f"la carte {card}")
    if "faction" in ref:
        return faction_name(ref["faction"], lang, unknown=words(ref["faction"]))
    if ref.get("title"):
        return f"{ref['name']}, {ref['title']}"
    return str(ref["name"])


class RecordWords:
    """A record's fields in words, for `template.format_map(words)`.

    `{refs}` joins the refs with "or" (with "and" for a `requires` record that needs them
    all), `{card}` names a card (its id without `card_name`), `{card_id}` is the id as
    printed, `{faction}` and `{factions}` name factions, slugs become words. A missing
    field raises `KeyError`, like the record itself would.
    """

    def __init__(
        self,
        record: dict[str, Any],
        lang: str,
        *,
        card_name: Callable[[str], str] | None = None,
    ) -> None:
        self.record = record
        self.lang = lang
        self.card_name = card_name
        self.or_ = pick(lang, "or", "ou")
        self.and_ = pick(lang, "and", "et")
        needs_all = record.get("type") == "requires" and record.get("mode") != "any"
        self.conjunction = self.and_ if needs_all else self.or_

    def ref(self, ref: dict[str, Any]) -> str:
        return describe_ref(ref, self.lang, card_name=self.card_name)

    def __getitem__(self, key: str) -> str:
        value = self.record["card" if key == "card_id" else key]
        if key in ("refs", "ignore"):
            return join([self.ref(ref) for ref in value], self.conjunction)
        if key in _REF_FIELDS:
            return self.ref(value)
        if key == "card":
            return self.ref({"card": value})
        if key == "requires":  # an optional commander's companions: all of them
            return f" {self.and_} ".join(self.ref(ref) for ref in value)
        if key == "cards":
            return join([self.ref({"card": card}) for card in value], self.or_)
        if key == "faction":
            return faction_name(value, self.lang)
        if key == "factions":
            return join([faction_name(slug, self.lang) for slug in value], self.or_)
        if key == "unit_type":
            return pick(self.lang, *_UNIT_TYPE_NAMES.get(value, (value, value)))
        if key == "group":
            return pick(self.lang, *_GROUP_NAMES.get(value, (words(value),) * 2))
        if key in _SLUG_FIELDS:
            return words(value)
        return str(value)
