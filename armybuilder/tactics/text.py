"""Reading and writing Tactics warbands as text.

Writing gives the canonical warband of contracts §2. Reading takes warbands the way
players write them (docs/tactics.md, "Reading a pasted warband"): section headings in
English or French or none at all; equipment in parentheses after its figure, on the next
line (indented, or starting with `with`/`avec`/`+`) or inline (`Figure + Equipment`);
costs in any printed form (`[3G 1S]`, `3-1-0`, `(3 or / 1 argent)`, `1C each`); copies
`x4`, `4x`, `4 ×`; headers, footers, prose, markdown, BBCode and emoji; a whole warband on
one line; two warbands in one message.

Every input line gets exactly one `LineReading` (blank ones included): read as cards
(each entry says how its card was chosen), as a header, section, legend, title or footer,
ignored as prose, or not read (`CARD_UNKNOWN`, `CARD_AMBIGUOUS`). Every assumption is a
warning: the faction inferred, a name corrected, a card chosen among several by a hint, a
printed cost that differs from the card's, lines ignored.

Pure: importable without Django.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from armybuilder.findings import Finding, Severity
from armybuilder.listtext.lines import RawLine, looks_like_prose, split_lines, words
from armybuilder.listtext.reading import LineKind, LineReading, reading_finding
from armybuilder.listtext.resolve import CardIndex, Lookup, name_key, with_suggestions
from common.i18n import Bilingual, Localizable, _, card_language, pgettext_lazy, pick

from .draft import FIGURE_KINDS, Coins, EquipmentEntry, FigureEntry, TacticsCard, WarbandDraft

# --- vocabulary (folded, accent-free keys) ------------------------------------------------


def _vocabulary(text: str) -> frozenset[str]:
    return frozenset(text.split())


SECTIONS = {
    "heroes": "hero",
    "hero": "hero",
    "heros": "hero",
    "champions": "champion",
    "champion": "champion",
    "soldiers": "soldier",
    "soldier": "soldier",
    "soldats": "soldier",
    "soldat": "soldier",
    "troops": "soldier",
    "troupes": "soldier",
    "equipment": "equipment",
    "equipments": "equipment",
    "equipement": "equipment",
    "equipements": "equipment",
    "items": "equipment",
    "objets": "equipment",
    "gear": "equipment",
}
# Headings over figures of any kind: the role comes from each card.
GENERIC_SECTIONS = _vocabulary("figures figurines warband bande roster recruits recrues models")
HEADERS = {
    "game": "game",
    "jeu": "game",
    "scenario": "scenario",
    "size": "scenario",
    "game size": "scenario",
    "taille": "scenario",
    "taille de partie": "scenario",
    "taille de la partie": "scenario",
    "format": "scenario",
    "budget": "scenario",
    "faction": "faction",
    "house": "faction",
    "maison": "faction",
    "name": "name",
    "nom": "name",
    "warband name": "name",
    "nom de la bande": "name",
    "list name": "name",
    "title": "name",
    "titre": "name",
}
# `Key: value` lines about the player or the event: kept as the list's title lines.
TITLE_KEYS = _vocabulary(
    "player joueur joueuse author auteur event evenement tournament tournoi date round ronde club"
)
# `Key: value` lines that repeat a total: footers.
FOOTER_KEYS = _vocabulary(
    "total spent depense depenses cost cout coins pieces figures figurines models "
    "remaining reste restant left activations"
)
SIZE_WORDS = {
    "small": Coins(2, 4, 12),
    "petite": Coins(2, 4, 12),
    "standard": Coins(3, 6, 18),
    "large": Coins(4, 8, 24),
    "grande": Coins(4, 8, 24),
}
_ROLE_WORDS = {
    **{word: kind for word, kind in SECTIONS.items() if kind != "equipment"},
    "heroe": "hero",
    "figure": "figure",
    "figurine": "figure",
}
_GAME_WORDS = _vocabulary(
    "a song of ice and fire asoiaf tactics tactic tactique tactiques game jeu le "
    "chant de la glace et du feu"
)
_LEGEND_WORDS = _vocabulary(
    "figure figures figurine figurines model models hero heroes heros champion "
    "champions soldier soldiers soldat soldats unit units equipment equipments "
    "equipement equipements item items objet objets gear cost costs cout couts coins "
    "pieces price prix name nom with avec x copies number nombre qty quantity "
    "quantite carrier porteur each chacun"
)

# --- printed costs and copies ----------------------------------------------------------------

_UNIT = (
    r"(?:(?P<gold>gold|golds|or|pi[eè]ces?\s+d'or)"
    r"|(?P<silver>silver|silvers|argents?|pi[eè]ces?\s+d'argent)"
    r"|(?P<copper>coppers?|cuivres?|pi[eè]ces?\s+de\s+cuivre)"
    r"|(?P<g>g|po)|(?P<s>s|ag)|(?P<c>c|cu))"
)
_PLAIN_UNIT = re.sub(r"\?P<\w+>", "?:", _UNIT)
_TOKEN = re.compile(r"(?P<n>\d{1,2})\s*" + _UNIT + r"(?![^\W\d_])", re.IGNORECASE)
_EACH = r"(?:\s*(?:each|ea\.?|apiece|chacun|chacune|chaque|l'unit[eé]|/\s*(?:u|fig|model)\b))"
_SEP = r"(?:\s*(?:[/,+&-]|and|et)?\s*)"
_RUN = re.compile(
    r"(?<![\w-])(?:\d{1,2}\s*" + _PLAIN_UNIT + r"(?![^\W\d_]))"
    r"(?:" + _SEP + r"\d{1,2}\s*" + _PLAIN_UNIT + r"(?![^\W\d_]))*"
    r"(?P<each>" + _EACH + r")?",
    re.IGNORECASE,
)
_TRIPLE = re.compile(
    r"(?<![\w-])(\d{1,2})\s*[-/]\s*(\d{1,2})\s*[-/]\s*(\d{1,2})(?![\w-])(?P<each>" + _EACH + ")?",
    re.IGNORECASE,
)
_BARE = re.compile(r"^\s*(\d{1,2})\s*(?:pts?|points?)?(?P<each>" + _EACH + r")?\s*$", re.IGNORECASE)
_COPIES_GROUP = re.compile(r"^\s*(?:[x×]\s*(\d{1,2})|(\d{1,2})\s*[x×])\s*$", re.IGNORECASE)
_COPIES = re.compile(
    r"(?:(?<=\s)|^)(?:[x×]\s*(\d{1,2})|(\d{1,2})\s*[x×])(?=\s|$)|^(\d{1,2})\s+(?=[^\W\d_])",
    re.IGNORECASE,
)
_BUDGET = re.compile(r"(\d+)\s*[-/]\s*(\d+)\s*[-/]\s*(\d+)")
_MAX_COPIES = 30


@dataclass(frozen=True)
class PrintedCost:
    """A cost as printed beside a card: `coins` when its coin types are written, else only
    `number` (a bare `(2)`); `each` when it is said to be per copy."""

    text: str
    coins: Coins | None = None
    number: int | None = None
    each: bool = False


def _coins_of_run(text: str) -> Coins:
    gold = silver = copper = 0
    for token in _TOKEN.finditer(text):
        n = int(token.group("n"))
        if token.group("gold") or token.group("g"):
            gold += n
        elif token.group("silver") or token.group("s"):
            silver += n
        else:
            copper += n
    return Coins(gold, silver, copper)


def _cost_at(text: str, match: re.Match[str], triple: bool) -> PrintedCost:
    printed = " ".join(match.group(0).split())
    each = bool(match.group("each"))
    if triple:
        return PrintedCost(printed, Coins(*(int(match.group(i)) for i in (1, 2, 3))), each=each)
    return PrintedCost(printed, _coins_of_run(match.group(0)), each=each)


def find_cost(text: str) -> tuple[tuple[int, int], PrintedCost] | None:
    """The first printed cost in `text` (its span and value), or None."""
    found = []
    for pattern, triple in ((_TRIPLE, True), (_RUN, False)):
        match = pattern.search(text)
        if match:
            found.append((match.span(), _cost_at(text, match, triple)))
    return min(found, key=lambda item: item[0][0]) if found else None


def parse_cost(text: str) -> PrintedCost | None:
    """`text` read as nothing but a cost (`3G 1S`, `3-1-0`, `3 or / 1 argent`, `2`), or None."""
    stripped = text.strip()
    bare = _BARE.match(stripped)
    if bare:
        return PrintedCost(stripped, number=int(bare.group(1)), each=bool(bare.group("each")))
    for pattern, triple in ((_TRIPLE, True), (_RUN, False)):
        match = pattern.fullmatch(stripped)
        if match:
            return _cost_at(stripped, match, triple)
    return None


def cost_text(cost: Coins) -> str:
    """`3G 1S` (the coins a card costs, as the canonical text prints them)."""
    return cost_label(cost)[1:-1]


def _cost_matches(card: TacticsCard, printed: PrintedCost, copies: int) -> bool | None:
    """Whether the printed cost is the card's (per copy, or for all copies); None when
    one of them is unknown."""
    if card.cost is None:
        return None
    if printed.coins is not None:
        if card.cost == printed.coins:
            return True
        if copies > 1 and not printed.each:
            return Coins(*(n * copies for n in card.cost.as_dict().values())) == printed.coins
        return False
    values = [n for n in card.cost.as_dict().values() if n]
    if printed.number is None or len(values) != 1:
        return None
    return printed.number in {values[0], values[0] * copies}


# --- the shape of a line ----------------------------------------------------------------------

_OPEN, _CLOSE = "([{", ")]}"
_WITH = re.compile(r"\s*\+\s*|\s+(?:with|avec)\s+|\s+w/\s*|\s+&\s+", re.IGNORECASE)
_SEGMENTS = re.compile(r"\s*[;|•·]\s*")
_LIST_SPLIT = re.compile(r"\s*,\s*|\s+(?:and|et)\s+", re.IGNORECASE)
_INNER_SPLIT = re.compile(r"\s*[,;/]\s*|\s+(?:and|et|&)\s+", re.IGNORECASE)
_ON = re.compile(r"\s+(?:on|sur|for|pour|to|à|a)\s+|\s*(?:->|→|=>)\s*", re.IGNORECASE)
_ATTACHED = re.compile(r"^(?:with|avec|w/|\+|&)\s*", re.IGNORECASE)
_EDGES = re.compile(r"^[\s\-–—:=,.;/*]+|[\s\-–—:=,;/*]+$")
_FOOTER = re.compile(
    r"https?://|www\.|^(?:made|created|built|generated|exported|shared|find|found)\s+"
    r"(?:with|by|on|in|using|from|at|list)\b|^(?:fait|faite|cree|creee|genere|generee|"
    r"exporte|exportee|realise|realisee)e?s?\s+(?:avec|par|sur|depuis|via)\b",
    re.IGNORECASE,
)
_NUMBERED_LIST = re.compile(r"^(?:list|liste|warband|bande)\s*#?\s*\d+$")


def _depths(text: str) -> list[int]:
    depth, depths = 0, []
    for char in text:
        if char in _OPEN:
            depth += 1
        depths.append(depth)
        if char in _CLOSE:
            depth = max(0, depth - 1)
    return depths


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """`text` cut at each `separator` outside brackets."""
    depths = _depths(text)
    parts, start = [], 0
    for match in separator.finditer(text):
        if match.start() < start or depths[match.start()] or match.end() == match.start():
            continue
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return parts


def _groups(text: str) -> list[tuple[int, int, str]]:
    """Top-level bracketed groups: (start, end, inside)."""
    groups, depth, start = [], 0, 0
    for position, char in enumerate(text):
        if char in _OPEN:
            if depth == 0:
                start = position
            depth += 1
        elif char in _CLOSE and depth:
            depth -= 1
            if depth == 0:
                groups.append((start, position + 1, text[start + 1 : position]))
    return groups


@dataclass(frozen=True)
class Piece:
    """One name written on a card line, with what was written around it: copies, a cost,
    a role word (`(Champion)`), bracketed names (equipment, a title, or the holder of an
    item) and the names written `with` it (`+ Valyrian Steel`)."""

    text: str
    name: str
    copies: int = 1
    cost: PrintedCost | None = None
    role: str | None = None
    inner: tuple[Piece, ...] = ()
    with_: tuple[Piece, ...] = ()


def parse_piece(text: str) -> Piece:
    text = text.strip()
    rest, copies, cost, role = text, 1, None, None
    inner: list[Piece] = []
    for start, end, inside in reversed(_groups(text)):
        rest = rest[:start] + " " + rest[end:]
        group_copies = _COPIES_GROUP.match(inside)
        printed = parse_cost(inside)
        role_key = name_key(inside)
        if group_copies:
            copies = int(group_copies.group(1) or group_copies.group(2))
        elif printed is not None:
            cost = cost or printed
        elif role_key in _ROLE_WORDS:
            role = _ROLE_WORDS[role_key]
        elif role_key:
            parts = [p for p in _split_top(inside, _INNER_SPLIT) if name_key(p)]
            inner[:0] = [parse_piece(part) for part in parts]
    found = find_cost(rest)
    if found:
        (start, end), printed = found
        cost = cost or printed
        rest = rest[:start] + " " + rest[end:]
    match = _COPIES.search(rest)
    if match:
        copies = int(match.group(1) or match.group(2) or match.group(3))
        rest = rest[: match.start()] + " " + rest[match.end() :]
    name = _EDGES.sub("", " ".join(rest.split()))
    return Piece(
        text=text.strip(),
        name=name,
        copies=max(1, min(copies, _MAX_COPIES)),
        cost=cost,
        role=role,
        inner=tuple(inner),
    )


def parse_segment(text: str) -> Piece:
    """A figure and what is written with it (`Figure + Item`, `Figure with Item`)."""
    pieces = [parse_piece(part) for part in _split_top(text, _WITH) if part.strip()]
    merged: list[Piece] = []
    for piece in pieces:
        if merged and not name_key(piece.name) and not piece.inner:
            # "3G + 1S": a cost cut in two by the "+".
            last = merged[-1]
            merged[-1] = replace(last, cost=last.cost or piece.cost)
            continue
        merged.append(piece)
    if not merged:
        return Piece(text=text.strip(), name="")
    return replace(merged[0], with_=tuple(merged[1:]))


@dataclass(frozen=True)
class Segment:
    """A part of a card line read as one figure (or item) and what comes with it. `text`
    is kept so that a line that reads as no card can be cut at its commas."""

    text: str
    piece: Piece
    section: str | None = None
    section_label: str = ""


@dataclass(frozen=True)
class WarbandLine:
    """One input line, as its shape reads it (before names are resolved). `kind` is final
    for every line but card lines, which may still turn out unknown, ambiguous, a title or
    prose. `section` is the heading the line sits under; `attached`: it starts with
    `with`/`avec`/`+`; `key`: the header it sets."""

    number: int
    text: str
    kind: LineKind
    body: str = ""
    section: str | None = None
    section_label: str = ""
    indent: int = 0
    bulleted: bool = False
    heading: bool = False
    attached: bool = False
    segments: tuple[Segment, ...] = ()
    key: str | None = None
    note: Localizable | None = None

    @property
    def name(self) -> str:
        return self.segments[0].piece.name if self.segments else ""

    @property
    def copies(self) -> int:
        return self.segments[0].piece.copies if self.segments else 1

    @property
    def marked(self) -> bool:
        """A bullet, a cost or copies: a list line, whatever its words."""
        return self.bulleted or any(
            s.piece.cost is not None or s.piece.copies > 1 for s in self.segments
        )


@dataclass(frozen=True)
class ParsedWarband:
    game: str | None = None
    scenario: str | None = None
    faction: str | None = None
    name: str = ""
    lines: tuple[WarbandLine, ...] = ()
    header_lines: Mapping[str, int] = field(default_factory=dict)
    second_from: int | None = None  # first line of a second warband in the message

    @property
    def card_lines(self) -> tuple[WarbandLine, ...]:
        return tuple(line for line in self.lines if line.kind is LineKind.CARD)


# --- line notes -------------------------------------------------------------------------------


def _section_note(kind: str | None) -> Localizable:
    if kind == "hero":
        return pgettext_lazy("tactics reading", "a heading: heroes follow")
    if kind == "champion":
        return pgettext_lazy("tactics reading", "a heading: champions follow")
    if kind == "soldier":
        return pgettext_lazy("tactics reading", "a heading: soldiers follow")
    if kind == "equipment":
        return pgettext_lazy("tactics reading", "a heading: equipment follows")
    return pgettext_lazy("tactics reading", "a heading: each figure's card gives its role")


def _header_note(what: str, value: str) -> Localizable:
    if what == "game":
        return pgettext_lazy("tactics reading", "the game: {value}", value=value)
    if what == "faction":
        return pgettext_lazy("tactics reading", "the faction: {value}", value=value)
    if what == "scenario":
        return pgettext_lazy("tactics reading", "the scenario or game size: {value}", value=value)
    return pgettext_lazy("tactics reading", "the warband's name: {value}", value=value)


def _second_note(start: int) -> Localizable:
    return pgettext_lazy(
        "tactics reading", "part of a second warband (from line {line}), not checked", line=start
    )


# --- reading the shape of each line ----------------------------------------------------------


def _section_of(text: str) -> tuple[bool, str | None]:
    """(is a section heading, its kind) for a heading such as `Heroes (2)`, `Soldats :`,
    `Champions [2S]`."""
    rest = text
    for start, end, _inside in reversed(_groups(text)):
        rest = rest[:start] + " " + rest[end:]
    found = find_cost(rest)
    if found:
        (start, end), _cost = found
        rest = rest[:start] + " " + rest[end:]
    key = re.sub(r"\d+", " ", name_key(rest)).strip()
    key = " ".join(key.split())
    if key in SECTIONS:
        return True, SECTIONS[key]
    return key in GENERIC_SECTIONS, None


def _is_legend(body: str) -> bool:
    found = [w.casefold() for w in words(name_key(body))]
    return (
        len(found) >= 2
        and all(w in _LEGEND_WORDS for w in found)
        and bool(re.search(r"[(\[+]|\bwith\b|\bavec\b", body, re.IGNORECASE))
    )


def _is_game_line(body: str) -> bool:
    found = name_key(body).split()
    return any(w.startswith("tacti") for w in found) and all(w in _GAME_WORDS for w in found)


def _numeric(value: str) -> bool:
    """A value of numbers and coins only (a total), not names."""
    rest = _RUN.sub(" ", _TRIPLE.sub(" ", value))
    return not re.search(r"[^\W\d_]{3,}", rest)


def _segments(body: str, section: str | None, label: str) -> tuple[Segment, ...]:
    segments = []
    for part in _split_top(body, _SEGMENTS):
        if not part.strip():
            continue
        key, colon, value = part.partition(":")
        is_section, kind = _section_of(key) if colon else (False, None)
        if is_section and value.strip():
            section, label, part = kind, key.strip(), value
        segments.append(Segment(part.strip(), parse_segment(part), section, label))
    return tuple(segments)


def _is_prose(raw: RawLine, segments: tuple[Segment, ...]) -> bool:
    marked = raw.bulleted or any(s.piece.cost is not None or s.piece.copies > 1 for s in segments)
    if not looks_like_prose(raw.body, marked=marked):
        return False
    # "Robert Baratheon, Lyn Corbray, Stag Knight, …": a whole warband on one line.
    parts = [p for p in _split_top(raw.body, re.compile(r"[,;|•·]")) if p.strip()]
    return not (len(parts) >= 3 and all(len(p.split()) <= 6 for p in parts))


def parse_warband_text(text: str) -> ParsedWarband:
    """Every line of `text`, shaped: headers, headings, footers, prose, and the card lines
    still to be resolved. Never raises."""
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    out: list[WarbandLine] = []
    section: str | None = None
    label = ""
    seen_card = False
    second_from: int | None = None

    def start_second(at: int) -> None:
        nonlocal second_from
        start = at
        while out and start - 1 >= 1:
            before = out[start - 2]
            if before.kind in (LineKind.BLANK, LineKind.TITLE) or before.heading:
                start -= 1
                continue
            break
        second_from = start
        for position in range(start - 1, len(out)):
            if out[position].kind is not LineKind.BLANK:
                out[position] = replace(
                    out[position], kind=LineKind.OTHER_LIST, note=_second_note(start), segments=()
                )

    for raw in split_lines(text):
        base = WarbandLine(
            number=raw.number,
            text=raw.text,
            kind=LineKind.CARD,
            body=raw.body,
            section=section,
            section_label=label,
            indent=raw.indent,
            bulleted=raw.bulleted,
            heading=raw.heading,
        )
        body = raw.body
        note: Localizable | None
        if not re.search(r"[^\W_]", body):
            note = pgettext_lazy("tactics reading", "no words: a separator") if body else None
            out.append(replace(base, kind=LineKind.BLANK, note=note))
            continue
        if second_from is not None:
            out.append(replace(base, kind=LineKind.OTHER_LIST, note=_second_note(second_from)))
            continue
        if _FOOTER.search(body):
            note = pgettext_lazy("tactics reading", "a link or the app the list was made with")
            out.append(replace(base, kind=LineKind.FOOTER, note=note))
            continue
        key_text, colon, value = body.partition(":")
        key, value = name_key(key_text), value.strip()
        if colon and key in HEADERS:
            what = HEADERS[key]
            if not value:
                note = pgettext_lazy("tactics reading", "a header with no value")
                out.append(replace(base, kind=LineKind.HEADER, key=what, note=note))
                continue
            if what in headers and seen_card and what in ("game", "faction", "scenario"):
                start_second(raw.number)
                note = _second_note(second_from or 0)
                out.append(replace(base, kind=LineKind.OTHER_LIST, note=note))
                continue
            if what in headers:
                note = pgettext_lazy(
                    "tactics reading",
                    "repeats the header of line {line}, which is kept",
                    line=header_lines[what],
                )
            else:
                headers[what], header_lines[what] = value, raw.number
                note = _header_note(what, value)
            out.append(replace(base, kind=LineKind.HEADER, key=what, note=note))
            continue
        if colon and value and key in TITLE_KEYS:
            note = pgettext_lazy("tactics reading", "about the player or the event")
            out.append(replace(base, kind=LineKind.TITLE, note=note))
            continue
        if colon and value and key in FOOTER_KEYS and _numeric(value):
            note = pgettext_lazy("tactics reading", "a total repeated from the list")
            out.append(replace(base, kind=LineKind.FOOTER, note=note))
            continue
        is_section, kind = _section_of(key_text if colon and not value else body)
        if is_section and (not colon or not value):
            section, label = kind, _EDGES.sub("", key_text if colon else body)
            base = replace(base, section=section, section_label=label)
            out.append(replace(base, kind=LineKind.SECTION, note=_section_note(kind)))
            continue
        if _is_legend(body):
            note = pgettext_lazy("tactics reading", "explains how the list is written")
            out.append(replace(base, kind=LineKind.LEGEND, note=note))
            continue
        if _is_game_line(body):
            if "game" not in headers:
                headers["game"], header_lines["game"] = body, raw.number
            note = _header_note("game", body)
            out.append(replace(base, kind=LineKind.HEADER, key="game", note=note))
            continue
        markdown_heading = raw.text.lstrip().startswith("#")
        if seen_card and (
            (markdown_heading and not is_section) or _NUMBERED_LIST.match(name_key(body))
        ):
            start_second(raw.number)
            out.append(replace(base, kind=LineKind.OTHER_LIST, note=_second_note(second_from or 0)))
            continue
        attached = bool(_ATTACHED.match(body))
        card_text = _ATTACHED.sub("", body, count=1) if attached else body
        segments = _segments(card_text, section, label)
        if not segments:
            out.append(replace(base, kind=LineKind.BLANK))
            continue
        if not attached and _is_prose(raw, segments):
            note = pgettext_lazy("tactics reading", "a sentence about the warband, ignored")
            out.append(replace(base, kind=LineKind.PROSE, note=note))
            continue
        # A first unmarked line may be the warband's title: it does not end a warband.
        seen_card = seen_card or raw.bulleted or any(o.kind is not LineKind.BLANK for o in out)
        out.append(replace(base, kind=LineKind.CARD, attached=attached, segments=segments))
        # "Heroes: Robert" and "…; Soldiers: 4x Guardians": the heading holds for what follows.
        section, label = segments[-1].section, segments[-1].section_label
    return ParsedWarband(
        game=headers.get("game"),
        scenario=headers.get("scenario"),
        faction=headers.get("faction"),
        name=headers.get("name", ""),
        lines=tuple(out),
        header_lines=header_lines,
        second_from=second_from,
    )


# --- resolving names --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Joined:
    """Localizable parts said one after the other, comma-separated."""

    parts: tuple[Localizable, ...]

    def in_language(self, lang: str | None) -> str:
        return ", ".join(part.in_language(lang) for part in self.parts)


def _labels(cards: Sequence[TacticsCard]) -> Bilingual:
    return Bilingual.of(lambda lang: "; ".join(card.label(lang) for card in cards))


@dataclass(frozen=True)
class Choice:
    """What a name resolved to: the card (None: unknown or ambiguous), the cards the name
    matched before any hint (`initial`), and the hints that narrowed them (`applied`)."""

    typed: str
    lookup: Lookup[TacticsCard]
    initial: tuple[TacticsCard, ...] = ()
    applied: tuple[Localizable, ...] = ()
    matched: str | None = None  # how the name matched (`resolve.How`): name, typo, nickname…

    @property
    def loose(self) -> bool:
        """Read by a typo, a nickname, a first name or a title alone: an assumption."""
        return self.card is not None and (
            bool(self.lookup.corrected_from) or self.matched in _LOOSE_MATCHES
        )

    @property
    def card(self) -> TacticsCard | None:
        return self.lookup.card


# `resolve.How` values that read a name the card does not print.
_LOOSE_MATCHES = frozenset({"nickname", "first_name", "title"})


def _match_note(matched: str | None) -> Localizable:
    if matched == "nickname":
        return pgettext_lazy("tactics reading", "a nickname of the card")
    if matched == "first_name":
        return pgettext_lazy("tactics reading", "the character's first name")
    if matched == "title":
        return pgettext_lazy("tactics reading", "the card's title alone")
    if matched == "core":
        return pgettext_lazy("tactics reading", "the card's name, give or take a word or a plural")
    return pgettext_lazy("tactics reading", "the card's name and words of its title")


@dataclass(frozen=True)
class _Item:
    """One card read from a line. `holder`: where its carrier is ("above": the figure of
    the line above; an int: the item of the same line; None: none written); `holder_name`:
    a carrier named beside an item (`Valyrian Steel (Robert)`, `… on Robert`)."""

    piece: Piece
    choice: Choice
    holder: str | int | None = None
    holder_name: Piece | None = None


@dataclass
class _LineResult:
    items: list[_Item] = field(default_factory=list)
    failures: list[Choice] = field(default_factory=list)
    header: tuple[str, str] | None = None  # a bare faction or game-size line


@dataclass(frozen=True)
class EntryReading:
    """How one entry was read: its line, how its card was chosen, the other cards the name
    could be, the cost printed beside it, the name as typed when it was corrected."""

    line: int
    how: Localizable | None = None
    alternatives: tuple[str, ...] = ()
    printed_cost: str | None = None
    corrected_from: str | None = None


@dataclass(frozen=True)
class WarbandReading:
    """A pasted warband, read: the draft (None when no line could be a card), the reading
    findings, one `LineReading` per input line, and how each entry was read (by ref)."""

    draft: WarbandDraft | None
    findings: tuple[Finding, ...]
    lines: tuple[LineReading, ...]
    entries: Mapping[str, EntryReading] = field(default_factory=dict)


def _label_keys(card: TacticsCard) -> dict[str, Localizable]:
    """The ways of writing the card's label exactly, with how each reads."""
    keys: dict[str, Localizable] = {}
    for name, title, plain, titled in (
        (
            card.name_en,
            card.title_en,
            pgettext_lazy("tactics reading", "the card's name"),
            pgettext_lazy("tactics reading", "the card's name and title"),
        ),
        (
            card.name_fr,
            card.title_fr or card.title_en,
            pgettext_lazy("tactics reading", "the card's French name"),
            pgettext_lazy("tactics reading", "the card's French name and title"),
        ),
    ):
        if not name:
            continue
        if title:
            keys.setdefault(name_key(f"{name} {title}"), titled)
        keys.setdefault(name_key(name), plain)
    return keys


