"""The tactics deck an army brings (AB-15): the faction's basic cards and the commander's
cards, each in the ruleset's number of copies; a commander card that replaces a basic card
takes its place. The builder shows it; players never pick the cards."""

from __future__ import annotations

from dataclasses import dataclass

from .draft import ArmyContext, ArmyDraft
from .points import commander_entries


@dataclass(frozen=True)
class DeckCard:
    card_id: str
    name_en: str
    name_fr: str
    copies: int
    source: str  # "faction" or "commander"
    replaces: tuple[str, ...] = ()


def build_tactics_deck(draft: ArmyDraft, context: ArmyContext) -> tuple[DeckCard, ...]:
    copies = draft.ruleset.deck_copies
    commanders = commander_entries(draft)
    commander_ids = commanders[0].card.tactics if len(commanders) == 1 else ()
    replaced = {basic for card_id in commander_ids for basic in context.replaces.get(card_id, ())}

    def deck_card(card_id: str, source: str) -> DeckCard:
        card = context.tactics_cards.get(card_id)
        return DeckCard(
            card_id=card_id,
            name_en=card.name_en if card else card_id,
            name_fr=(card.name_fr or card.name_en) if card else card_id,
            copies=copies,
            source=source,
            replaces=tuple(context.replaces.get(card_id, ())),
        )

    basic = [deck_card(i, "faction") for i in context.basic_deck if i not in replaced]
    return (*basic, *(deck_card(i, "commander") for i in commander_ids))
