"""Structured records for the 16 TMG faction / special rules cards (War Council `rules.csv`).

The table lives in `cards/data/faction_rules.json` (our own wording, no card prose): a
mapping from each rules-card id to a list of records. Every record has `type`, `scope`
(`army`: changes list building for the whole army; `card`: an in-game effect tied to the
card that links the rules card; `game`: an in-game effect for the whole game),
`rule_card` and `faction`. See docs/requirements.md for each type; the record types and
their wording are in `cards.requirements.rule_records`.

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

# The records' vocabulary and wording live with the other requirement records (rules
# cards keep them in `Card.requirements`); they are re-exported here for the table's users.
from cards.requirements import (
    FACTION_RULE_TYPES,
    FACTIONS,
    RULE_TYPES,
    SCOPES,
    FactionRulesError,
    describe_rule,
)

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


class UnknownRulesCard(LookupError):
    """A rules-card id that the faction rules table does not describe."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id
        super().__init__(
            f"rules card {card_id!r} is not described in {DATA_FILE.name}: "
            "add its records (see docs/requirements.md)"
        )


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
