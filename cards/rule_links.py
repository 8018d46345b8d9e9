"""Where the rulebooks define what a card's abilities and text refer to: a hook for card pages.

The rules reference is a layer above the card database (rules imports cards, never the
reverse), so cards cannot look rules sections up itself. It declares what a card page
shows (`RuleLinks`) and lets the layer above supply the lookup: at start-up
`CardsConfig.ready` imports every installed app's `card_links` module (as Django's admin
finds `admin.py`), and `rules/card_links.py` calls `register_rule_linker`. Without a
linker (the rules app not installed) card pages link nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .models import Card


class RuleSection(Protocol):
    """What a card page needs of a defining section: its id, where it is and its heading."""

    section_id: int
    book_slug: str
    slug: str
    heading: str


@dataclass(frozen=True, slots=True)
class RuleLinks:
    """The sections defining a card's abilities and the game terms its text mentions."""

    abilities: dict[int, RuleSection]  # Ability id -> its defining section
    mentioned: tuple[tuple[str, RuleSection], ...]  # (term as written, section) from the text


NO_LINKS = RuleLinks(abilities={}, mentioned=())

#: linker(card, lang) -> the card's rule links in that card language ("en" or "fr").
RuleLinker = Callable[["Card", str], RuleLinks]

_linkers: list[RuleLinker] = []


def register_rule_linker(linker: RuleLinker) -> None:
    """Let `linker` supply card pages' rule links (the last one registered wins)."""
    _linkers.append(linker)


def rule_links(card: Card, *, lang: str) -> RuleLinks:
    """The card's rule links from the registered linker; none without one."""
    return _linkers[-1](card, lang) if _linkers else NO_LINKS