def _full_keys(card: TacticsCard) -> set[str]:
    """The card's whole label (name and title), in each language."""
    return {
        name_key(f"{name} {title}")
        for name, title in (
            (card.name_en, card.title_en),
            (card.name_fr or card.name_en, card.title_fr or card.title_en),
        )
        if name
    }


def _how(choice: Choice) -> Localizable | None:
    card = choice.card
    if card is None:
        return None
    match: Localizable
    if choice.lookup.corrected_from:
        match = pgettext_lazy(
            "tactics reading", "the closest name to '{typed}'", typed=choice.lookup.corrected_from
        )
    else:
        match = _label_keys(card).get(name_key(choice.typed)) or _match_note(choice.matched)
    if not choice.applied:
        return match
    return pgettext_lazy(
        "tactics reading",
        "{match}, chosen among {count} cards by {hints}",
        match=match,
        count=len(choice.initial),
        hints=_Joined(choice.applied),
    )


def _faction_slug(text: str, factions: Mapping[str, tuple[str, ...]]) -> str | None:
    key = name_key(text)
    for prefix in ("house ", "maison ", "la maison "):
        if key.startswith(prefix) and key[len(prefix) :]:
            key = key[len(prefix) :]
    for slug, names in factions.items():
        if key in {slug, *map(name_key, names)}:
            return slug
    return None


