"""`Card.search_text`: the folded names a free word of the query language is matched against.

One line per name (name, title, ability names, character names, EN and FR), folded with
`cards.normalise.fold`; a name with an apostrophe is also stored without it, so
`lannister's`, `lannister’s` and `lannisters` all find "Lannister's". Lines are separated
by newlines, so a "quoted phrase" never spans two names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cards.normalise import fold

if TYPE_CHECKING:
    from cards.models import Card


def text_key(text: str) -> str:
    """Folded text without apostrophes: how the query language compares names."""
    return fold(text).replace("'", "")


def search_text_from(parts: Iterable[str]) -> str:
    """The search text for these names (empty and repeated names are skipped)."""
    lines: list[str] = []
    for part in parts:
        folded = fold(part or "")
        for line in (folded, folded.replace("'", "")):
            if line and line not in lines:
                lines.append(line)
    return "\n".join(lines)


def build_search_text(card: Card) -> str:
    """The value of `card.search_text` for a saved card (reads its abilities and characters).

    The importer calls this after saving the card's abilities and characters.
    """
    parts = [card.name_en, card.name_fr, card.title_en, card.title_fr]
    for ability in card.abilities.all():
        parts += [ability.name_en, ability.name_fr]
    for character in card.characters.all():
        parts += [character.name_en, character.name_fr]
    return search_text_from(parts)
