"""A small card pool of both games written as the project's own card file (citadel-json) and
imported through the real importer, so that card versions are recorded as in production and
a test can re-import one card with changed stats (errata) and see what follows.

`import_cards()` loads the pool; `errata(card_id, **stats)` re-imports it with one card
changed (`points=7`, or `cost={"gold": 1, …}` for Tactics). `make_card(**fields)` makes one
card with the ORM instead, for tests that build their own few cards.
"""

from __future__ import annotations

import copy
from typing import Any

from django.test import TestCase

from cards.importers.citadel_json.reader import records_from_document
from cards.models import Card, CardAbility
from cards.query.text import build_search_text
from cards.services import ImportSummary, import_card_records


def make_card(**fields: Any) -> Card:
    """One card made with the ORM (`characters`, `abilities` in order), with the folded
    search text the importers write."""
    characters = fields.pop("characters", [])
    abilities = fields.pop("abilities", [])
    card = Card.objects.create(**fields)
    card.characters.set(characters)
    for position, ability in enumerate(abilities):
        CardAbility.objects.create(card=card, ability=ability, position=position)
    card.search_text = build_search_text(card)
    card.save(update_fields=["search_text"])
    return card


def _card(card_id: str, kind: str, faction: str, name: str, **fields: Any) -> dict:
    return {"id": card_id, "kind": kind, "faction": faction, "name": {"en": name}, **fields}


TMG_DOCUMENT: dict[str, Any] = {
    "format": "citadel-cards/1",
    "game": "tmg",
    "factions": [
        {"id": "stark", "name": {"en": "Stark", "fr": "Stark"}, "warcouncil_code": 2},
        {"id": "lannister", "name": {"en": "Lannister", "fr": "Lannister"}, "warcouncil_code": 3},
        {"id": "neutral", "name": {"en": "Neutral", "fr": "Neutre"}, "is_neutral": True},
    ],
    "cards": [
        _card(
            "10201",
            "unit",
            "stark",
            "Stark Sworn Swords",
            points=5,
            unit_type="infantry",
            tray="infantry",
        ),
        _card(
            "10203",
            "unit",
            "stark",
            "Stark Outriders",
            points=6,
            unit_type="cavalry",
            tray="cavalry",
        ),
        _card(
            "20201",
            "attachment",
            "stark",
            "Robb Stark",
            title={"en": "The Wolf Lord"},
            characters=["robb-stark"],
            commander=True,
            points=0,
            unit_type="infantry",
        ),
        _card(
            "20202",
            "attachment",
            "stark",
            "Robb Stark",
            title={"en": "The Young Wolf"},
            characters=["robb-stark"],
            points=2,
            unit_type="infantry",
        ),
        _card(
            "30201",
            "ncu",
            "stark",
            "Catelyn Stark",
            title={"en": "Lady of Winterfell"},
            characters=["catelyn-stark"],
            points=4,
        ),
        _card(
            "10301",
            "unit",
            "lannister",
            "Lannister Guardsmen",
            points=5,
            unit_type="infantry",
            tray="infantry",
        ),
        _card(
            "20301",
            "attachment",
            "lannister",
            "Jaime Lannister",
            title={"en": "The Kingslayer"},
            characters=["jaime-lannister"],
            commander=True,
            points=0,
            unit_type="infantry",
        ),
        _card(
            "10401",
            "unit",
            "neutral",
            "Sellswords",
            points=6,
            unit_type="infantry",
            tray="infantry",
        ),
        *(
            _card(f"4020{n}", "tactics", "stark", f"Stark Tactic {n}", commander_card="20201")
            for n in (1, 2, 3)
        ),
        *(_card(f"4021{n}", "tactics", "stark", f"Stark Basic Tactic {n}") for n in range(7)),
        *(
            _card(
                f"4030{n}", "tactics", "lannister", f"Lannister Tactic {n}", commander_card="20301"
            )
            for n in (1, 2, 3)
        ),
        *(
            _card(f"4031{n}", "tactics", "lannister", f"Lannister Basic Tactic {n}")
            for n in range(7)
        ),
    ],
}

TACTICS_DOCUMENT: dict[str, Any] = {
    "format": "citadel-cards/1",
    "game": "tactics",
    "factions": [{"id": "baratheon", "name": {"en": "Baratheon"}, "sigils": ["stag"]}],
    "cards": [
        _card(
            "tac-robert",
            "hero",
            "baratheon",
            "Robert Baratheon",
            character="robert-baratheon",
            cost={"gold": 2, "silver": 0, "copper": 0},
        ),
        _card(
            "tac-knight",
            "champion",
            "baratheon",
            "Baratheon Knight",
            cost={"gold": 0, "silver": 2, "copper": 0},
        ),
        _card(
            "tac-guardian",
            "soldier",
            "baratheon",
            "Baratheon Guardians",
            cost={"gold": 0, "silver": 0, "copper": 1},
        ),
        {
            "id": "tac-steel",
            "kind": "equipment",
            "faction": None,
            "name": {"en": "Valyrian Steel"},
            "cost": {"gold": 0, "silver": 0, "copper": 2},
            "carriers": ["hero", "champion"],
            "unique": True,
        },
    ],
    "scenarios": [
        {
            "id": "tac-small",
            "name": {"en": "Small (2-4-12)"},
            "budget": {"gold": 2, "silver": 4, "copper": 12},
        }
    ],
}


def _import(document: dict) -> ImportSummary:
    return import_card_records(
        records=records_from_document(document, file="test-cards.json"), source="citadel-json"
    )


def import_cards() -> None:
    """Both games' pools, imported as an admin would import card data."""
    _import(TMG_DOCUMENT)
    _import(TACTICS_DOCUMENT)


def errata(card_id: str, **stats: Any) -> ImportSummary:
    """Re-import the card data with one card changed (a new version of it is recorded).
    What the import does once committed (announcing the new versions) runs too, although a
    test's transaction never commits."""
    for document in (TMG_DOCUMENT, TACTICS_DOCUMENT):
        changed = copy.deepcopy(document)
        for card in changed["cards"]:
            if card["id"] == card_id:
                card.update(stats)
                with TestCase.captureOnCommitCallbacks(execute=True):
                    return _import(changed)
    raise KeyError(card_id)


STARK_LIST = """Faction: Stark
Points: 40
Commander: Robb Stark - The Wolf Lord
Combat Units:
• Stark Sworn Swords (5)
  • Robb Stark - The Wolf Lord (C)
• Stark Outriders (6)
Non-Combat Units:
• Catelyn Stark - Lady of Winterfell (4)
"""
