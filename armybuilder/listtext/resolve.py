"""Resolving card names typed by players (EN or FR, with or without title, small typos)."""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from cards.normalise import fold
from common.i18n import Message, _

# A typed name this close to a known one (difflib ratio) is read as that card.
TYPO_ACCEPT_RATIO = 0.88
SUGGESTION_CUTOFF = 0.6


class NamedCard(Protocol):
    # Read-only properties, so that frozen dataclasses match.
    @property
    def id(self) -> str: ...
    @property
    def name_en(self) -> str: ...
    @property
    def name_fr(self) -> str: ...
    @property
    def title_en(self) -> str: ...
    @property
    def title_fr(self) -> str: ...


CardT = TypeVar("CardT", bound=NamedCard)


def name_key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", fold(text)).strip()


@dataclass(frozen=True)
class Lookup(Generic[CardT]):
    card: CardT | None
    candidates: tuple[CardT, ...] = ()
    suggestions: tuple[str, ...] = ()
    corrected_from: str | None = None

    @property
    def ambiguous(self) -> bool:
        return self.card is None and len(self.candidates) > 1


class CardIndex(Generic[CardT]):
    """All cards of a pool by folded name and by folded "name title", in both languages."""

    def __init__(self, cards: Iterable[CardT]):
        self.cards: tuple[CardT, ...] = tuple(cards)
        self._full: dict[str, list[CardT]] = defaultdict(list)
        self._name: dict[str, list[CardT]] = defaultdict(list)
        self._display: dict[str, str] = {}
        for card in self.cards:
            for name, title in (
                (card.name_en, card.title_en),
                (card.name_fr or card.name_en, card.title_fr or card.title_en),
            ):
                if not name:
                    continue
                name_k = name_key(name)
                self._add(self._name, name_k, card)
                self._display.setdefault(name_k, f"{name} - {title}" if title else name)
                if title:
                    full_k = f"{name_k} {name_key(title)}"
                    self._add(self._full, full_k, card)
                    self._display[full_k] = f"{name} - {title}"
        self._all_keys = sorted({*self._full, *self._name})

    @staticmethod
    def _add(table: dict[str, list[CardT]], key: str, card: CardT) -> None:
        if card not in table[key]:
            table[key].append(card)

    def _by_partial_title(self, key: str) -> list[CardT]:
        """'Robert Baratheon Mounted' or 'Robb Stark Young Wolf': a name, then title words."""
        words = key.split()
        for cut in range(len(words) - 1, 0, -1):
            cards = self._name.get(" ".join(words[:cut]))
            if not cards:
                continue
            rest = set(words[cut:])
            matching = [
                card
                for card in cards
                if rest <= set(name_key(f"{card.title_en} {card.title_fr}").split())
            ]
            if matching:
                return matching
        return []

    def lookup(self, text: str, *, narrow: Callable[[list[CardT]], list[CardT]]) -> Lookup[CardT]:
        key = name_key(text)
        if not key:
            return Lookup(card=None)
        candidates = self._full.get(key) or self._name.get(key) or self._by_partial_title(key) or []
        corrected_from = None
        if not candidates:
            close = difflib.get_close_matches(key, self._all_keys, n=3, cutoff=SUGGESTION_CUTOFF)
            suggestions = tuple(self._display[k] for k in close)
            best = close[0] if close else None
            if best is None or difflib.SequenceMatcher(None, key, best).ratio() < TYPO_ACCEPT_RATIO:
                return Lookup(card=None, suggestions=suggestions)
            candidates = self._full.get(best) or self._name.get(best) or []
            corrected_from = text
        narrowed = narrow(list(candidates)) or list(candidates)
        if len(narrowed) == 1:
            return Lookup(
                card=narrowed[0], candidates=tuple(narrowed), corrected_from=corrected_from
            )
        return Lookup(card=None, candidates=tuple(narrowed))


def with_suggestions(message: Message, lookup: Lookup) -> Message:
    """`message` about a name no card has, followed by the closest names when there are."""
    if not lookup.suggestions:
        return message
    return _("{message} (closest: {names})", message=message, names="; ".join(lookup.suggestions))
