"""Hosting-page wrappers and advertising blocks around a rulebook's text.

Two kinds of foreign text come with the files: the page of a PDF-hosting site around the
French AGoT rulebook (file name, upload line with an IP fragment, size, "similar
documents") and a games library's advert before the Hand of the King rules (phones, an
e-mail, a web site). Both sit at the very start or the very end of the text; they are
marked as noise, never indexed. The page count and upload date are kept as metadata.
"""

from __future__ import annotations

import re

from .lines import ADVERT, HOSTING, Line, mark

HEAD_WINDOW = 40  # wrappers and adverts live in the first lines only
TAIL_WINDOW = 60

_HOSTING_HEAD = re.compile(
    r"fichier-pdf\.fr|^Nom original\s*:|^Taille du document\s*:|^Confidentialit[ée]\s*:"
    r"|^Aper[çc]u du document\s*$",
    re.IGNORECASE,
)
_HOSTING_TAIL = re.compile(r"^(T[ée]l[ée]charger le fichier|Documents similaires)\b", re.IGNORECASE)
_ADVERT = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.]+"  # e-mail
    r"|(?<!\d)0\d(?:[ .]?\d\d){4}(?!\d)"  # French phone number
    r"|^(?:https?://|www\.)?[\w-]+\.(?:fr|com|net|org|eu|be|ch)/?\s*$",  # a bare web site
    re.IGNORECASE,
)
_PAGES = re.compile(r"\((\d+)\s+pages?\)", re.IGNORECASE)
_DATE = re.compile(r"\ble (\d{2}/\d{2}/\d{4})\b")
_SIZE = re.compile(r"Taille du document\s*:\s*([\d.,]+\s*[KMG]o)", re.IGNORECASE)


def strip_hosting_wrapper(lines: list[Line]) -> list[Line]:
    """Mark a hosting site's header (up to its last tell-tale line) and footer as noise."""
    out = list(lines)
    head = [i for i, line in enumerate(out[:HEAD_WINDOW]) if _HOSTING_HEAD.search(line.text)]
    if head:
        for i in range(head[-1] + 1):
            out[i] = mark(out[i], HOSTING)
    start = max(len(out) - TAIL_WINDOW, 0)
    tail = next((i for i in range(start, len(out)) if _HOSTING_TAIL.search(out[i].text)), None)
    if tail is not None:
        for i in range(tail, len(out)):
            out[i] = mark(out[i], HOSTING)
    return out


def strip_advert(lines: list[Line]) -> list[Line]:
    """Mark an advert at the start (two or more contact lines in the first lines) as noise."""
    out = list(lines)
    hits = [i for i, line in enumerate(out[:HEAD_WINDOW]) if _ADVERT.search(line.text.strip())]
    if len(hits) < 2:
        return out
    for i in range(hits[-1] + 1):
        if not out[i].noise:
            out[i] = mark(out[i], ADVERT)
    return out


def hosting_metadata(lines: list[Line]) -> dict[str, str | int]:
    """Page count, size and upload date found in a hosting wrapper (nothing personal)."""
    meta: dict[str, str | int] = {}
    for line in lines:
        if line.noise != HOSTING:
            continue
        if (found := _PAGES.search(line.text)) and "pages" not in meta:
            meta["pages"] = int(found.group(1))
        if (found := _SIZE.search(line.text)) and "size" not in meta:
            meta["size"] = found.group(1)
        if (found := _DATE.search(line.text)) and "uploaded" not in meta:
            meta["uploaded"] = found.group(1)
    return meta
