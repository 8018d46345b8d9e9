"""The card query language (Scryfall-like): one grammar for the search box, the page URL and
`GET /api/v1/cards/?q=`. See docs/query-language.md.

    parse("faction:stark cost<=5 -kind:ncu sort:cost")  # -> Query
    search_cards("jaime or cersei", queryset=Card.objects.filter(game="tmg"))

`parse` is pure Python; `search_cards` imports the ORM lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ast import And, Field, Node, Not, Or, Query, Word
from .errors import QuerySyntaxError
from .parser import parse

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from cards.models import Card

__all__ = [
    "And",
    "Field",
    "Node",
    "Not",
    "Or",
    "Query",
    "QuerySyntaxError",
    "Word",
    "parse",
    "search_cards",
]


def search_cards(q: str, queryset: QuerySet[Card] | None = None) -> QuerySet[Card]:
    """Cards matching the query `q`, ordered by its `sort:`/`dir:` (default: faction, kind,
    name). An empty query returns every card of `queryset` (default: all cards).

    Raises `QuerySyntaxError` when `q` cannot be read.
    """
    from .compiler import apply_query

    return apply_query(parse(q or ""), queryset)
