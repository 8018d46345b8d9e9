"""Citadel's table of construction abilities: `cards/data/construction_abilities.json`.

Every ability or printed restriction of the community card data whose wording touches army
construction has one entry here, in our own words (never card prose): either it is
handled (by records this table adds to the card, by the War Council directives, by a
printed tag, by a faction rules card or by a card flag), or it is documented as changing
nothing in a list (a game effect), or as not modelled, with the reason.

The importer adds an entry's `records` to each of its `cards` at import time, after
dropping the card's War Council records of the `supersedes` types (a War Council row that
describes an older printing). See docs/requirements.md, "Construction abilities".

Pure Python: the importer, the validator tests and the scan test share it.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from .errors import UnknownRecordType
from .records import RECORD_TYPES, record_from_dict

TABLE_PATH = Path(__file__).resolve().parent.parent / "data" / "construction_abilities.json"
FORMAT = "citadel-construction-abilities/1"

#: Class of an entry -> what it changes (the issue's list, plus the fielding conditions).
CLASSES: dict[str, str] = {
    "cost_self": "its own cost",
    "cost_other": "the cost of what it carries, of its carrier or of other cards",
    "attachment_limit": "extra or ignored attachment limits",
    "commander": "who may be the commander",
    "attach_to": "which unit it may or must join, or must carry",
    "counts_as": "counts as another character",
    "faction": "faction or neutral status",
    "copy_limit": "limited copies",
    "fielding": "fielded only with, never with, or only through another card",
    "loyalty": "loyalty tags",
    "in_game": "nothing in the list: a game effect that uses construction words",
}
#: Who handles an entry's effect. `None` (JSON null): not modelled, or nothing to model.
HANDLERS: frozenset[str | None] = frozenset(
    {
        "citadel",  # the `records` of the entry, added at import
        "war_council",  # the card's War Council directives (records of the `expects` types)
        "printed_tag",  # the loyalty tag parser (records of the `expects` types)
        "faction_rule",  # a faction rules card (`rule_card`), cards/data/faction_rules.json
        "card_flag",  # a card field the validator reads (`enemy`: joins an enemy unit)
        "characters",  # shared character keys: uniqueness keeps the cards `apart_from` out
        "superseded",  # text of an older printing; the entry named by `see` handles the card
        None,
    }
)
SOURCES = frozenset({"ability", "printed", "rules"})


class ConstructionTableError(ValueError):
    """The construction-abilities table is malformed: which entry and why."""


def validate_construction_table(table: dict[str, Any]) -> None:
    """Raise `ConstructionTableError` unless every entry is well formed."""
    if table.get("format") != FORMAT:
        raise ConstructionTableError(f"format must be {FORMAT!r}")
    seen: set[str] = set()
    for index, entry in enumerate(table.get("entries") or []):
        name = entry.get("id") or f"entries[{index}]"
        if name in seen:
            raise ConstructionTableError(f"{name}: id appears twice")
        seen.add(name)
        _check_entry(name, entry)
    for entry in table.get("entries") or []:
        if entry.get("see") and entry["see"] not in seen:
            raise ConstructionTableError(f"{entry['id']}: 'see' names unknown entry {entry['see']}")


def _check_entry(name: str, entry: dict[str, Any]) -> None:
    def fail(reason: str) -> None:
        raise ConstructionTableError(f"{name}: {reason}")

    if entry.get("source") not in SOURCES:
        fail(f"source must be one of {sorted(SOURCES)}")
    if entry.get("class") not in CLASSES:
        fail(f"unknown class {entry.get('class')!r}")
    if not isinstance(entry.get("affects_construction"), bool):
        fail("affects_construction must be true or false")
    handler = entry.get("handled_by")
    if handler not in HANDLERS:
        fail(f"unknown handled_by {handler!r}")
    if not (entry.get("note") or "").strip():
        fail("a note (our own words) is required")
    if entry["affects_construction"] != (entry["class"] != "in_game"):
        fail("in_game entries, and only they, have affects_construction false")
    if not entry["affects_construction"] and handler is not None:
        fail("an entry that changes nothing is handled by nobody (null)")
    ids = ("cards", "record_on", "rules_cards", "apart_from")
    for card in (card for key in ids for card in entry.get(key, ())):
        if not re.fullmatch(r"\d{5}", str(card)):
            fail(f"not a card id: {card!r}")
    records = entry.get("records") or []
    if (handler == "citadel") != bool(records):
        fail("records are given exactly when handled_by is 'citadel'")
    if records and not entry.get("cards"):
        fail("records need the cards they go to")
    for record in records:
        if record.get("type") not in RECORD_TYPES:
            fail(f"unknown record type {record.get('type')!r}")
        try:
            record_from_dict(record)
        except (KeyError, UnknownRecordType, ValueError, TypeError) as exc:
            fail(f"malformed {record.get('type')} record ({exc})")
    if handler in ("war_council", "printed_tag") and not entry.get("expects"):
        fail("say which record types the card carries (expects)")
    for kind in (*entry.get("expects", ()), *entry.get("supersedes", ())):
        if kind not in RECORD_TYPES:
            fail(f"unknown record type {kind!r}")
    if handler == "faction_rule" and not re.fullmatch(r"5\d{4}", str(entry.get("rule_card", ""))):
        fail("a faction_rule entry names its rules card (rule_card)")
    if handler == "characters" and not entry.get("apart_from"):
        fail("a characters entry names the cards it is kept apart from (apart_from)")
    if handler == "superseded" and not entry.get("see"):
        fail("a superseded entry names the entry that handles the card (see)")
    if entry.get("match"):
        try:
            re.compile(entry["match"])
        except re.error as exc:
            fail(f"match is not a regular expression ({exc})")
    if entry["source"] == "ability" and not entry.get("abilities"):
        fail("an ability entry lists its ability keys")
    if entry["source"] == "printed" and not (entry.get("cards") and entry.get("match")):
        fail("a printed entry lists its cards and a match pattern")
    if entry["source"] == "rules" and not entry.get("rules_cards"):
        fail("a rules entry lists its rules cards")


@cache
def _table() -> dict[str, Any]:
    table = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    validate_construction_table(table)
    return dict(table)


def load_construction_table() -> dict[str, Any]:
    """The validated table (a fresh copy on every call)."""
    return copy.deepcopy(_table())


@cache
def _by_card() -> dict[str, tuple[tuple[dict[str, Any], ...], frozenset[str]]]:
    records: dict[str, list[dict[str, Any]]] = {}
    dropped: dict[str, set[str]] = {}
    for entry in _table()["entries"]:
        for card in entry.get("cards", ()):
            records.setdefault(card, []).extend(entry.get("records") or ())
            dropped.setdefault(card, set()).update(entry.get("supersedes") or ())
    return {
        card: (tuple(records.get(card, ())), frozenset(dropped.get(card, ())))
        for card in set(records) | set(dropped)
    }


def apply_construction_records(card_id: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`records` (a card's parsed requirements) with the table's changes for `card_id`:
    War Council records of a superseded printing dropped, Citadel's records added once."""
    added, dropped = _by_card().get(str(card_id), ((), frozenset()))
    if not added and not dropped:
        return records
    kept = [record for record in records if record.get("type") not in dropped]
    for record in added:
        if record not in kept:
            kept.append(copy.deepcopy(record))
    return kept