def _budget_only(text: str, scenarios: Mapping[str, Coins | None]) -> bool:
    """The text names a scenario or game size and nothing else."""
    key = name_key(text)
    if not key:
        return False
    if key in scenarios:
        return True
    return bool(
        re.fullmatch(r"(?:(?:small|petite|standard|large|grande)\s*)?(?:\d+ \d+ \d+)?", key)
    )


class _Reader:
    def __init__(
        self,
        parsed: ParsedWarband,
        *,
        index: CardIndex[TacticsCard],
        scenarios: Mapping[str, Coins | None],
        factions: Mapping[str, tuple[str, ...]],
    ) -> None:
        self.parsed = parsed
        self.index = index
        self.scenarios = scenarios
        self.factions = factions
        self.faction_names = {slug: names[0] if names else slug for slug, names in factions.items()}

    # -- one name --------------------------------------------------------------------------

    def choose(
        self,
        name: str,
        *,
        kind: str | None,
        kind_hint: Localizable | None,
        piece: Piece | None,
        faction: str | None,
        faction_hint: Localizable | None,
    ) -> Choice:
        key = name_key(name)
        match = self.index.find(name) if key else None
        matched = str(match.how) if match is not None and match.how is not None else None
        if match is not None and match.corrected_to:
            key = name_key(match.corrected_to)  # the exact-name hint compares the corrected name
        seen: dict[str, tuple] = {}
        hints: list[tuple[Localizable, Callable[[TacticsCard], bool]]] = []
        if kind in FIGURE_KINDS and kind_hint is not None:
            hints.append((kind_hint, lambda card: card.kind == kind))
        elif kind == "equipment" and kind_hint is not None:
            hints.append((kind_hint, lambda card: card.kind == "equipment"))
        if faction and faction_hint is not None:
            hints.append((faction_hint, lambda card: card.faction in (faction, "neutral", None)))
        if piece is not None and piece.cost is not None:
            cost, copies = piece.cost, piece.copies
            hints.append(
                (
                    pgettext_lazy("tactics reading", "the printed cost {cost}", cost=cost.text),
                    lambda card: bool(_cost_matches(card, cost, copies)),
                )
            )
        hints.append(
            (
                pgettext_lazy("tactics reading", "the name written without a title"),
                lambda card: key in _full_keys(card),
            )
        )

        def narrow(cards: list[TacticsCard]) -> list[TacticsCard]:
            seen["initial"] = tuple(cards)
            applied: list[Localizable] = []
            for label, keep in hints:
                kept = [card for card in cards if keep(card)]
                if kept and len(kept) < len(cards):
                    cards, applied = kept, [*applied, label]
            seen["applied"] = tuple(applied)
            return cards

        lookup = self.index.lookup(name, narrow=narrow) if key else Lookup(card=None)
        initial = seen.get("initial", ())
        applied = seen.get("applied", ()) if lookup.card is not None else ()
        return Choice(name, lookup, initial, applied, matched)

    # -- one line --------------------------------------------------------------------------

    def read_segment(
        self, segment: Segment, *, attached: bool, faction: str | None, faction_hint
    ) -> _LineResult:
        result = _LineResult()
        piece = segment.piece
        if piece.role in FIGURE_KINDS:
            kind, kind_hint = (
                piece.role,
                pgettext_lazy("tactics reading", "the role written beside it"),
            )
        elif attached:
            kind, kind_hint = (
                "equipment",
                pgettext_lazy("tactics reading", "its place as equipment"),
            )
        elif segment.section:
            kind = segment.section
            kind_hint = pgettext_lazy(
                "tactics reading", "the heading {heading}", heading=segment.section_label
            )
        else:
            kind, kind_hint = None, None
        as_item = pgettext_lazy("tactics reading", "its place as equipment")

        def choose(name, piece_, kind_, hint_):
            return self.choose(
                name,
                kind=kind_,
                kind_hint=hint_,
                piece=piece_,
                faction=faction,
                faction_hint=faction_hint,
            )

        carried: list[tuple[Piece, Choice]] = []
        other: list[Piece] = []
        for inner in piece.inner:
            found = choose(inner.name, inner, "equipment", as_item)
            if found.card is not None and found.card.kind == "equipment":
                carried.append((inner, found))
            else:
                other.append(inner)
        main = None
        if other:
            # "Robert Baratheon (Mounted)": the bracket is part of the name.
            titled = choose(
                " ".join([piece.name, *(o.name for o in other)]), piece, kind, kind_hint
            )
            if titled.card is not None:
                main, other = titled, []
        if main is None:
            main = choose(piece.name, piece, kind, kind_hint)
        holder_name = None
        if main.card is None and not piece.inner and not piece.with_:
            # "Valyrian Steel on Robert Baratheon"
            parts = _split_top(segment.text, _ON)
            if len(parts) == 2:
                item = parse_segment(parts[0])
                found = choose(item.name, item, "equipment", as_item)
                if found.card is not None and found.card.kind == "equipment":
                    main, piece, holder_name = found, item, parse_piece(parts[1])
        if main.card is None:
            result.failures.append(main)
            main_index = None
        else:
            holder = "above" if attached and main.card.kind == "equipment" else None
            result.items.append(_Item(piece, main, holder=holder, holder_name=holder_name))
            main_index = 0
        main_is_figure = main.card is not None and main.card.is_figure
        main_is_item = main.card is not None and main.card.kind == "equipment"
        for inner, found in carried:
            result.items.append(_Item(inner, found, holder=main_index if main_is_figure else None))
        for inner in other:
            found = choose(inner.name, inner, None, None)
            named = found.lookup.candidates if found.card is None else (found.card,)
            if (
                main_is_item
                and main_index is not None
                and named
                and all(card.is_figure for card in named)
            ):
                # "Valyrian Steel (Robert Baratheon)": the figure that carries it.
                result.items[main_index] = replace(result.items[main_index], holder_name=inner)
            elif found.card is None:
                result.failures.append(found)
            elif found.card.is_figure and main_is_item and main_index is not None:
                result.items[main_index] = replace(result.items[main_index], holder_name=inner)
            else:
                result.items.append(_Item(inner, found))
        for extra in piece.with_:
            found = choose(extra.name, extra, "equipment", as_item)
            if found.card is None:
                result.failures.append(found)
            elif found.card.kind == "equipment":
                carrier: str | int | None = (
                    main_index if main_is_figure else ("above" if attached else None)
                )
                result.items.append(_Item(extra, found, holder=carrier))
            else:
                result.items.append(_Item(extra, found))
        return result

    def read_line(self, line: WarbandLine, faction: str | None, faction_hint) -> _LineResult:
        result = _LineResult()
        for position, segment in enumerate(line.segments):
            attached = line.attached and position == 0
            read = self.read_segment(
                segment, attached=attached, faction=faction, faction_hint=faction_hint
            )
            if not read.items and read.failures:
                # "Robert Baratheon, Lyn Corbray, 4x Baratheon Guardians": cut at commas.
                parts = [p for p in _split_top(segment.text, _LIST_SPLIT) if name_key(p)]
                if len(parts) > 1:
                    cut = _LineResult()
                    for part in parts:
                        piece = Segment(
                            part, parse_segment(part), segment.section, segment.section_label
                        )
                        one = self.read_segment(
                            piece, attached=False, faction=faction, faction_hint=faction_hint
                        )
                        offset = len(cut.items)
                        cut.items.extend(
                            replace(i, holder=i.holder + offset) if isinstance(i.holder, int) else i
                            for i in one.items
                        )
                        cut.failures.extend(one.failures)
                    if cut.items:
                        read = cut
            offset = len(result.items)
            result.items.extend(
                replace(i, holder=i.holder + offset) if isinstance(i.holder, int) else i
                for i in read.items
            )
            result.failures.extend(read.failures)
        return result

    def bare_header(self, line: WarbandLine) -> tuple[str, str] | None:
        """A line that is only a faction name or a game size."""
        if len(line.segments) != 1 or line.attached:
            return None
        piece = line.segments[0].piece
        if piece.with_ or piece.copies > 1:
            return None
        if piece.cost is None and not piece.inner:
            slug = _faction_slug(line.body, self.factions)
            if slug is not None:
                return "faction", slug
        if _budget_only(line.body, self.scenarios):
            return "scenario", line.body
        return None

    def resolve_all(
        self, faction: str | None, faction_hint: Localizable | None
    ) -> dict[int, _LineResult]:
        results = {}
        for line in self.parsed.card_lines:
            results[line.number] = self.read_line(line, faction, faction_hint)
        return results

    # -- the warband -----------------------------------------------------------------------

    def read(self) -> WarbandReading:
        parsed = self.parsed
        findings: list[Finding] = []
        headers: dict[int, tuple[str, str]] = {}
        faction_text, faction_line = parsed.faction, parsed.header_lines.get("faction")
        scenario_text = parsed.scenario
        for line in parsed.card_lines:
            header = self.bare_header(line)
            if header is None:
                continue
            headers[line.number] = header
            what, value = header
            if what == "faction" and faction_text is None:
                faction_text, faction_line = line.body, line.number
            if what == "scenario" and scenario_text is None:
                scenario_text = value
        header_faction = _faction_slug(faction_text, self.factions) if faction_text else None
        faction_hint = pgettext_lazy("tactics reading", "the warband's faction")
        results = self.resolve_all(header_faction, faction_hint if header_faction else None)
        for number in headers:
            results.pop(number, None)

        faction = header_faction
        inferred = None
        if faction is None:
            seen = Counter(
                item.choice.card.faction
                for result in results.values()
                for item in result.items
                if item.choice.card is not None
                and item.choice.card.is_figure
                and item.choice.card.faction
                and not item.choice.card.is_neutral
            )
            any_figure = any(
                item.choice.card is not None and item.choice.card.is_figure
                for result in results.values()
                for item in result.items
            )
            inferred = seen.most_common(1)[0][0] if seen else ("neutral" if any_figure else None)
            faction = inferred
            if inferred and any(r.failures for r in results.values()):
                hint = pgettext_lazy("tactics reading", "the faction of the other figures")
                results = self.resolve_all(inferred, hint)
                for number in headers:
                    results.pop(number, None)
        if faction_text and header_faction is None:
            findings.append(self.unknown_faction(faction_text, faction_line or 0, inferred))
        elif inferred:
            findings.append(self.inferred_faction(inferred))
        return self.build(results, headers, faction, scenario_text, findings)

    def inferred_faction(self, faction: str) -> Finding:
        return reading_finding(
            "FACTION_INFERRED",
            message=pgettext_lazy(
                "tactics reading",
                "no Faction line: the warband is read as {faction}, the faction of its figures",
                faction=self.faction_names.get(faction, faction),
            ),
        )

    def unknown_faction(self, text: str, line: int, inferred: str | None) -> Finding:
        if inferred:
            message = pgettext_lazy(
                "tactics reading",
                "line {line}: no faction is called '{name}'; the warband is read as {faction}, "
                "the faction of its figures",
                line=line,
                name=text,
                faction=self.faction_names.get(inferred, inferred),
            )
        else:
            message = pgettext_lazy(
                "tactics reading",
                "line {line}: no faction is called '{name}'",
                line=line,
                name=text,
            )
        return reading_finding("FACTION_INFERRED", message)

    def build(
        self,
        results: dict[int, _LineResult],
        headers: dict[int, tuple[str, str]],
        faction: str | None,
        scenario_text: str | None,
        findings: list[Finding],
    ) -> WarbandReading:
        parsed = self.parsed
        figures: list[FigureEntry] = []
        equipment: list[EquipmentEntry] = []
        named_holders: list[tuple[int, Piece]] = []  # (equipment index, holder's name)
        readings: list[LineReading] = []
        entries: dict[str, EntryReading] = {}
        prose: list[int] = []
        second: list[int] = []
        last_figure: str | None = None
        last_indent = -1
        seen_content = False
        any_card_line = False
        for line in parsed.lines:
            if line.kind is LineKind.OTHER_LIST:
                second.append(line.number)
            if line.kind is LineKind.PROSE:
                prose.append(line.number)
            if line.kind is LineKind.SECTION:
                last_figure = None
            if line.number in headers:
                what, value = headers[line.number]
                note = _header_note(what, self.faction_names.get(value, value))
                readings.append(LineReading(line.number, line.text, LineKind.HEADER, note=note))
                seen_content = True
                continue
            if line.kind is not LineKind.CARD:
                readings.append(LineReading(line.number, line.text, line.kind, note=line.note))
                seen_content = seen_content or line.kind is not LineKind.BLANK
                continue
            result = results.get(line.number, _LineResult())
            first_content = not seen_content
            seen_content = True
            if not result.items:
                kind = self.unread_kind(line, result, first_content)
                if kind is LineKind.PROSE:
                    prose.append(line.number)
                if kind in (LineKind.UNKNOWN, LineKind.AMBIGUOUS):
                    any_card_line = True
                    findings.extend(self.failure(line, f) for f in result.failures)
                readings.append(self.unread_reading(line, kind, result))
                continue
            any_card_line = True
            above = last_figure if (line.attached or line.indent > last_indent) else None
            refs: list[str] = []
            first_refs: dict[int, str] = {}
            for position, item in enumerate(result.items):
                card = item.choice.card
                assert card is not None
                made: list[str] = []
                if card.is_figure:
                    for _copy in range(item.piece.copies):
                        ref = f"figure-{len(figures) + 1}"
                        figures.append(FigureEntry(ref=ref, card=card))
                        made.append(ref)
                    first_refs[position] = made[0]
                    if position == 0 or last_figure is None:
                        last_figure, last_indent = made[0], line.indent
                else:
                    if isinstance(item.holder, int):
                        holder = first_refs.get(item.holder)
                    elif item.holder == "above" or (position == 0 and above is not None):
                        holder = above
                    else:
                        holder = None
                    for _copy in range(item.piece.copies):
                        ref = f"equipment-{len(equipment) + 1}"
                        if holder is None and item.holder_name is not None:
                            named_holders.append((len(equipment), item.holder_name))
                        equipment.append(EquipmentEntry(ref=ref, card=card, holder=holder))
                        made.append(ref)
                refs.extend(made)
                entries.update({ref: self.entry_reading(line, item) for ref in made})
                findings.extend(self.item_findings(line, item, tuple(made)))
            findings.extend(self.failure(line, f) for f in result.failures)
            unread: Localizable | None = (
                pgettext_lazy("tactics reading", "some names on this line were not read")
                if result.failures
                else None
            )
            readings.append(
                LineReading(line.number, line.text, LineKind.CARD, refs=tuple(refs), note=unread)
            )
        for position, name in named_holders:
            holder = self.named_holder(name, figures, faction)
            if holder is not None:
                equipment[position] = replace(equipment[position], holder=holder)
        if prose:
            findings.append(self.ignored(prose))
        if second:
            findings.append(self.second_warband(second))
        if not any_card_line:
            findings.insert(
                0,
                reading_finding(
                    "LIST_UNPARSEABLE",
                    severity=Severity.ERROR,
                    message=_("this text is not a warband: no figure lines were found"),
                ),
            )
            return WarbandReading(None, tuple(findings), tuple(readings), entries)
        draft = WarbandDraft(
            faction=faction,
            budget=resolve_budget(scenario_text, self.scenarios),
            figures=tuple(figures),
            equipment=tuple(equipment),
            scenario=scenario_text or "",
            name=parsed.name,
        )
        return WarbandReading(draft, tuple(findings), tuple(readings), entries)

    def named_holder(
        self, name: Piece, figures: list[FigureEntry], faction: str | None
    ) -> str | None:
        found = self.choose(
            name.name, kind=None, kind_hint=None, piece=name, faction=faction, faction_hint=None
        )
        ids = {card.id for card in found.lookup.candidates} if found.card is None else set()
        if found.card is not None:
            ids = {found.card.id}
        matching = [figure.ref for figure in figures if figure.card.id in ids]
        return matching[0] if len(matching) == 1 or (matching and found.card) else None

    def unread_kind(self, line: WarbandLine, result: _LineResult, first: bool) -> LineKind:
        if any(f.lookup.ambiguous for f in result.failures):
            return LineKind.AMBIGUOUS
        suggested = any(f.lookup.suggestions for f in result.failures)
        if not line.marked and not line.attached:
            if first or (line.heading and not suggested):
                return LineKind.TITLE
            sentence = bool(re.search(r"[.!?…]['\")]*$", line.body))
            if not suggested and (sentence or len(words(line.body)) >= 6):
                return LineKind.PROSE
        return LineKind.UNKNOWN

    def unread_reading(self, line: WarbandLine, kind: LineKind, result: _LineResult) -> LineReading:
        candidates: tuple[str, ...] = ()
        if kind is LineKind.AMBIGUOUS:
            note = pgettext_lazy(
                "tactics reading", "several cards have this name and nothing chose one"
            )
            candidates = tuple(card.id for f in result.failures for card in f.lookup.candidates)
        elif kind is LineKind.TITLE:
            note = pgettext_lazy("tactics reading", "the warband's title: it names no card")
        elif kind is LineKind.PROSE:
            note = pgettext_lazy("tactics reading", "a sentence about the warband, ignored")
        else:
            note = pgettext_lazy("tactics reading", "no card has this name")
        return LineReading(line.number, line.text, kind, note=note, candidates=candidates)

    def entry_reading(self, line: WarbandLine, item: _Item) -> EntryReading:
        choice = item.choice
        card = choice.card
        return EntryReading(
            line=line.number,
            how=_how(choice),
            alternatives=tuple(c.id for c in choice.initial if card is None or c.id != card.id),
            printed_cost=item.piece.cost.text if item.piece.cost else None,
            corrected_from=choice.lookup.corrected_from,
        )

    def item_findings(self, line: WarbandLine, item: _Item, refs: tuple[str, ...]) -> list[Finding]:
        choice, found = item.choice, []
        card = choice.card
        assert card is not None
        label = Bilingual.of(card.label)
        if choice.loose:
            found.append(
                reading_finding(
                    "NAME_CORRECTED",
                    message=pgettext_lazy(
                        "tactics reading",
                        "line {line}: '{name}' read as {card}",
                        line=line.number,
                        name=choice.typed,
                        card=label,
                    ),
                    entries=refs,
                )
            )
        if len(choice.initial) > 1:
            found.append(
                reading_finding(
                    "CARD_CHOSEN",
                    message=pgettext_lazy(
                        "tactics reading",
                        "line {line}: '{name}' could be {cards}; {card} was chosen by {hints}",
                        line=line.number,
                        name=choice.typed,
                        cards=_labels(choice.initial),
                        card=label,
                        hints=_Joined(choice.applied),
                    ),
                    entries=refs,
                )
            )
        printed = item.piece.cost
        if printed is not None and _cost_matches(card, printed, item.piece.copies) is False:
            found.append(
                reading_finding(
                    "COST_DIFFERS",
                    message=pgettext_lazy(
                        "tactics reading",
                        "line {line}: {card} is printed at {printed} but the card costs "
                        "{cost}; the card's cost is counted",
                        line=line.number,
                        card=label,
                        printed=printed.text,
                        cost=cost_text(card.cost or Coins()),
                    ),
                    entries=refs,
                )
            )
        return found

    def failure(self, line: WarbandLine, choice: Choice) -> Finding:
        if choice.lookup.ambiguous:
            return reading_finding(
                "CARD_AMBIGUOUS",
                severity=Severity.ERROR,
                message=pgettext_lazy(
                    "tactics reading",
                    "line {line}: '{name}' could be {cards}; nothing written tells them "
                    "apart, so none was chosen",
                    line=line.number,
                    name=choice.typed,
                    cards=_labels(choice.lookup.candidates),
                ),
                entries=(f"line-{line.number}",),
            )
        message = _("line {line}: '{name}' is no known card", line=line.number, name=choice.typed)
        return reading_finding(
            "CARD_UNKNOWN",
            severity=Severity.ERROR,
            message=with_suggestions(message, choice.lookup),
            entries=(f"line-{line.number}",),
        )

    def ignored(self, numbers: list[int]) -> Finding:
        message = (
            pgettext_lazy(
                "tactics reading",
                "line {line} read as a sentence about the warband and ignored",
                line=numbers[0],
            )
            if len(numbers) == 1
            else pgettext_lazy(
                "tactics reading",
                "lines {lines} read as sentences about the warband and ignored",
                lines=", ".join(map(str, numbers)),
            )
        )
        return reading_finding(
            "LINES_IGNORED",
            message=message,
            entries=tuple(f"line-{n}" for n in numbers),
        )

    def second_warband(self, numbers: list[int]) -> Finding:
        return reading_finding(
            "LINES_IGNORED",
            message=pgettext_lazy(
                "tactics reading",
                "lines {first} to {last} hold a second warband, which is not checked: paste "
                "each warband on its own",
                first=numbers[0],
                last=numbers[-1],
            ),
            entries=tuple(f"line-{n}" for n in numbers),
        )


