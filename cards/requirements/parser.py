"""The parser of the War Council `Requirements` mini-language.

The community data (`data/warcouncil/{units,attachments,ncus}.csv`) carries a small
machine-readable language in its `Requirements` column: one directive per line, sometimes
two on one line (`Limited:2 Ignore:'X'`). `parse_requirements` turns one cell into a list
of record dicts (the value stored in `Card.requirements`). An unknown or malformed
directive raises `RequirementSyntaxError`: nothing is dropped silently.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cards.normalise import fold, slug_key

from .errors import RequirementSyntaxError
from .factions import FACTION_ALIASES, faction_slug
from .records import (
    ActsAsCommander,
    Adds,
    ControlledBy,
    Controls,
    CopyLimit,
    CopyLimitPer,
    CostReduction,
    FieldedByAbility,
    FirstFree,
    HostClass,
    HostFaction,
    IgnoresAttachmentLimit,
    MustAttachTo,
    NotWith,
    PetOf,
    Record,
    Requires,
    RulesCard,
    Solo,
)
from .refs import CardRef, NameRef, Ref, parse_ref

_ID = r"\d{5}"
_UNIT_TYPES: dict[str, str] = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "monster": "monster",
    "siege engine": "war_machine",
    "war machine": "war_machine",
}
_UNIT_TYPE_ALT = r"Infantry|Cavalry|Monster|Siege\s+Engine|War\s+Machine"
# Directive keywords that take no colon-argument (a quoted name may be followed by one).
_BARE_KEYWORDS = r"Solo|FakeCommander|BartardsBoy|BastardsBoy|Ignores\s+Limit|Fielded\s+by"
# A closing quote is one followed by: end of line, `, '` (next name), another directive
# (`Word:` or a bare keyword) or a unit type. Apostrophes inside names (`R'hllor`,
# `Varamyr's Eagle`, `Bastards' Girls`) are followed by none of these.
_CLOSE = (
    r"'(?=\s*$|\s*,\s*'|\s+[A-Za-z][A-Za-z ]*:"
    rf"|\s+(?:{_BARE_KEYWORDS})(?![\w])|\s+(?:{_UNIT_TYPE_ALT})(?![\w]))"
)
_QUOTED = rf"'[^\n]*?{_CLOSE}"
_QUOTED_LIST = rf"{_QUOTED}(?:\s*,\s*{_QUOTED})*"
_QUOTED_BODY = re.compile(rf"'(?P<body>[^\n]*?){_CLOSE}")
_END = r"(?=\s|$)"


def _quoted_refs(text: str) -> tuple[Ref, ...]:
    return tuple(parse_ref(m.group("body")) for m in _QUOTED_BODY.finditer(text))


def _refs(m: re.Match[str]) -> tuple[Ref, ...]:
    return _quoted_refs(m["refs"])


def _ref(m: re.Match[str]) -> Ref:
    return parse_ref(m["ref"][1:-1])


@dataclass(frozen=True)
class _Directive:
    keyword: str  # as named in error messages
    head: re.Pattern[str]  # the keyword alone: a match with bad arguments is "malformed"
    pattern: re.Pattern[str]  # the whole directive
    build: Callable[[re.Match[str], _Context], Record | None]


@dataclass
class _Context:
    requirement_text: str
    records: list[Record]
    line_no: int
    line: str
    card_id: str

    def error(self, message: str) -> RequirementSyntaxError:
        """An error naming this line (and the card, when known)."""
        return RequirementSyntaxError(
            message, line=self.line_no, text=self.line, card_id=self.card_id
        )


_Build = Callable[[re.Match[str], _Context], Record | None]


def _directive(keyword: str, head: str, body: str, build: _Build) -> _Directive:
    if not head.endswith(":"):
        head += r"(?!\w)"  # a bare keyword is a whole word: "SoloX" is not "Solo"
    return _Directive(
        keyword=keyword,
        head=re.compile(head, re.IGNORECASE),
        pattern=re.compile(head + body + _END, re.IGNORECASE),
        build=build,
    )


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_REDUCE_BY = re.compile(r"\breduce\b[^.]*?\bby (\d+|one|two|three|four|five)\b")
_FREE = re.compile(r"\bis free\b")
_FIRST_FREE = re.compile(r"\bfirst\b[^.]*?\bis free\b")


def _reduction_terms(requirement_text: str) -> dict[str, Any]:
    """amount / free / first_only for a cost reduction, read from the printed text."""
    text = fold(requirement_text)
    terms: dict[str, Any] = {"amount": 1, "free": False, "first_only": False}
    by = _REDUCE_BY.search(text)
    if by:
        raw = by.group(1)
        terms["amount"] = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    if _FREE.search(text):
        terms["free"] = True
        terms["first_only"] = bool(_FIRST_FREE.search(text))
    return terms


def _find_ref(text: str, ref: Ref) -> tuple[int, int] | None:
    """Span of a name ref inside folded prose (full "name, title" first, then name)."""
    if not isinstance(ref, NameRef):
        return None
    for needle in (f"{ref.name}, {ref.title}" if ref.title else None, ref.name):
        if needle:
            at = text.find(fold(needle))
            if at >= 0:
                return at, at + len(fold(needle))
    return None


_OR = re.compile(r"\bor\b")


def _requires_mode(refs: tuple[Ref, ...], requirement_text: str) -> str:
    """`any` when the printed text joins the required names with "or", else `all`."""
    if len(refs) < 2 or not requirement_text:
        return "all"
    text = fold(requirement_text)
    spans = [_find_ref(text, ref) for ref in refs]
    if any(span is None for span in spans):
        return "all"
    ordered = sorted(s for s in spans if s is not None)
    for (_, end), (start, _) in itertools.pairwise(ordered):
        if _OR.search(text[end:start]):
            return "any"
    return "all"


def _build_requires(m: re.Match[str], ctx: _Context) -> Record:
    refs = _refs(m)
    return Requires(refs=refs, mode=_requires_mode(refs, ctx.requirement_text))


def _build_ignore(m: re.Match[str], ctx: _Context) -> None:
    """`Ignore:'X'` extends the `Limited:N` just before it (same cell)."""
    if not ctx.records or not isinstance(ctx.records[-1], CopyLimit):
        raise ctx.error("directive 'Ignore' must follow a 'Limited:N' directive")
    limit = ctx.records[-1]
    ctx.records[-1] = dataclasses.replace(limit, ignore=limit.ignore + _refs(m))
    return None


def _build_host_faction(m: re.Match[str], ctx: _Context) -> Record:
    slug = faction_slug(m.group("faction").strip("'"))
    if slug is None:
        raise ctx.error(f"directive 'Faction' names an unknown faction {m.group('faction')!r}")
    return HostFaction(slug)


def _build_reduce(m: re.Match[str], ctx: _Context) -> Record:
    terms = _reduction_terms(ctx.requirement_text)
    if m.groupdict().get("id"):
        return CostReduction(when_attached_to=CardRef(m.group("id")), **terms)
    return CostReduction(when_present=_ref(m), **terms)


def _build_copy_limit_per(m: re.Match[str], ctx: _Context) -> Record:
    unit_type = _UNIT_TYPES[" ".join(m.group("unit_type").lower().split())]
    return CopyLimitPer(max_per=int(m["n"] or 1), per=_ref(m), unit_type=unit_type)


_FACTION_NAME_ALT = "|".join(
    sorted(
        (re.escape(name).replace(r"\ ", r"\s+") for name in FACTION_ALIASES),
        key=len,
        reverse=True,
    )
)

# The arguments directives take.
_ARG_REFS = rf"\s*(?P<refs>{_QUOTED_LIST})"
_ARG_REF = rf"\s*(?P<ref>{_QUOTED})"
_ARG_ID = rf"\s*(?P<id>{_ID})"
_ARG_IDS = rf"\s*(?P<ids>{_ID}(?:\s*,\s*{_ID})*)"
_ARG_COUNT = r"\s*(?P<n>\d+)"
_ARG_PER_UNIT = rf"\s*(?:(?P<n>\d+)\s+)?(?P<ref>{_QUOTED})\s+(?P<unit_type>{_UNIT_TYPE_ALT})"
_ARG_FACTION = rf"\s*(?P<faction>'[^'\n]+'|(?:{_FACTION_NAME_ALT})(?!\w)|[A-Za-z]+)"
_ARG_WORD = r"\s+(?P<ability>[A-Za-z][\w'-]*)"


# Order matters where one keyword is a prefix of another (Ignores Limit / Ignore,
# Limited 'X' Infantry / Limited N).
_DIRECTIVES: tuple[_Directive, ...] = (
    _directive("Requires", r"Requires\s*:", _ARG_REFS, _build_requires),
    _directive("Not", r"Not\s*:", _ARG_REFS, lambda m, ctx: NotWith(_refs(m))),
    _directive("Pet", r"Pet\s*:", _ARG_REF, lambda m, ctx: PetOf(_ref(m))),
    _directive("Rules", r"Rules\s*:", _ARG_ID, lambda m, ctx: RulesCard(m["id"])),
    _directive("Controls", r"Controls\s*:", _ARG_ID, lambda m, ctx: Controls(m["id"])),
    _directive(
        "Controlled",
        r"Controlled\s*:",
        _ARG_IDS,
        lambda m, ctx: ControlledBy(tuple(re.findall(_ID, m["ids"]))),
    ),
    _directive("Add", r"Add\s*:", _ARG_ID, lambda m, ctx: Adds(m["id"])),
    _directive("Limited", r"Limited\s*:", _ARG_PER_UNIT, _build_copy_limit_per),
    _directive("Limited", r"Limited\s*:", _ARG_COUNT, lambda m, ctx: CopyLimit(int(m["n"]))),
    _directive(
        "Ignores Limit",
        r"Ignores\s+Limit\s*:",
        _ARG_REF,
        lambda m, ctx: IgnoresAttachmentLimit(_ref(m)),
    ),
    _directive("Ignores Limit", r"Ignores\s+Limit", "", lambda m, ctx: IgnoresAttachmentLimit()),
    _directive("Ignore", r"Ignore\s*:", _ARG_REFS, _build_ignore),
    _directive("ReduceIfAttachedTo", r"ReduceIfAttachedTo\s*:", _ARG_ID, _build_reduce),
    _directive("ReduceIfPresent", r"ReduceIfPresent\s*:", _ARG_REF, _build_reduce),
    _directive("Solo", r"Solo", "", lambda m, ctx: Solo()),
    _directive(
        "Fielded by",
        r"Fielded\s+by",
        _ARG_WORD,
        lambda m, ctx: FieldedByAbility(slug_key(m["ability"])),
    ),
    _directive("Faction", r"Faction\s*:", _ARG_FACTION, _build_host_faction),
    _directive(
        "Attaches to", r"Attaches\s+to\s*:", _ARG_REFS, lambda m, ctx: MustAttachTo(_refs(m))
    ),
    _directive(
        "Attached to class",
        r"Attached\s+to\s+class\s*:",
        _ARG_REF,
        lambda m, ctx: HostClass(slug_key(m["ref"][1:-1])),
    ),
    _directive("FakeCommander", r"FakeCommander", "", lambda m, ctx: ActsAsCommander()),
    # Spelled "BartardsBoy" in the data; the corrected spelling is accepted too.
    _directive("BartardsBoy", r"Ba(?:rt|st)ardsBoy", "", lambda m, ctx: FirstFree("bastards-boys")),
)

_WORD_HEAD = re.compile(r"(?P<name>[^\s:']+(?:\s+[^\s:']+)*?)\s*:")


def _directive_name(rest: str) -> str:
    """What the unreadable text calls itself: the words before a colon, else the first word."""
    head = _WORD_HEAD.match(rest)
    if head and "'" not in head.group(0):
        return head.group("name")
    return rest.split()[0] if rest.split() else rest


def parse_directives(cell: str, *, requirement_text: str = "", card_id: str = "") -> list[Record]:
    """The record dataclasses for one `Requirements` cell (see `parse_requirements`)."""
    records: list[Record] = []
    if not cell or not cell.strip():
        return records
    for line_no, raw in enumerate(cell.splitlines(), start=1):
        line = raw.strip()
        ctx = _Context(requirement_text, records, line_no, line, card_id)
        pos = 0
        while pos < len(line):
            for directive in _DIRECTIVES:
                m = directive.pattern.match(line, pos)
                if m:
                    record = directive.build(m, ctx)
                    if record is not None:
                        records.append(record)
                    pos = m.end()
                    break
            else:
                rest = line[pos:]
                known = next((d for d in _DIRECTIVES if d.head.match(line, pos)), None)
                if known is not None:
                    message = f"malformed arguments for directive {known.keyword!r}"
                else:
                    message = f"unknown directive {_directive_name(rest)!r}"
                raise ctx.error(message)
            while pos < len(line) and line[pos].isspace():
                pos += 1
    return records


def parse_requirements(
    cell: str, *, requirement_text: str = "", card_id: str = ""
) -> list[dict[str, Any]]:
    """Parse one War Council `Requirements` cell into a list of record dicts.

    `requirement_text` is the card's printed `Requirement Text`: it decides whether a
    two-name `Requires:` needs both names or either ("or" between them), and gives the
    real amount of a `ReduceIf...` cost reduction. `card_id` only improves error messages.
    An empty cell gives `[]`; an unknown directive raises `RequirementSyntaxError`.
    """
    return [
        record.to_record()
        for record in parse_directives(cell, requirement_text=requirement_text, card_id=card_id)
    ]
