"""The game-neutral first step of reading a pasted list: one `RawLine` per input line.

Players paste lists from e-mail, forums, chats, blogs and app exports. Before any game
reads a line as cards, the same noise is taken off every line: markdown and BBCode,
emoji, bullets (and how deep they sit), doubled spaces, curly quotes. What is left is
`body`; `text` keeps the line exactly as printed for the line-by-line reading.

Also here: telling a sentence about the list from a list line (`looks_like_prose`).

Pure: importable without Django.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from rules.cleaning.markup import strip_markup

# [b], [/b], [color=#fff], [size=3], [list], [/list], [url=…] … [/url] (the text kept).
_BBCODE = re.compile(
    r"\[/?(?:b|i|u|s|color|size|font|list|quote|center|code|url|img)(?:=[^\]]*)?\]", re.I
)
_BBCODE_ITEM = re.compile(r"\[\*\]")
# [text](url) → text; bare links are kept (a footer reads them).
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:https?://)?[^)]*\)")
# What strip_markup (shared with the rulebook cleaning) leaves: __bold__, ~~strike~~, `code`.
_MD_EMPHASIS = re.compile(r"(__|~~|`)")
_MD_HEADING = re.compile(r"^\s*#{1,6}\s*")
_MD_QUOTE = re.compile(r"^\s*>+\s?")
_BULLET = re.compile(r"^(?:[•\-*–—·▪◦‣○●■□➤►→✓✔]+|\d{1,2}[.)](?=\s)|o(?=\s))\s*")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_QUOTES = str.maketrans(
    {"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "“": '"', "”": '"', "«": '"', "»": '"'}
)
_SENTENCE_END = re.compile(r"[.!?…]['\")]*$")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _strip_symbols(text: str) -> str:
    """Emoji, pictographs, variation selectors and joiners out; letters, digits,
    punctuation and bullets kept."""
    if text.isascii():
        return text
    kept = []
    for char in text:
        if char in "•·▪◦‣○●■□➤►→✓✔×":
            kept.append(char)
            continue
        category = unicodedata.category(char)
        if category in ("So", "Cs", "Co", "Cn") or char in "\ufe0f\ufe0e\u200d\u20e3":
            kept.append(" ")
            continue
        kept.append(char)
    return "".join(kept)


@dataclass(frozen=True)
class RawLine:
    """One input line. `text`: as printed; `body`: without markup, emoji, bullet and
    surrounding space; `indent`: columns of leading space (a tab counts 4); `bulleted`:
    it started with a bullet or list number; `heading`: markdown `#`, or a line that was
    wholly bold."""

    number: int
    text: str
    body: str
    indent: int = 0
    bulleted: bool = False
    heading: bool = False

    # Nothing to read: empty, or only rules and fences (`----`, `===`, code fences).
    blank: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "blank", not any(char.isalnum() for char in self.body))


@lru_cache(maxsize=65536)
def clean(text: str) -> tuple[str, bool, bool]:
    """(body, bulleted, heading) of one line. Cached: a batch of lists repeats lines."""
    line = _strip_symbols(text).translate(_QUOTES)
    bulleted = bool(_BBCODE_ITEM.search(line))
    line = _BBCODE_ITEM.sub(" ", line)
    stripped = line.strip()
    heading = bool(_MD_HEADING.match(stripped)) or (
        len(stripped) > 4
        and (
            (stripped.startswith("**") and stripped.endswith("**"))
            or (stripped.startswith("__") and stripped.endswith("__"))
            or (stripped.lower().startswith("[b]") and stripped.lower().endswith("[/b]"))
        )
    )
    line = _BBCODE.sub("", line)
    line = _MD_LINK.sub(r"\1", line)
    line = _MD_HEADING.sub("", line)
    line = _MD_QUOTE.sub("", line)
    line = _MD_EMPHASIS.sub("", strip_markup(line))
    line = _SPACES.sub(" ", line).strip()
    bullet = _BULLET.match(line)
    if bullet and bullet.end() < len(line) and bullet.group(0).strip():
        # "- 5" alone is not a bullet and a name; "-5" neither.
        rest = line[bullet.end() :]
        if not (bullet.group(0).strip() in "-–—" and rest[:1].isdigit() and len(rest) < 4):
            line = rest.strip()
            bulleted = True
    elif bullet and bullet.group(0).strip() and bullet.end() == len(line):
        line = ""
        bulleted = True
    return line.strip(), bulleted, heading


def _indent_of(raw: str) -> int:
    expanded = raw.replace("\t", "    ")
    return len(expanded) - len(expanded.lstrip(" \u00a0"))


def split_lines(text: str | None) -> list[RawLine]:
    """Every line of `text`, numbered from 1, cleaned. Never raises."""
    lines = []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        body, bulleted, heading = clean(raw)
        lines.append(
            RawLine(
                number=number,
                text=raw.rstrip("\r\n"),
                body=body,
                indent=_indent_of(raw),
                bulleted=bulleted,
                heading=heading,
            )
        )
    return lines


def words(text: str) -> list[str]:
    return _WORD.findall(text)


@lru_cache(maxsize=65536)
def looks_like_prose(body: str, *, marked: bool = False) -> bool:
    """A sentence about the list rather than a line of it: it ends like a sentence and has
    several words, or it is very long (shorter remarks are told apart by their names not
    being cards). `marked`: the line carries a cost or a bullet, which
    makes a list line more likely (only long lines count as prose then)."""
    count = len(words(body))
    if marked:
        return count >= 14 and bool(_SENTENCE_END.search(body))
    if count >= 6 and _SENTENCE_END.search(body):
        return True
    return count >= 16
