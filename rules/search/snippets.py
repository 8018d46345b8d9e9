"""Snippets and highlighted headings: the original text, HTML-escaped, with the words whose
normalised form matched the query wrapped in <mark>…</mark> (pure functions)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from functools import lru_cache
from html import escape

from .normalise import word_tokens, words

# Words of the original text, kept with their offsets: letters/digits, with inner
# apostrophes, hyphens and (Persian) half-spaces.
_WORD = re.compile(r"[^\W_]+(?:['’‘ʼ\-\u200c][^\W_]+)*")
_FA_AFFIXES = {"ها", "های", "هایی", "تر", "ترین"}
_FA_PREFIXES = {"می", "نمی"}
ELLIPSIS = "…"
CELL_SEPARATOR = " · "
ROW_SEPARATOR = " / "
# A Markdown table: its rows ("| a | b |") and the rule under its head ("|---|:--:|").
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*?)\|?[ \t]*$")
_TABLE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*(?::?-{2,}:?[ \t]*)?")
SNIPPET_MATCHES = 12  # matched words looked at to place a snippet


_TOKEN_CACHE: dict[tuple[str, str], frozenset[str]] = {}


def _tokens_of(word: str, lang: str) -> frozenset[str]:
    key = (word, lang)
    found = _TOKEN_CACHE.get(key)
    if found is None:
        if len(_TOKEN_CACHE) > 200_000:
            _TOKEN_CACHE.clear()
        found = frozenset(t for w in words(word, lang) for t in word_tokens(w, lang))
        _TOKEN_CACHE[key] = found
    return found


def _variant_classes() -> dict[str, set[str]]:
    """For each letter of a normalised token, the letters it stands for in the original
    text (case, accents, Arabic/Persian letter variants)."""
    variants: dict[str, set[str]] = {}
    for code in range(0x41, 0x250):
        char = chr(code)
        base = "".join(
            ch for ch in unicodedata.normalize("NFKD", char) if not unicodedata.combining(ch)
        ).lower()
        if len(base) == 1 and base.isalpha() and base.isascii():
            variants.setdefault(base, {base}).update({char, char.lower(), char.upper()})
    persian = {"ی": "يىئ", "ک": "كڪ", "ه": "ةۀہە", "ا": "أإآٱ", "و": "ؤ", "ت": "ٹ"}
    for base, others in persian.items():
        variants.setdefault(base, {base}).update(others)
    for digit in range(10):
        variants[str(digit)] = {str(digit), chr(0x06F0 + digit), chr(0x0660 + digit)}
    variants["œ"] = {"œ", "Œ"}
    variants["æ"] = {"æ", "Æ"}
    return variants


_VARIANTS = _variant_classes()
# Harakat, tanwin, shadda, superscript alef (folded to one of them, below) and tatweel.
_FA_MARK = "\u064b"
_FA_GAP = f"[{_FA_MARK}\u0640]*"
_FA_PREFIX_GAP = "[\\s\u200c]*"


def _folding() -> dict[int, str]:
    """The prefilter's folding, one character for one (offsets stay): each lower-case
    variant beyond Latin-1 (ā, ą, ي, ك, ۲…) -> the letter it stands for, each Arabic mark
    -> one of them. A regex class holding a character beyond Latin-1 costs about 50 µs to
    compile (a big charset), and the prefilter is compiled once per query: with the rare
    variants folded in the text, its classes hold Latin-1 letters only."""
    table = {code: _FA_MARK for code in [*range(0x064C, 0x0660), 0x0670]}
    for base, chars in _VARIANTS.items():
        for ch in chars:
            if len(ch) == 1 and ch.lower() == ch and ch != base and ord(ch) > 0xFF:
                table[ord(ch)] = base
    return table


_FOLDING = _folding()
_TO_FOLD = re.compile("[" + re.escape("".join(map(chr, sorted(_FOLDING)))) + "]")


def _lower_classes() -> dict[str, str]:
    """For each letter of a normalised token, a regex class of the lower-case Latin-1 letters
    it stands for (accents; the other variants are folded, `_folding`): patterns run on
    `text.lower()`, which is as fast as a copy."""
    classes = {}
    for base, chars in _VARIANTS.items():
        latin = {ch for ch in chars if len(ch) == 1 and ch.lower() == ch and ord(ch) <= 0xFF}
        lower = sorted(latin | {base})
        classes[base] = "[" + re.escape("".join(lower)) + "]" if len(lower) > 1 else base
    return classes


_CLASSES = _lower_classes()


def _prefix_pattern(token: str) -> str:
    """A regex, on lower-case text, for the first letters of the words that may normalise
    to `token`."""
    if token.isascii():
        prefix = token[:4]
        latin = "".join(_CLASSES.get(ch, re.escape(ch)) for ch in prefix)
        if "oe" in prefix or "ae" in prefix:  # œuvre, cæsar: the ligature stays in the text
            ligature = prefix.replace("oe", "œ").replace("ae", "æ")
            return f"(?:{latin}|{''.join(_CLASSES.get(ch, re.escape(ch)) for ch in ligature)})"
        return latin
    if token.startswith(("نمی", "می")):
        head = "نمی" if token.startswith("نمی") else "می"
        rest = token[len(head) : len(head) + 2]
        return _persian(head) + _FA_PREFIX_GAP + _persian(rest)
    return _persian(token[:4])


def _persian(letters: str) -> str:
    return _FA_GAP.join(_CLASSES.get(ch, re.escape(ch)) for ch in letters)


@lru_cache(maxsize=512)
def _prefilter(wanted: frozenset[str]) -> re.Pattern:
    """A regex finding, in lower-case text, where a word standing for a `wanted` token may
    start."""
    patterns = sorted({_prefix_pattern(token) for token in wanted}, key=len, reverse=True)
    return re.compile(rf"(?<![^\W_])(?:{'|'.join(patterns)})")


def marked_spans(
    text: str,
    lang: str,
    match_tokens: Collection[str],
    limit: int = 0,
    candidates: frozenset[str] | None = None,
) -> list[tuple[int, int]]:
    """(start, end) offsets of the words of `text` that stand for one of `match_tokens`
    (the first `limit` ones when limit > 0).

    A cheap regex finds, in the lower-case text, where such words may start; only the
    words there are tokenised. `candidates` (a superset of `match_tokens`, e.g. every token
    of the query) builds that regex: one regex per query rather than per result.
    """
    if not text or not match_tokens:
        return []
    wanted = frozenset(match_tokens)
    spans: list[tuple[int, int]] = []
    lower = text.lower()
    if len(lower) != len(text):  # a letter whose lower case is longer ("İ"): keep offsets
        lower = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    if _TO_FOLD.search(lower) is not None:  # rare in the books (a Persian text's marks)
        lower = lower.translate(_FOLDING)
    for hit in _prefilter(candidates or wanted).finditer(lower):
        match = _WORD.match(text, hit.start())
        if match is not None and (not spans or match.start() >= spans[-1][1]):
            span = _wanted_span(text, lang, wanted, match)
            if span:
                spans.append(span)
                if len(spans) == limit:
                    break
    return _merge(spans)


def _wanted_span(text: str, lang: str, wanted: frozenset[str], match) -> tuple[int, int] | None:
    """The span of the word `match` if it stands for a wanted token; for Persian, of the
    word and the next one when they are indexed together ("می شود", "توکن ها")."""
    word = match.group()
    if lang == "fa":
        after = _WORD.search(text, match.end(), match.end() + 12)
        joined = (
            after is not None
            and (word in _FA_PREFIXES or after.group() in _FA_AFFIXES)
            and text[match.end() : after.start()].isspace()
        )
        if joined and not wanted.isdisjoint(_tokens_of(f"{word} {after.group()}", lang)):
            return (match.start(), after.end())
    if not wanted.isdisjoint(_tokens_of(word, lang)):
        return match.span()
    return None


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Touching spans as one. `spans` are in order, none overlapping the one before (as
    `marked_spans` finds them, each word after the last): sorting them would change
    nothing, and costs a tenth of a snippet."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


_ESCAPED = re.compile(r"[&<>\"']")


def render(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` HTML-escaped, with each span wrapped in <mark>."""
    if _ESCAPED.search(text) is None:  # most rule text: nothing to escape
        return _render_plain(text, spans)
    out: list[str] = []
    position = 0
    for start, end in spans:
        out.append(escape(text[position:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        position = end
    out.append(escape(text[position:]))
    return "".join(out)


def _render_plain(text: str, spans: list[tuple[int, int]]) -> str:
    out: list[str] = []
    position = 0
    for start, end in spans:
        out.append(text[position:start])
        out.append(f"<mark>{text[start:end]}</mark>")
        position = end
    out.append(text[position:])
    return "".join(out)


def highlight(
    text: str, lang: str, match_tokens: Collection[str], candidates: frozenset[str] | None = None
) -> str:
    """The whole of `text` (e.g. a heading), escaped, with the matched words marked."""
    return render(text, marked_spans(text, lang, match_tokens, candidates=candidates))


def plain_text(text: str) -> str:
    """Body text as a snippet shows it: a Markdown table becomes its rows, cells separated by
    " · " and rows by " / " (no pipes, no rule lines)."""
    if "|" not in text:
        return text
    out: list[str] = []
    in_table = False
    for line in text.split("\n"):
        row = _TABLE_ROW.match(line)
        if row is None:
            out.append(line)
            in_table = False
        elif not _TABLE_RULE.fullmatch(line):
            cells = CELL_SEPARATOR.join(c.strip() for c in row.group(1).split("|") if c.strip())
            if in_table:
                out[-1] = f"{out[-1]}{ROW_SEPARATOR}{cells}"
            else:
                out.append(cells)
            in_table = True
    return "\n".join(out)


def snippet(
    text: str,
    lang: str,
    match_tokens: Collection[str],
    size: int = 240,
    line: int | None = None,
    candidates: frozenset[str] | None = None,
) -> str:
    """About `size` characters of `text` around the densest group of matched words (among
    the first ones), escaped, with the matched words marked and an ellipsis where the text
    was cut. Tables are read as plain rows (`plain_text`).

    `line`: the line where the search found the query's words together (0-based): the
    snippet is taken from there (and the lines after it, up to `size`). `candidates`: see
    `marked_spans`."""
    text = text or ""
    if line is not None:
        shown = _from_line(text, line, lang, match_tokens, size, candidates)
        if shown is not None:
            return shown
    text = plain_text(text.strip())
    if not text:
        return ""
    spans = marked_spans(text, lang, match_tokens, SNIPPET_MATCHES, candidates)
    return _window(text, spans, size)


def _window(text: str, spans: list[tuple[int, int]], size: int) -> str:
    """The window of about `size` characters around the densest spans, rendered."""
    if len(text) <= size:
        return _collapse_spaces(render(text, spans))
    start = _best_window(spans, size) if spans else 0
    # Open a little before the first match, on a word boundary.
    if start > 0:
        start = max(0, start - size // 5)
        space = _last_space(text, 0, start + 1)
        start = space + 1 if space > 0 else 0
    end = min(len(text), start + size)
    if end < len(text):
        space = _last_space(text, start, end)
        end = space if space > start else end
    inside = [
        (max(s, start) - start, min(e, end) - start) for s, e in spans if e > start and s < end
    ]
    body = _collapse_spaces(render(text[start:end], inside))
    return (ELLIPSIS if start > 0 else "") + body + (ELLIPSIS if end < len(text) else "")


def _from_line(
    text: str,
    line: int,
    lang: str,
    match_tokens: Collection[str],
    size: int,
    candidates: frozenset[str] | None = None,
) -> str | None:
    """The snippet that opens at the `line`-th line (where the search found the query's
    words together): about `size` characters from there, or None when no matched word is
    in them (an index older than the text)."""
    lines = text.splitlines()
    if line >= len(lines):
        return None
    taken, length = [], 0
    for following in lines[line:]:  # enough lines to fill the snippet, not the whole rest
        taken.append(following)
        length += len(following) + 1
        if length > size * 2:
            break
    rest = plain_text("\n".join(taken).strip())
    more = line + len(taken) < len(lines)
    cut = len(rest)
    if cut > size:
        space = _last_space(rest, 0, size)
        cut = space if space > size // 2 else size
    part = rest[:cut]
    spans = marked_spans(part, lang, match_tokens, candidates=candidates)
    if not spans:
        return None
    before = ELLIPSIS if "".join(lines[:line]).strip() else ""
    after = ELLIPSIS if cut < len(rest) or more else ""
    return before + _collapse_spaces(render(part, spans)) + after


def _collapse_spaces(text: str) -> str:
    r"""Each run of whitespace as one space, as `re.sub(r"\s+", " ", text)` does (str.split
    knows the same whitespace, and is several times faster)."""
    parts = text.split()
    if not parts:
        return " " if text else ""
    lead = " " if text[0].isspace() else ""
    return lead + " ".join(parts) + (" " if text[-1].isspace() else "")


def _last_space(text: str, start: int, end: int) -> int:
    return max(text.rfind(" ", start, end), text.rfind("\n", start, end))


def _best_window(spans: list[tuple[int, int]], size: int) -> int:
    """Start offset of the window of `size` characters holding the most matched words."""
    best_start, best_count = spans[0][0], 0
    right = 0
    for left, (start, _end) in enumerate(spans):
        right = max(right, left)
        while right + 1 < len(spans) and spans[right + 1][1] - start <= size * 4 // 5:
            right += 1
        distinct = right - left + 1
        if distinct > best_count:
            best_start, best_count = start, distinct
    return best_start
