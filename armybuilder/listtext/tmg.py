"""Reading TMG army lists as players paste them (contracts §2), and writing the canonical form.

Reading never raises: text that is not a list at all comes back with no lines and a
problem; everything else is kept line by line for name resolution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.normalise import fold

HEADER_KEYS = {
    "faction": "faction",
    "army": "faction",
    "armee": "faction",
    "points": "points",
    "pts": "points",
    "size": "points",
    "taille": "points",
    "commander": "commander",
    "general": "commander",
    "commandant": "commander",
    "ruleset": "ruleset",
    "regles": "ruleset",
    "rules": "ruleset",
    "name": "name",
    "nom": "name",
    "game": "game",
    "jeu": "game",
}
SECTION_WORDS = {
    "combat units": "units",
    "combat unit": "units",
    "units": "units",
    "unites combattantes": "units",
    "unites": "units",
    "non-combat units": "ncus",
    "non combat units": "ncus",
    "ncus": "ncus",
    "ncu": "ncus",
    "unites non-combattantes": "ncus",
    "unites non combattantes": "ncus",
    "unc": "ncus",
    "ucn": "ncus",
    "attachments": "attachments",
    "attachements": "attachments",
}
IGNORED_PREFIXES = ("built on", "find list at", "created with", "made with", "cree avec", "http")

_BULLET = re.compile(r"^[\s]*(?:[•\-*–·>]+|\d+[.)](?=\s))?\s*")
_QUANTITY = re.compile(r"^(\d{1,2})\s*[x×]\s+|\s+[x×]\s*(\d{1,2})$", re.IGNORECASE)
_COST = re.compile(
    r"[\(\[]\s*(\d+|[CcGg])\s*(?:pts?|points?)?\s*[\)\]]|\b(\d+)\s*(?:pts?|points)\b"
)
_INLINE_SPLIT = re.compile(r"\s+(?:\+|w/|with|avec)\s+|\s*\+\s*", re.IGNORECASE)
_LEADING_WITH = re.compile(r"^(?:\+|w/|with|avec)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class ListLine:
    number: int
    name: str
    cost: str | None = None  # "5", "C" (commander), or None
    indent: int = 0
    section: str | None = None
    attached: bool = False  # an attachment by indentation, "with …" or inline "+"
    bulleted: bool = False
    inline_attachments: tuple[ListLine, ...] = ()

    @property
    def marks_commander(self) -> bool:
        return self.cost == "C"


@dataclass(frozen=True)
class ParsedTmgList:
    faction: str | None = None
    points: int | None = None
    commander: str | None = None
    ruleset: str | None = None
    name: str = ""
    game: str | None = None
    lines: tuple[ListLine, ...] = ()
    first_line: int = 0  # number of the first non-blank line of the text
    problems: tuple[str, ...] = field(default_factory=tuple)


def _split_cost(text: str) -> tuple[str, str | None]:
    cost = None
    for match in _COST.finditer(text):
        value = match.group(1) or match.group(2)
        cost = "C" if value.upper() in {"C", "G"} else str(int(value))
    cleaned = _COST.sub(" ", text)
    return re.sub(r"\s+", " ", cleaned).strip(" -–,:;"), cost


def _indent_of(raw: str) -> int:
    expanded = raw.replace("\t", "    ")
    return len(expanded) - len(expanded.lstrip())


def _header(line: str) -> tuple[str, str] | None:
    if ":" not in line:
        return None
    key, _, value = line.partition(":")
    key = fold(key).strip(" •-*")
    if key in HEADER_KEYS and value.strip():
        return HEADER_KEYS[key], value.strip()
    return None


def _section(line: str) -> str | None:
    key = fold(line).strip(" •-*:")
    key = re.sub(r"\s*\(\d+\)$", "", key)
    return SECTION_WORDS.get(key)


def _points_value(value: str) -> int | None:
    match = re.match(r"\s*(\d+)", value)
    return int(match.group(1)) if match else None


def parse_tmg_text(text: str) -> ParsedTmgList:
    headers: dict[str, str] = {}
    lines: list[ListLine] = []
    section: str | None = None
    problems: list[str] = []
    first_line = 0
    for number, raw in enumerate((text or "").splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        first_line = first_line or number
        if fold(stripped).startswith(IGNORED_PREFIXES):
            continue
        header = _header(stripped)
        if header and header[0] not in headers:
            headers[header[0]] = header[1]
            continue
        new_section = _section(stripped)
        if new_section:
            section = new_section
            continue
        indent = _indent_of(raw)
        body = _BULLET.sub("", raw, count=1).strip()
        bulleted = body != stripped
        quantity = 1
        quantity_match = _QUANTITY.search(body)
        if quantity_match:
            quantity = max(1, int(quantity_match.group(1) or quantity_match.group(2)))
            body = _QUANTITY.sub("", body).strip()
        attached = bool(_LEADING_WITH.match(body))
        body = _LEADING_WITH.sub("", body)
        parts = [p for p in _INLINE_SPLIT.split(body) if p.strip()]
        if not parts:
            continue
        name, cost = _split_cost(parts[0])
        inline = []
        for part in parts[1:]:
            inline_name, inline_cost = _split_cost(part)
            if inline_name:
                inline.append(ListLine(number, inline_name, inline_cost, indent + 2, section, True))
        if not name:
            continue
        line = ListLine(
            number=number,
            name=name,
            cost=cost,
            indent=indent,
            section=section,
            attached=attached,
            bulleted=bulleted,
            inline_attachments=tuple(inline),
        )
        lines.extend([line] * quantity)
    if not lines:
        problems.append("no card lines found")
    return ParsedTmgList(
        faction=headers.get("faction"),
        points=_points_value(headers["points"]) if "points" in headers else None,
        commander=headers.get("commander"),
        ruleset=headers.get("ruleset"),
        name=headers.get("name", ""),
        game=headers.get("game"),
        lines=tuple(lines),
        first_line=first_line,
        problems=tuple(problems),
    )
