"""The demo's example set (cards/data/tactics-example-set.json): invented figures,
equipment and scenarios with made-up costs, so that the Tactics builder can be tried at
once. It is a published set with no owner, marked `is_example` (every page that shows its
cards says so). Loading it again updates it in place."""

from __future__ import annotations

import json
from pathlib import Path

from django.db import transaction

from cards.models import CardSet, Faction, Game, SetVisibility

from .document import ImportResult, import_set_document
from .services import CardSetError, create_card_set

EXAMPLE_FILE = Path(__file__).resolve().parents[1] / "data" / "tactics-example-set.json"
EXAMPLE_SLUG = "example-set"


@transaction.atomic
def load_example_set(*, path: Path = EXAMPLE_FILE) -> tuple[CardSet, ImportResult]:
    document = json.loads(path.read_text(encoding="utf-8"))
    about = document.get("set") or {}
    factions = Faction.objects.filter(game=Game.TACTICS, slug__in=about.get("factions") or [])
    if not factions.exists():
        raise CardSetError("load the Tactics factions first (tactics-trident.json)")
    card_set = CardSet.objects.filter(slug=EXAMPLE_SLUG).first()
    if card_set is None:
        card_set = create_card_set(
            owner=None,
            name=about["name"],
            slug=EXAMPLE_SLUG,
            description=about.get("description", ""),
            licence_note=about.get("licence_note", ""),
            visibility=SetVisibility.PUBLISHED,
            factions=factions,
            is_example=True,
        )
    return card_set, import_set_document(card_set=card_set, document=document)