def read_warband(
    text: str,
    *,
    index: CardIndex[TacticsCard],
    scenarios: Mapping[str, Coins | None],
    factions: Mapping[str, tuple[str, ...]],
) -> WarbandReading:
    """Read a pasted warband line by line. Never raises."""
    return read_parsed(
        parse_warband_text(text), index=index, scenarios=scenarios, factions=factions
    )


def read_parsed(
    parsed: ParsedWarband,
    *,
    index: CardIndex[TacticsCard],
    scenarios: Mapping[str, Coins | None],
    factions: Mapping[str, tuple[str, ...]],
) -> WarbandReading:
    return _Reader(parsed, index=index, scenarios=scenarios, factions=factions).read()


def build_warband(
    parsed: ParsedWarband,
    *,
    index: CardIndex[TacticsCard],
    scenarios: Mapping[str, Coins | None],
    factions: Mapping[str, tuple[str, ...]],
) -> tuple[WarbandDraft | None, tuple[Finding, ...]]:
    """The draft and reading findings of a parsed warband (`read_parsed` without the
    line-by-line account)."""
    reading = read_parsed(parsed, index=index, scenarios=scenarios, factions=factions)
    return reading.draft, reading.findings


def resolve_budget(text: str | None, scenarios: Mapping[str, Coins | None]) -> Coins | None:
    """A scenario name (EN/FR), a size word, a literal G-S-C budget or coins (`3G 6S 18C`)."""
    if not text:
        return None
    key = name_key(text)
    if key in scenarios:
        return scenarios[key]
    literal = _BUDGET.search(text)
    if literal:
        return Coins(*(int(g) for g in literal.groups()))
    for word, budget in SIZE_WORDS.items():
        if word in key.split():
            return budget
    found = find_cost(text)
    if found and found[1].coins is not None:
        return found[1].coins
    return None


