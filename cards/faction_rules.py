"""Structured records for the 16 TMG faction / special rules cards (War Council `rules.csv`).

The table lives in `cards/data/faction_rules.json` (our own wording, no card prose): a
mapping from each rules-card id to a list of records. Every record has `type`, `scope`
(`army`: changes list building for the whole army; `card`: an in-game effect tied to the
card that links the rules card; `game`: an in-game effect for the whole game),
`rule_card` and `faction`. See docs/requirements.md for each type.

Cards point at a rules card with the `Rules: 5xxxx` directive (a `rules_card` record from
cards.requirements); the importer calls `rules_for_card`, which fails loudly for an id
missing from the table. Pure Python: no Django ORM.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from cards.requirements import FACTIONS, describe_ref

__all__ = [
    "DATA_FILE",
    "FACTION_RULE_TYPES",
    "RULE_TYPES",
    "SCOPES",
    "FactionRulesError",
    "UnknownRulesCard",
    "army_rules_for_faction",
    "describe_rule",
    "load_faction_rules",
    "rules_for_card",
    "validate_faction_rules",
]

DATA_FILE = Path(__file__).resolve().parent / "data" / "faction_rules.json"

SCOPES = frozenset({"army", "card", "game"})

#: type -> fields every record of that type must have (besides type/scope/rule_card/faction).
FACTION_RULE_TYPES: dict[str, frozenset[str]] = {
    "no_neutrals": frozenset(),
    "optional_commander": frozenset(
        {
            "commander",
            "commander_cards",
            "points",
            "requires",
            "discount_per_unused_attachment_point",
            "replaces_tactics_deck",
            "battlefield_commander",
        }
    ),
    "prefer_faction_version": frozenset({"over"}),
    "attachment_discount": frozenset({"amount", "count"}),
    "faction_allowance": frozenset({"factions", "kinds", "count", "counts_as_faction"}),
    "conditional_exclusion": frozenset({"when_present", "refs", "include_neutral_versions"}),
    "game_effect": frozenset({"note_en", "note_fr"}),
}
#: Every faction rule record type (what a rules card's `requirements` list may hold).
RULE_TYPES: frozenset[str] = frozenset(FACTION_RULE_TYPES)


class UnknownRulesCard(LookupError):
    """A rules-card id that the faction rules table does not describe."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id
        super().__init__(
            f"rules card {card_id!r} is not described in {DATA_FILE.name}: "
            "add its records (see docs/requirements.md)"
        )


class FactionRulesError(ValueError):
    """The faction rules table is inconsistent."""


def validate_faction_rules(table: dict[str, list[dict[str, Any]]]) -> None:
    """Raise `FactionRulesError` unless every record is well formed."""
    for card_id, records in table.items():
        if not (isinstance(card_id, str) and card_id.isdigit() and len(card_id) == 5):
            raise FactionRulesError(f"{card_id!r} is not a 5-digit rules card id")
        if not isinstance(records, list) or not records:
            raise FactionRulesError(f"rules card {card_id} needs a non-empty list of records")
        for record in records:
            kind = record.get("type")
            if kind not in FACTION_RULE_TYPES:
                raise FactionRulesError(f"rules card {card_id}: unknown record type {kind!r}")
            missing = FACTION_RULE_TYPES[kind] - record.keys()
            if missing:
                raise FactionRulesError(
                    f"rules card {card_id}: {kind} record lacks {sorted(missing)}"
                )
            if record.get("scope") not in SCOPES:
                raise FactionRulesError(f"rules card {card_id}: bad scope {record.get('scope')!r}")
            if record.get("rule_card") != card_id:
                raise FactionRulesError(f"rules card {card_id}: record names another rule_card")
            if record.get("faction") not in FACTIONS:
                raise FactionRulesError(
                    f"rules card {card_id}: unknown faction {record.get('faction')!r}"
                )


@cache
def _load() -> dict[str, list[dict[str, Any]]]:
    with DATA_FILE.open(encoding="utf-8") as fh:
        table = json.load(fh)
    validate_faction_rules(table)
    return table


def load_faction_rules() -> dict[str, list[dict[str, Any]]]:
    """The whole table, rules-card id -> records (read once, then a fresh copy each call)."""
    return copy.deepcopy(_load())


