"""The names of the `citadel-cards/1` format that its reader and its writer share."""

from __future__ import annotations

FORMAT = "citadel-cards/1"

#: Card fields beyond the model columns, kept in `Card.extra` under their own name.
EXTRA_CARD_FIELDS: tuple[str, ...] = (
    "tactics",  # a commander's tactics-card ids
    "rules",  # rules-card ids printed on the card
    "removes",  # tactics card: every basic-deck card id it replaces
    "enemy",  # attachment joins an enemy unit
    "aliases",  # other printed names of the card (War Council spelling)
    "category",  # special card: faction / banners / poison / zone / tactics-board ...
)

#: Keys whose values are prose; a stats-only document carries none of them.
PROSE_KEYS = frozenset({"text", "trigger", "summary", "effect", "lore", "quote", "fluff"})
