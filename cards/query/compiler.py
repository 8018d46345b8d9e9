"""`Query` -> Django `Q` and `order_by` expressions for `Card`.

Portable across SQLite and PostgreSQL: only plain lookups (`exact`, `contains`, `lt`...,
`iexact`, `istartswith`, `iendswith`, `in`). Accent-insensitive matching of names is done
on folded text: free words against `Card.search_text`; faction, character and ability
names are folded in Python (small tables) and turned into id lists. Many-to-many filters
are `pk__in=<subquery>`, so no join duplicates rows and no `.distinct()` is needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import reduce
from operator import and_, or_

from django.db.models import Case, F, IntegerField, OrderBy, Q, QuerySet, Value, When

from cards.models import Ability, Card, CardAbility, CardKind, Character, Faction
from cards.normalise import fold, slug_key

from . import fields as f
from .ast import And, Field, Node, Not, Or, Query, Word
from .text import text_key

# The numeric columns are PositiveSmallIntegerFields. Django turns an out-of-range
# comparison into "match everything" (NULLs too) on PostgreSQL, so larger values are
# answered here.
_MAX_NUMBER = 32767
_NEUTRAL_WORDS = frozenset({"neutral", "neutrals", "neutre", "neutres"})
_LOOKUPS = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def apply_query(query: Query, queryset: QuerySet[Card] | None = None) -> QuerySet[Card]:
    cards = Card.objects.all() if queryset is None else queryset
    if query.expr is not None:
        cards = cards.filter(compile_expr(query.expr))
    return cards.order_by(*ordering(query.sort, query.direction))


def compile_expr(node: Node) -> Q:
    if isinstance(node, Word):
        return Q(search_text__contains=fold(node.text))
    if isinstance(node, Field):
        return _FIELDS[node.name](node)
    if isinstance(node, Not):
        return ~compile_expr(node.operand)
    if isinstance(node, And):
        return reduce(and_, (compile_expr(child) for child in node.operands))
    if isinstance(node, Or):
        return reduce(or_, (compile_expr(child) for child in node.operands))
    raise TypeError(f"not a query node: {node!r}")


# --- fields ------------------------------------------------------------------------------


def _number(node: Field) -> Q:
    column = f.NUMBER_COLUMNS[node.name]
    value = int(node.value)
    if value > _MAX_NUMBER:
        if node.op in ("<", "<=", "!="):
            return Q(**{f"{column}__isnull": False})
        return Q(pk__in=[])
    if node.op == "!=":  # comparisons never match NULL, so neither does !=
        return Q(**{f"{column}__lt": value}) | Q(**{f"{column}__gt": value})
    return Q(**{f"{column}__{_LOOKUPS[node.op]}": value})


def _column(column: str) -> Callable[[Field], Q]:
    return lambda node: Q(**{column: node.value})


def _is(node: Field) -> Q:
    if node.value == "neutral":
        return Q(faction_id__in=Faction.objects.filter(is_neutral=True).values("id"))
    column = {
        "character": "is_character",
        "commander": "is_commander",
        "unique": "is_unique",
        "mounted": "mounted",
    }[str(node.value)]
    return Q(**{column: True})


def _name_key(text: str) -> str:
    """Folded, apostrophe-free, with `-`, `_` and runs of spaces as one space."""
    return re.sub(r"[\s_\-]+", " ", text_key(text)).strip()


def _best_matches(value: str, rows: list[tuple[int, list[str]]]) -> list[int]:
    """Ids whose names equal the value; failing that, ids whose names contain it."""
    wanted = _name_key(value)
    if not wanted:
        return []
    exact = [pk for pk, names in rows if wanted in {_name_key(name) for name in names}]
    if exact:
        return exact
    return [pk for pk, names in rows if any(wanted in _name_key(name) for name in names)]


def _named_rows(model: type[Faction | Character], key: str) -> list[tuple[int, list[str]]]:
    """(id, [key, English name, French name]) of every row, for `_best_matches`."""
    rows = model.objects.values_list("id", key, "name_en", "name_fr")
    return [(pk, [row_key, name_en, name_fr]) for pk, row_key, name_en, name_fr in rows]


def _faction(node: Field) -> Q:
    value = str(node.value)
    rows = _named_rows(Faction, "slug")
    if _name_key(value) in _NEUTRAL_WORDS:
        neutral = Faction.objects.filter(is_neutral=True).values_list("id", flat=True)
        ids = set(neutral) | set(_best_matches(value, rows))
        return Q(faction_id__in=sorted(ids))
    return Q(faction_id__in=_best_matches(value, rows))


def _character(node: Field) -> Q:
    value = str(node.value)
    rows = _named_rows(Character, "key")
    exact_key = [pk for pk, names in rows if names[0] == slug_key(value)]
    ids = exact_key or _best_matches(value, rows)
    links = Card.characters.through.objects.filter(character_id__in=ids)
    return Q(pk__in=links.values("card_id"))


def _ability(node: Field) -> Q:
    wanted = text_key(str(node.value))
    ids = [
        pk
        for pk, name_en, name_fr in Ability.objects.values_list("id", "name_en", "name_fr")
        if wanted and (wanted in text_key(name_en) or wanted in text_key(name_fr))
    ]
    links = CardAbility.objects.filter(ability_id__in=ids)
    return Q(pk__in=links.values("card_id"))


def _card_names(*columns: str) -> Callable[[Field], Q]:
    """Substring of a name column (EN or FR), folded. `search_text` narrows the candidates."""

    def compile_names(node: Field) -> Q:
        value = str(node.value)
        wanted = text_key(value)
        candidates = Card.objects.filter(search_text__contains=fold(value))
        ids = [
            row[0]
            for row in candidates.values_list("id", *columns)
            if wanted and any(wanted in text_key(name) for name in row[1:])
        ]
        return Q(pk__in=ids)

    return compile_names


def _version(node: Field) -> Q:
    """Exact label, or a year/season part of one: `2021` and `s03` both match `2021-S03`."""
    value = str(node.value).strip()
    season = re.fullmatch(r"[sS](\d)", value)
    if season:  # s3 -> S03
        value = f"S0{season.group(1)}"
    return (
        Q(version__iexact=value)
        | Q(version__iendswith=f"-{value}")
        | Q(version__istartswith=f"{value}-")
    )


def _requires(node: Field) -> Q:
    """Cards with a requirement record of that type (`requires:solo`)."""
    wanted = f.choice_key(str(node.value))
    # Record types are snake_case, so the JSON text holds them verbatim: a cheap pre-filter.
    candidates = Card.objects.filter(requirements__icontains=wanted)
    ids = [
        pk
        for pk, records in candidates.values_list("id", "requirements")
        if isinstance(records, list)
        and any(
            isinstance(r, dict) and f.choice_key(str(r.get("type", ""))) == wanted for r in records
        )
    ]
    return Q(pk__in=ids)


_FIELDS: dict[str, Callable[[Field], Q]] = {
    **{name: _number for name in f.NUMBER_COLUMNS},
    "game": _column("game"),
    "kind": _column("kind"),
    "type": _column("unit_type"),
    "tray": _column("tray"),
    "commander": _column("is_commander"),
    "is": _is,
    "faction": _faction,
    "character": _character,
    "ability": _ability,
    "name": _card_names("name_en", "name_fr"),
    "title": _card_names("title_en", "title_fr"),
    "version": _version,
    "id": lambda node: Q(external_id=str(node.value).strip()),
    "requires": _requires,
    # A player's card set by its slug (who may see it is the caller's filter: the
    # card_sets selectors narrow every search to the sets the reader may see).
    "set": lambda node: Q(card_set__slug__iexact=str(node.value).strip()),
}


# --- order -------------------------------------------------------------------------------

_KIND_RANK = Case(
    *(When(kind=kind, then=Value(rank)) for rank, kind in enumerate(CardKind.values)),
    default=Value(len(CardKind.values)),
    output_field=IntegerField(),
)
_FACTION = [F("faction__sort_order"), F("faction__slug")]
_KIND = [_KIND_RANK]
_NAME = [F("name_en"), F("title_en")]
SORT_EXPRESSIONS = {
    **{key: [F(column)] for key, column in f.NUMBER_COLUMNS.items()},
    "name": _NAME,
    "faction": _FACTION,
    "kind": _KIND,
    "version": [F("version")],
}
DEFAULT_SORT = [*_FACTION, *_KIND, *_NAME]


# Sort keys that are never empty: ordered without NULLS LAST (simpler, faster SQL).
_NEVER_NULL = {id(_KIND_RANK), id(_NAME[0]), id(_NAME[1])}


def _order(expr, *, descending: bool = False) -> OrderBy:
    nulls_last = True if id(expr) not in _NEVER_NULL else None
    return expr.desc(nulls_last=nulls_last) if descending else expr.asc(nulls_last=nulls_last)


def ordering(sort: str | None = None, direction: str = "asc") -> list[OrderBy]:
    """`sort` key first (in `direction`, empty values last), then faction, kind, name, id."""
    primary = SORT_EXPRESSIONS[sort] if sort else DEFAULT_SORT
    descending = direction == "desc"
    keys = [_order(expr, descending=descending) for expr in primary]
    keys += [_order(expr) for expr in DEFAULT_SORT if expr not in primary]
    keys.append(F("pk").asc())
    return keys
