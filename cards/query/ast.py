"""The parsed form of a query: small frozen dataclasses, no ORM.

Positions (`position`, `length`: where the node came from in the query text) are kept for
messages but left out of equality, so tests can compare trees written by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Word:
    """A free word or a "quoted phrase": matches names, titles, ability and character names."""

    text: str
    quoted: bool = False
    position: int = field(default=0, compare=False)
    length: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Field:
    """`name op value` with the canonical field name (see `fields.FIELDS`).

    `op` is one of = != < <= > >= for numeric fields and ":" for every other field; `value`
    is an int (numeric), a bool (`commander:`), a canonical choice (`kind:ncu`) or the text
    as typed (`faction:`, `name:`...).
    """

    name: str
    op: str
    value: str | int | bool
    position: int = field(default=0, compare=False)
    length: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Not:
    operand: Node
    position: int = field(default=0, compare=False)


@dataclass(frozen=True)
class And:
    operands: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    operands: tuple[Node, ...]


Node = Word | Field | Not | And | Or


@dataclass(frozen=True)
class Directive:
    """`sort:` or `dir:` while parsing; lifted into `Query.sort` / `Query.direction`."""

    name: str  # "sort" | "dir"
    value: str
    position: int = field(default=0, compare=False)
    length: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Query:
    """A whole query: the boolean filter (None = every card) and the requested order.

    `sort` is a key of `fields.SORT_KEYS` or None for the default order (faction, kind,
    name); `direction` is "asc" or "desc".
    """

    expr: Node | None = None
    sort: str | None = None
    direction: str = "asc"

    @property
    def is_empty(self) -> bool:
        return self.expr is None and self.sort is None and self.direction == "asc"
