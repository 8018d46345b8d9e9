"""What kind of text a section holds (rules.models.SectionKind), from its heading."""

from __future__ import annotations

import re

from rules.models import SectionKind

_EXAMPLE = re.compile(r"^(exemples?|examples?|مثال)\b", re.IGNORECASE)
_CREDITS = re.compile(r"^(crédits|credits|remerciements|acknowledg)", re.IGNORECASE)
_FRONT = re.compile(r"^(table des mati[eè]res|sommaire|contents|table of contents)$", re.I)
_REFERENCE = re.compile(
    r"^(résumé du jeu|aide de jeu|quick reference|reference|rules summary|summary)$",
    re.IGNORECASE,
)
_CARDS = re.compile(r"^(référence des cartes|card reference)", re.IGNORECASE)

_HINTS = {
    "sidebar": SectionKind.SIDEBAR,
    "card": SectionKind.CARD,
    "front": SectionKind.FRONT,
    "example": SectionKind.EXAMPLE,
    "flavour": SectionKind.FLAVOUR,
}


def classify(heading: str, *, depth: int, hint: str = "", body: str = "") -> str:
    text = heading.strip()
    if _FRONT.match(text):
        return SectionKind.FRONT
    if _CREDITS.match(text):
        return SectionKind.CREDITS
    if _CARDS.match(text):
        return SectionKind.CARD
    if _REFERENCE.match(text):
        return SectionKind.REFERENCE
    if _EXAMPLE.match(text):
        return SectionKind.EXAMPLE
    if hint in _HINTS:
        return _HINTS[hint]
    return SectionKind.CHAPTER if depth == 0 else SectionKind.RULE
