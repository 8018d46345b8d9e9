"""Rulesets are data: one JSON record per ruleset in armybuilder/tmg/rulesets/.

To add a ruleset (a new rules version or a tournament pack), drop a JSON file next to
rules-1.5.json with its own "id"; no code changes. Fields are documented in
docs/rulesets.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

RULESET_DIR = Path(__file__).resolve().parent / "rulesets"
DEFAULT_RULESET = "rules-1.5"


class UnknownRuleset(LookupError):
    pass


@dataclass(frozen=True)
class Ruleset:
    id: str
    name_en: str
    name_fr: str
    neutral_cap_percent: int = 50
    neutral_cap_basis: str = "game_size"  # or "points_spent"
    neutral_commander_counts_towards_cap: bool = False
    attachments_per_unit: int = 1
    sizes: tuple[tuple[str, int], ...] = (("quick", 30), ("standard", 40), ("grand", 50))
    team_size_per_player: int = 20
    deck_faction_cards: int = 7
    deck_commander_cards: int = 3
    deck_copies: int = 2
    rulebook: str = ""
    # The day the ruleset takes effect (None: always in force, the oldest).
    effective: date | None = None

    @classmethod
    def from_record(cls, record: dict) -> Ruleset:
        deck = record.get("tactics_deck", {})
        return cls(
            id=record["id"],
            name_en=record["name"]["en"],
            name_fr=record["name"].get("fr", record["name"]["en"]),
            neutral_cap_percent=record.get("neutral_cap_percent", 50),
            neutral_cap_basis=record.get("neutral_cap_basis", "game_size"),
            neutral_commander_counts_towards_cap=record.get(
                "neutral_commander_counts_towards_cap", False
            ),
            attachments_per_unit=record.get("attachments_per_unit", 1),
            sizes=tuple(record.get("sizes", {}).items()) or cls.sizes,
            team_size_per_player=record.get("team_size_per_player", 20),
            deck_faction_cards=deck.get("faction_cards", 7),
            deck_commander_cards=deck.get("commander_cards", 3),
            deck_copies=deck.get("copies", 2),
            rulebook=record.get("rulebook", ""),
            effective=date.fromisoformat(record["effective"]) if record.get("effective") else None,
        )


@cache
def all_rulesets() -> dict[str, Ruleset]:
    rulesets = {}
    for path in sorted(RULESET_DIR.glob("*.json")):
        ruleset = Ruleset.from_record(json.loads(path.read_text(encoding="utf-8")))
        rulesets[ruleset.id] = ruleset
    return rulesets


def get_ruleset(ruleset_id: str | None = None) -> Ruleset:
    try:
        return all_rulesets()[ruleset_id or DEFAULT_RULESET]
    except KeyError:
        known = ", ".join(sorted(all_rulesets()))
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def ruleset_in_force(on: date, rulesets: Iterable[Ruleset] | None = None) -> Ruleset:
    """The newest ruleset in force on a day (an event's default): the latest `effective`
    date not after it; the default ruleset when none has taken effect yet."""
    candidates = [
        r
        for r in (all_rulesets().values() if rulesets is None else rulesets)
        if r.effective is None or r.effective <= on
    ]
    if not candidates:
        return get_ruleset()
    return max(candidates, key=lambda r: (r.effective or date.min, r.id))
