"""Paragraphs broken in the middle of a sentence: `• Les Attaques de Mêlée peuvent
uniquement être effectuées` / (blank line) / `par des unités engagées.`

PDF extraction puts a blank line where a bullet or a sentence wraps to the next line of a
column. A blank line is not a paragraph break when the text before it ends without a
sentence's closing punctuation and the text after it carries on the sentence: it starts in
lower case (Latin script), or, in Persian, where letters have no case, the line before it
is longer than any heading (a line of running text). Such blank lines are marked
`rejoined` (never deleted), so the paragraph re-flow joins the two halves; the import
report counts them.
"""

from __future__ import annotations

import re

from .lines import REJOINED, Line, is_all_caps, mark

MAX_GAP = 2  # blank lines between the two halves of a sentence
MIN_CHARS_WITHOUT_CASE = 50  # a Persian line longer than a heading, without punctuation
_CLOSED = re.compile(r"[.!?:;…»\"”)\]؟!۔]\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-–—•♦◆✓✗*]|\d{1,2}[.)]|[۰-۹]{1,2}[.)]|\|)")
_LATIN_LOWER = re.compile(r"^\s*[a-zà-ÿœæ]")
_ARABIC_LETTER = re.compile(r"^\s*[\u0621-\u064a\u067e-\u06d3]")


def join_broken_paragraphs(lines: list[Line]) -> list[Line]:
    out = list(lines)
    for i, line in enumerate(out):
        if not line.is_text or _CLOSED.search(line.text):
            continue
        blanks, j = [], i + 1
        while j < len(out) and not out[j].is_text:
            if out[j].is_blank:
                blanks.append(j)
            j += 1
        if not blanks or len(blanks) > MAX_GAP or j >= len(out):
            continue
        if _continues(line.text, out[j].text):
            for k in blanks:
                out[k] = mark(out[k], REJOINED)
    return out


def _continues(before: str, after: str) -> bool:
    if _LIST_ITEM.match(after) or is_all_caps(before):
        return False
    if _LATIN_LOWER.match(after):
        return True
    return bool(
        _ARABIC_LETTER.match(after)
        and _ARABIC_LETTER.search(before)
        and len(before.strip()) >= MIN_CHARS_WITHOUT_CASE
    )
