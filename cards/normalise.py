"""Folding text for matching: case, accents, ligatures and apostrophes do not matter."""

import re
import unicodedata
from functools import lru_cache

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"})
_LIGATURES = {"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss"}
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower-case, accent-free, ligature-free text with straight apostrophes and single spaces.

    Cached: list checking folds the same card names and list lines over and over.
    """
    if not text:
        return ""
    if text.isascii():
        return _SPACES.sub(" ", text.replace("`", "'").lower()).strip()
    text = text.translate(_APOSTROPHES)
    for ligature, plain in _LIGATURES.items():
        text = text.replace(ligature, plain)
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", stripped.casefold()).strip()


def slug_key(text: str) -> str:
    """A stable ascii key such as 'jaime-lannister' for names."""
    folded = fold(text)
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
