"""Small word lists the cleaning steps share (French and English function words)."""

from __future__ import annotations

import re


def _set(*groups: str) -> frozenset[str]:
    return frozenset(word for group in groups for word in group.split())


# Words that join the two halves of a heading wrapped over two lines.
CONNECTORS = _set(
    "de du des d' d’ et en à a au aux la le les l' l’ pour par avec sur sous dans ou",
    "of the and to for with in on",
)
# Short words that are real words, not the debris of letter-spaced display type.
FUNCTION_WORDS = CONNECTORS | _set(
    "un une il on ne se si y ce ni ô qui que je tu nous vous elle ils",
    "is it an as at be by no or so up",
)
TITLE_SMALL_WORDS = FUNCTION_WORDS | _set("un une d l qu contre entre après avant vers chez")

_WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)*")
_ELIDED = re.compile(r"^(?:[dlDL]|[Qq]u)[’']")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def first_word(text: str) -> str:
    found = _WORD.search(text)
    return found.group(0) if found else ""


def starts_with_connector(text: str) -> bool:
    head = text.strip().split(" ", 1)[0].lower()
    if head in CONNECTORS:
        return True
    return bool(re.match(r"^(d|l)[’']", head))


def ends_with_connector(text: str) -> bool:
    tail = text.strip().rsplit(" ", 1)[-1].lower()
    return tail in CONNECTORS


def is_title_like(text: str) -> bool:
    """A heading's shape: starts with a capital (or a number), most content words capitalised."""
    stripped = re.sub(r"^\s*(\d{1,2}|[IVX]{1,4})\.\s+", "", text.strip())
    stripped = re.sub(r"\([^)]*\)", "", stripped).strip()  # `(partie à quatre joueurs)`
    if not stripped or not (stripped[0].isupper() or stripped[0] in "«(\"'"):
        return False
    content = [
        w
        for w in (_ELIDED.sub("", w) for w in words(stripped)[1:])
        if w.lower() not in TITLE_SMALL_WORDS
    ]
    if not content:
        return True
    capitalised = sum(1 for w in content if w[0].isupper())
    return capitalised / len(content) >= 0.5
