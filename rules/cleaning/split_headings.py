"""Headings broken over two (or more) lines by the layout.

Cases found in the rulebooks: a wrapped capitals heading (`ROUND  ` / `DE JEU`, the first
half ending in two spaces), even across a blank line (`TABLEAU` / `STRATÉGIQUE` / `ET
UNITÉS` / `NON-COMBATTANTES`); a title whose second half starts with a connector (`Exemple
de Retraite` / `et de Déroute`) or whose first half ends with one (`L’Ordre de
Consolidation de` / `Pouvoir`); a one-word label and its complement (`Pions` /
`Domination`); a parenthesised tail (`Schéma d’Installation` / `(exemple à 4 joueurs)`);
and letter-spaced display type (`J oue r à M o i n s` / `d e 6 J o u e u rs`).

The halves are joined on the first line; the second keeps its text for the record but is
marked `joined`. This step runs before whitespace normalisation: trailing spaces are a clue.
"""

from __future__ import annotations

from dataclasses import replace

from .letterspacing import is_letter_spaced
from .lines import JOINED, Line, is_all_caps, mark
from .words import ends_with_connector, is_title_like, starts_with_connector, words

MAX_CAPS_PART = 32
MAX_TITLE_PART = 45
MAX_TAIL = 40
TERMINAL = (".", ",", ";", ":", "!", "?", "»")


def join_split_headings(lines: list[Line]) -> list[Line]:
    out = list(lines)
    # Adjacent halves first, so that halves separated by a blank line are whole.
    i = 0
    while i < len(out):
        j = _after_joined(out, i)
        if (
            out[i].is_text
            and j < len(out)
            and out[j].is_text
            and not out[j].page_break
            and _belong_together(out, i, j)
        ):
            out = _join(out, i, j)
            continue  # the joined line may go on (three-line headings)
        i += 1
    for i in range(len(out)):
        j = _after_joined(out, i)
        if (
            out[i].is_text
            and j + 1 < len(out)
            and not out[j + 1].page_break
            and _joins_across_blank(out, i, j)
        ):
            out = _join(out, i, _after_joined(out, j))
    return out


def _join(lines: list[Line], i: int, j: int) -> list[Line]:
    out = list(lines)
    first, second = _clean(out[i].text), _clean(out[j].text)
    glue = "" if first.endswith("/") else " "
    out[i] = replace(out[i], text=f"{first}{glue}{second}")
    out[j] = mark(out[j], JOINED)
    return out


def _after_joined(lines: list[Line], i: int) -> int:
    """Index of the first line after `i` that is not the tail of a joined heading."""
    j = i + 1
    while j < len(lines) and lines[j].noise == JOINED:
        j += 1
    return j


def _clean(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def _surrounded(lines: list[Line], first: int, last: int) -> bool:
    """Blank lines (or label debris: capitals, numbers) on both sides."""
    before = lines[first - 1] if first > 0 else None
    after = lines[last + 1] if last + 1 < len(lines) else None
    return _boundary(before) and _boundary(after)


def _boundary(line: Line | None) -> bool:
    if line is None or not line.is_text:
        return True
    text = _clean(line.text)
    return is_all_caps(text) or not any(ch.isalpha() for ch in text)


def _belong_together(lines: list[Line], i: int, j: int) -> bool:
    first, second = lines[i].text, lines[j].text
    a, b = _clean(first), _clean(second)
    if not a or not b:
        return False
    # Wrapped capitals: `ROUND  ` / `DE JEU`, `APERÇU ET` / `PRÉPARATION`.
    if is_all_caps(a) and is_all_caps(b) and len(a) <= MAX_CAPS_PART and len(b) <= MAX_CAPS_PART:
        if not _next_is_blank(lines, j):
            return False
        return (
            first.endswith("  ")
            or _opens_prose_or_continues(lines, j)
            or ends_with_connector(a)
            or a.endswith(",")
            or starts_with_connector(b)
            or b.startswith("&")
        )
    # Letter-spaced display type (repaired or not) continued on the next line.
    if (lines[i].spaced or is_letter_spaced(a)) and len(b) <= MAX_TAIL:
        return is_letter_spaced(b) or b[0].islower() or ends_with_connector(a) or a.endswith("/")
    if len(a) > MAX_TITLE_PART or len(b) > MAX_TAIL or a.endswith(TERMINAL):
        return False
    if not is_title_like(a) or is_all_caps(a):
        return False
    if starts_with_connector(b) and b[0].islower():
        return True
    if (ends_with_connector(a) or a.endswith("/")) and (b[0].isupper() or is_title_like(b)):
        return True
    if b.startswith("(") and b.endswith(")"):
        return True
    # A one-word label and its complement, alone between blank lines: `Pions` / `Domination`.
    return (
        len(words(a)) == 1
        and len(a) <= 15
        and b[0].isupper()
        and not is_all_caps(b)
        and _surrounded(lines, i, j)
    )


def _opens_prose_or_continues(lines: list[Line], j: int) -> bool:
    """After a capitals pair: a paragraph, or a capitals line that continues the heading."""
    k = _after_joined(lines, j)
    while k < len(lines) and not lines[k].is_text:
        k += 1
    if k >= len(lines):
        return False
    text = _clean(lines[k].text)
    if is_all_caps(text):
        return starts_with_connector(text)
    return len(text) >= 40 and sum(1 for w in words(text) if w[0].islower()) >= 4


def _next_is_blank(lines: list[Line], index: int) -> bool:
    after = _after_joined(lines, index)
    return after >= len(lines) or not lines[after].is_text


def _joins_across_blank(lines: list[Line], i: int, blank: int) -> bool:
    """`TABLEAU STRATÉGIQUE` + blank + `ET UNITÉS NON-COMBATTANTES` (capitals only)."""
    k = blank + 1
    if not lines[blank].is_blank or k >= len(lines) or not lines[k].is_text:
        return False
    a, b = _clean(lines[i].text), _clean(lines[k].text)
    if not (is_all_caps(a) and is_all_caps(b)) or len(a) > 2 * MAX_CAPS_PART:
        return False
    if len(b) > 2 * MAX_CAPS_PART or not _next_is_blank(lines, k):
        return False
    if i > 0 and lines[i - 1].is_text:
        return False
    return starts_with_connector(b) or ends_with_connector(a) or b.startswith("&")