def cost_label(cost: Coins | None, *, each: bool = False) -> str:
    if cost is None:
        return "[?]"
    parts = [
        f"{n}{letter}"
        for n, letter in zip((cost.gold, cost.silver, cost.copper), "GSC", strict=True)
        if n
    ]
    return "[" + (" ".join(parts) or "0") + (" each" if each else "") + "]"


# The section headings of a written warband, in the card languages.
HEADINGS = {
    "en": ("Heroes", "Champions", "Soldiers", "Equipment"),
    "fr": ("Héros", "Champions", "Soldats", "Équipement"),
}


def write_warband_text(
    draft: WarbandDraft,
    *,
    faction_names: Mapping[str, tuple[str, str]],
    scenario_label: str,
    lang: str = "en",
) -> str:
    headings = HEADINGS[card_language(lang)]
    faction = draft.faction or ""
    lines = ["Game: Tactics"]
    if draft.name:
        lines.append(f"Name: {draft.name}")
    lines.append(f"Scenario: {scenario_label}")
    lines.append(f"Faction: {pick(lang, *faction_names.get(faction, (faction, faction)))}")
    held: dict[str, list[EquipmentEntry]] = {}
    for item in draft.equipment:
        if item.holder:
            held.setdefault(item.holder, []).append(item)
    for heading, kind in zip(headings[:3], ("hero", "champion", "soldier"), strict=True):
        entries = [f for f in draft.figures if f.card.kind == kind]
        if not entries:
            continue
        lines.append(f"{heading}:")
        index = 0
        while index < len(entries):
            entry = entries[index]
            run = 1
            if kind == "soldier":
                while (
                    index + run < len(entries)
                    and entries[index + run].card.id == entry.card.id
                    and not held.get(entries[index + run].ref)
                ):
                    run += 1
            copies = f" x{run}" if run > 1 else ""
            cost = cost_label(entry.card.cost, each=run > 1)
            lines.append(f"• {entry.card.label(lang)}{copies} {cost}")
            for item in held.get(entry.ref, []):
                lines.append(f"  • {item.card.label(lang)} {cost_label(item.card.cost)}")
            index += run
    loose = [i for i in draft.equipment if not i.holder]
    if loose:
        lines.append(f"{headings[3]}:")
        lines.extend(f"• {i.card.label(lang)} {cost_label(i.card.cost)}" for i in loose)
    return "\n".join(lines) + "\n"
