"""Which cleaned lines are headings, and at which outline level.

Three styles cover the books we know:

- `capitals` (TMG, Tactics, Hand of the King, generic): a capitals line between blank lines
  and followed by prose opens a chapter; a short title-case line followed by prose (`Phase
  d’Activation`, `Obtenir un Compagnon`), a bullet title (`• Taille de la Partie`) or a
  sidebar title (`• Actions Gratuites •`) opens a section. A printed table of contents,
  when the book has one, names the chapters and sections and gives their pages; capitals
  headings it does not list become subsections.
- `display` (AGoT, French): letter-spaced display type (repaired by the cleaning) opens a
  chapter; short title-case lines between blank lines open sections.
- `short-lines` (Persian): a short line without final punctuation between blank lines.

A section map of the edition (known headings with their level and `rule_key`) overrides
the guess for the headings it knows. Lines that are card titles, map labels, captions or
list items are not headings; when the guess is wrong the text still lands in a section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.cleaning.lines import JOINED, Line, is_all_caps
from rules.cleaning.words import is_title_like, words

from .outline import SectionMap, TableOfContents
from .profiles import CAPITALS, DISPLAY, SHORT_LINES, BookProfile

CHAPTER, SECTION, SUBSECTION = 1, 2, 3
MAX_TITLE = 60
MIN_PROSE = 40

_TERMINAL = (".", ",", ";", ":")
_FA_TERMINAL = (".", ":", "،", "؛", "!", "؟", "?", "»", ")")
_SIDEBAR = re.compile(r"^•\s*(.+?)\s*•$")
_BULLET_TITLE = re.compile(r"^•\s*(.+)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-–—♦*]|\(?[a-z]\)|[IVX]+\.\s|\d+\s*[:)])")
_EXAMPLE = re.compile(r"^(exemples?|examples?|variantes?)\b", re.IGNORECASE)
_FA_NUMBERED = re.compile(r"^\s*[۰-۹0-9]+\s*[.)\-]")
_NUMBERED = re.compile(r"^\s*[۰-۹0-9]{1,2}\s*[.)]\s")
_CARD_TIER = re.compile(r"^(\d+\s*:|Conséquences\b)")
# Chapter names every rulebook uses: headings even when a list, not prose, follows them.
_CHAPTER_NAMES = re.compile(
    r"^(CRÉDITS|CREDITS|REMERCIEMENTS|MATÉRIEL|CONTENU DE LA BOÎTE|BUT DU JEU|MISE EN PLACE"
    r"|COMPONENTS|SETUP|OBJECT OF THE GAME|GAME OVERVIEW)$"
)
_TOC_TITLE = re.compile(r"^(table des mati[eè]res|sommaire|contents|table of contents)$", re.I)
_LATIN = re.compile(r"[A-Za-z]")
_PERSIAN = re.compile(r"[\u0600-\u06ff]")


@dataclass(frozen=True)
class HeadingMark:
    index: int  # index of the heading line in the cleaned lines
    text: str
    level: int
    key: str = ""  # rule_key from a section map
    page: int | None = None  # printed page from a table of contents
    hint: str = ""  # "sidebar", "card", "front", "example"


def detect_headings(
    lines: list[Line],
    profile: BookProfile,
    *,
    section_map: SectionMap | None = None,
    toc: TableOfContents | None = None,
    toc_lines: frozenset[int] = frozenset(),
) -> list[HeadingMark]:
    if profile.heading_style == DISPLAY:
        return _display(lines, profile, section_map)
    if profile.heading_style == SHORT_LINES:
        return _short_lines(lines, profile, section_map)
    if profile.heading_style == CAPITALS:
        return _capitals(lines, profile, toc, toc_lines, section_map)
    return []


# --- context helpers -------------------------------------------------------------------------


def _after(lines: list[Line], i: int) -> int:
    j = i + 1
    while j < len(lines) and lines[j].noise == JOINED:
        j += 1
    return j


def _next_text(lines: list[Line], i: int, *, max_blank: int = 3) -> Line | None:
    blank = 0
    for j in range(_after(lines, i), len(lines)):
        line = lines[j]
        if line.is_text:
            return line
        if line.noise:
            continue
        blank += 1
        if blank > max_blank:
            return None
    return None


def _directly_followed(lines: list[Line], i: int) -> bool:
    j = _after(lines, i)
    return j < len(lines) and lines[j].is_text


def _blank_before(lines: list[Line], i: int) -> bool:
    if lines[i].page_break:
        return True
    for j in range(i - 1, -1, -1):
        if lines[j].noise:
            if lines[j].page_break:
                return True
            continue
        return not lines[j].text.strip()
    return True


def _opens_block(lines: list[Line], i: int, *, loose: bool = False) -> bool:
    """After a blank line or a page break; `loose`: also after a finished sentence (PDF text
    has no blank lines)."""
    if _blank_before(lines, i):
        return True
    previous = _previous_text(lines, i)
    return loose and previous is not None and previous.text.rstrip().endswith((".", "!", "?", ":"))


def _blank_after(lines: list[Line], i: int) -> bool:
    j = _after(lines, i)
    while j < len(lines) and lines[j].noise:
        j += 1
    return j >= len(lines) or not lines[j].text.strip()


def _previous_text(lines: list[Line], i: int) -> Line | None:
    for j in range(i - 1, -1, -1):
        if lines[j].is_text:
            return lines[j]
    return None


def is_prose(text: str) -> bool:
    text = text.strip()
    if len(text) < MIN_PROSE:
        return False
    if _PERSIAN.search(text):
        return len(text.split()) >= 5
    lower = [w for w in words(text) if w[0].islower()]
    return len(lower) >= 4


def _short_title(text: str, limit: int = MAX_TITLE) -> bool:
    return 2 <= len(text) <= limit and not text.endswith(_TERMINAL) and bool(words(text))


# --- capitals ----------------------------------------------------------------------------------


def _capitals(
    lines: list[Line],
    profile: BookProfile,
    toc: TableOfContents | None,
    toc_lines: frozenset[int],
    section_map: SectionMap | None,
) -> list[HeadingMark]:
    marks: list[HeadingMark] = []
    last_listed = CHAPTER
    for i, line in enumerate(lines):
        if not line.is_text or i in toc_lines:
            continue
        text = line.text.strip()
        nxt = _next_text(lines, i)
        if _TOC_TITLE.match(text):
            marks.append(HeadingMark(i, text, CHAPTER, hint="front"))
            continue
        if section_map and (known := section_map.match(text)):
            marks.append(HeadingMark(i, text, known.level, key=known.key))
            continue
        entry = (
            toc.match(text, fuzzy=is_all_caps(text))
            if toc
            and len(text) <= profile.max_heading
            and not text.endswith(_TERMINAL)
            and _blank_before(lines, i)
            else None
        )
        if entry is not None:
            last_listed = entry.level
            marks.append(HeadingMark(i, text, entry.level, page=entry.page))
            continue
        if found := _SIDEBAR.match(text):
            if _short_title(found.group(1)):
                marks.append(HeadingMark(i, found.group(1), SECTION, hint="sidebar"))
            continue
        if (
            is_all_caps(text)
            and (_starts_page(lines, i) or not _in_caps_list(lines, i, marks))
            and (_capitals_heading(lines, i, text, nxt, profile) or _CHAPTER_NAMES.match(text))
        ):
            level = min(last_listed + 1, SUBSECTION) if toc else CHAPTER
            hint = "card" if nxt and _CARD_TIER.match(nxt.text) else ""
            marks.append(HeadingMark(i, text, level, hint=hint))
            continue
        if (found := _BULLET_TITLE.match(text)) and _bullet_heading(lines, i, found.group(1)):
            marks.append(HeadingMark(i, found.group(1), SUBSECTION if toc else SECTION))
            continue
        if _title_heading(lines, i, text, nxt, loose=not profile.caps_need_blank):
            level = SUBSECTION if toc and last_listed >= SECTION else SECTION
            hint = "example" if _EXAMPLE.match(text) else ""
            marks.append(HeadingMark(i, text, level, hint=hint))
    return marks


def _capitals_heading(
    lines: list[Line], i: int, text: str, nxt: Line | None, profile: BookProfile
) -> bool:
    if len(text) > profile.max_heading or text.endswith((".", ",", ";", ":")):
        return False
    if not _opens_block(lines, i, loose=not profile.caps_need_blank):
        return False
    if profile.caps_need_blank and not _blank_after(lines, i):
        return False
    if re.match(r"^[\d\s\W]+", text) and not text[0].isalpha():
        return False  # `2 POUDRE AVEUGLANTE`: an entry with its cost
    if nxt is None or nxt.text.startswith(("«", "“")):
        return False  # a card title over its flavour quote
    if is_prose(nxt.text) or _CARD_TIER.match(nxt.text) or _starts_page(lines, i):
        return True
    # A chapter opening straight on its first section: `CRÉATION D’ARMÉE` / `• Taille…`.
    k = lines.index(nxt)
    j = _after(lines, k)
    follows = j < len(lines) and lines[j].is_text and is_prose(lines[j].text)
    return follows and (is_title_like(nxt.text.lstrip("• ")) and len(nxt.text) <= MAX_TITLE)


def _starts_page(lines: list[Line], i: int) -> bool:
    """The line is the first text of its page."""
    previous = next((j for j in range(i - 1, -1, -1) if lines[j].is_text), None)
    if previous is None:
        return True
    if lines[i].page is not None:
        return lines[previous].page != lines[i].page
    return any(line.page_break for line in lines[previous + 1 : i + 1])


def _in_caps_list(lines: list[Line], i: int, marks: list[HeadingMark]) -> bool:
    """`MANŒUVRE`, `MARCHE`, `REPLI`…: a list of capitals items, not headings."""
    previous = next((j for j in range(i - 1, -1, -1) if lines[j].is_text), None)
    if previous is None or any(m.index == previous for m in marks[-1:]):
        return False
    text = lines[previous].text.strip()
    return is_all_caps(text) and len(text) <= 30


def _bullet_heading(lines: list[Line], i: int, inner: str) -> bool:
    inner = inner.strip()
    if not _short_title(inner, 50) or ":" in inner or not is_title_like(inner):
        return False
    j = _after(lines, i)
    return j < len(lines) and lines[j].is_text and is_prose(lines[j].text)


def _title_heading(
    lines: list[Line], i: int, text: str, nxt: Line | None, *, loose: bool = False
) -> bool:
    if not _short_title(text) or is_all_caps(text) or _LIST_ITEM.match(text):
        return False
    if " : " in text or text.endswith(("!", "?")) or ". " in text:
        return False  # `Producteur : Molly Glover`: a label and its value; a sentence
    if text.startswith(("«", '"', "“", "•", "(")):
        return False
    if not (is_title_like(text) or _EXAMPLE.match(text)):
        return False
    if not _opens_block(lines, i, loose=loose):
        return False
    return nxt is not None and (is_prose(nxt.text) or bool(re.match(r"^1[.)]\s", nxt.text)))


# --- display type (AGoT, French) -----------------------------------------------------------


def _display(
    lines: list[Line], profile: BookProfile, section_map: SectionMap | None
) -> list[HeadingMark]:
    marks: list[HeadingMark] = []
    used_keys: set[str] = set()
    for i, line in enumerate(lines):
        if not line.is_text:
            continue
        text = line.text.strip()
        known = section_map.match(text, ignore_case=line.spaced) if section_map else None
        if known and not _known_here(lines, i, text, section_map):
            known = None
        if known and known.key not in used_keys and (line.spaced or not is_all_caps(text)):
            used_keys.add(known.key)
            marks.append(HeadingMark(i, text.rstrip(" :"), known.level, key=known.key))
            continue
        if line.spaced and not re.match(r"^\d", text):
            marks.append(HeadingMark(i, text, CHAPTER))
            continue
        if _display_section(lines, i, text):
            hint = "example" if _EXAMPLE.match(text) else ""
            marks.append(HeadingMark(i, text, SECTION, hint=hint))
    return marks


def _display_section(lines: list[Line], i: int, text: str) -> bool:
    if not _short_title(text) or is_all_caps(text) or _LIST_ITEM.match(text):
        return False
    if text.startswith(("«", '"', "“", "•", "-", "(")) or "«" in text:
        return False
    if " : " in text or text.count(",") >= 2:
        return False  # `Illustration de couverture : …`, a list of names
    if not (is_title_like(text) or _EXAMPLE.match(text)):
        return False
    if not _blank_before(lines, i):
        return False
    j = _after(lines, i)
    if j < len(lines) and lines[j].is_text and lines[j].text[:1].islower():
        return False  # a sentence wrapped after a short first line
    nxt = _next_text(lines, i, max_blank=2)
    if nxt is None:
        return False
    if re.match(r"^\d{1,2}\.\s", text):
        # `1. Plateau`, `11. Piste de Ravitaillement`: callouts, unless prose follows.
        return is_prose(nxt.text) and not re.match(r"^\d{1,2}\.\s", nxt.text)
    return True


def _known_here(
    lines: list[Line], i: int, text: str, section_map: SectionMap, *, strict: bool = False
) -> bool:
    """A known heading repeated in a list (`1. Assigner les ordres`, the combat steps, the
    order summary) is an item there: a heading is followed by its text or by one of its own
    sub-headings. `strict` applies that to every heading, not only numbered ones."""
    if not strict and not _NUMBERED.match(text):
        return True
    nxt = _next_text(lines, i)
    if nxt is None:
        return False
    if not strict:
        previous = _previous_text(lines, i)
        inside = previous is not None and _NUMBERED.match(previous.text)
        return not (inside and _NUMBERED.match(nxt.text))
    after = nxt.text.strip()
    if _NUMBERED.match(text) and _NUMBERED.match(after) and len(after) < MIN_PROSE:
        return False
    here, there = section_map.match(text), section_map.match(after)
    if there is not None:
        return bool(here and there.level > here.level)
    looks_like_heading = (
        len(after) < MIN_PROSE
        and not after.endswith(_FA_TERMINAL)
        and not after.startswith(("-", "(", "•", "*"))
        and not _NUMBERED.match(after)
    )
    return not looks_like_heading


# --- short lines (Persian) -------------------------------------------------------------------


def _short_lines(
    lines: list[Line], profile: BookProfile, section_map: SectionMap | None
) -> list[HeadingMark]:
    marks: list[HeadingMark] = []
    used_keys: set[str] = set()
    seen_chapter = False
    for i, line in enumerate(lines):
        if not line.is_text:
            continue
        text = line.text.strip()
        known = section_map.match(text) if section_map else None
        if known and not _known_here(lines, i, text, section_map, strict=True):
            known = None
        if known and known.key not in used_keys:
            used_keys.add(known.key)
            marks.append(HeadingMark(i, text.rstrip(" :"), known.level, key=known.key))
            seen_chapter = seen_chapter or known.level == CHAPTER
            continue
        if _short_line_heading(lines, i, text, profile):
            level = SECTION if seen_chapter else CHAPTER
            seen_chapter = True
            marks.append(HeadingMark(i, text, level))
    return marks


def _short_line_heading(lines: list[Line], i: int, text: str, profile: BookProfile) -> bool:
    if len(text) > profile.max_heading or len(text) < 3 or text.endswith(_FA_TERMINAL):
        return False
    if text.startswith(("-", "(", '"', "«", "*", "•")) or _FA_NUMBERED.match(text):
        return False
    if not _PERSIAN.search(text) or len(_LATIN.findall(text)) > len(text) / 2:
        return False
    if not (_blank_before(lines, i) and _blank_after(lines, i)):
        return False
    previous = _previous_text(lines, i)
    if (
        previous
        and len(previous.text) > profile.max_heading
        and not previous.text.rstrip().endswith(_FA_TERMINAL)
    ):
        return False  # a hard-wrapped sentence continues here
    nxt = _next_text(lines, i)
    return nxt is not None