def rules_for_card(card_id: str) -> list[dict[str, Any]]:
    """The records for one rules card; `UnknownRulesCard` if the id is not in the table."""
    records = _load().get(str(card_id).strip())
    if records is None:
        raise UnknownRulesCard(str(card_id))
    return copy.deepcopy(records)


def army_rules_for_faction(faction_slug: str) -> list[dict[str, Any]]:
    """Every army-scope record of a faction (list-building rules), in rules-card id order."""
    return [
        copy.deepcopy(record)
        for card_id in sorted(_load())
        for record in _load()[card_id]
        if record["scope"] == "army" and record["faction"] == faction_slug
    ]


def _join(items: list[str], fr: bool) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {'ou' if fr else 'or'} {items[-1]}"


def describe_rule(record: dict[str, Any], lang: str = "en") -> str:
    """A short sentence (English, or French for `lang="fr"`) for one faction rule record."""
    fr = (lang or "en").split("-")[0].lower() == "fr"
    kind = record.get("type")

    def ref(r: dict[str, Any]) -> str:
        return describe_ref(r, lang)

    def faction_name(slug: str) -> str:
        names = FACTIONS.get(slug, (slug, slug))
        return names[1] if fr else names[0]

    if kind == "no_neutrals":
        if fr:
            return "L'armée ne peut inclure aucune carte Neutre."
        return "The army may not include any Neutral cards."
    if kind == "optional_commander":
        who = ref(record["commander"])
        parts = [f"{who} peut être choisi comme général" if fr else f"{who} may be the commander"]
        if record.get("points") is not None:
            p = record["points"]
            parts.append(f"pour {p} points" if fr else f"for {p} points")
        sentence = " ".join(parts) + "."
        if record.get("requires"):
            names = [ref(r) for r in record["requires"]]
            joined = (" et " if fr else " and ").join(names)
            sentence += (
                f" L'armée doit alors inclure {joined}."
                if fr
                else (f" The army must then include {joined}.")
            )
        if record.get("discount_per_unused_attachment_point"):
            n = record["discount_per_unused_attachment_point"]
            sentence += (
                f" Son coût baisse de {n} par point d'attachement supplémentaire inutilisé."
                if fr
                else f" His cost drops by {n} for each unused extra attachment point."
            )
        if record.get("replaces_tactics_deck"):
            sentence += (
                " Son paquet tactique remplace celui de la faction."
                if fr
                else " His tactics deck replaces the faction deck."
            )
        if record.get("battlefield_commander"):
            stand_in = ref(record["battlefield_commander"])
            sentence += (
                f" Sur le champ de bataille, {stand_in} compte comme le général."
                if fr
                else f" On the battlefield, {stand_in} counts as the commander."
            )
        return sentence
    if kind == "prefer_faction_version":
        if fr:
            return (
                "Un personnage qui existe en version Neutre et en version de la faction "
                "ne peut être pris que dans la version de la faction."
            )
        return (
            "A character with both a Neutral and a faction card may only be taken as the "
            "faction version."
        )
    if kind == "attachment_discount":
        n, count = record["amount"], record["count"]
        if fr:
            return f"Réduit de {n} le coût de {count} attachement de l'armée."
        return f"Reduces the cost of {count} attachment in the army by {n}."
    if kind == "faction_allowance":
        names = _join([faction_name(f) for f in record["factions"]], fr)
        count = record["count"]
        if fr:
            return (
                f"L'armée peut inclure {count} unité de combat de la faction {names}, "
                "comptée comme non-Neutre."
            )
        return f"The army may include {count} combat unit from {names}, counted as non-Neutral."
    if kind == "conditional_exclusion":
        cond = ref(record["when_present"])
        names = _join([ref(r) for r in record["refs"]], fr)
        if fr:
            return f"Si l'armée comprend {cond}, elle ne peut pas inclure {names}."
        return f"If the army includes {cond}, it may not include {names}."
    if kind == "game_effect":
        return record["note_fr"] if fr else record["note_en"]
    raise FactionRulesError(f"unknown faction rule record type {kind!r}")
