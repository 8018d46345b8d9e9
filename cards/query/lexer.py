"""Splits a query into tokens. Positions are 0-based offsets into the original text.

Tokens: `(`, `)`, `-` (negation, only where a term starts), the keywords `or`/`ou` and
`and`/`et` (any case), "quoted phrases", `key op value` fields and bare words. A field is
a key of letters (`cost`, `coût`) directly followed by an operator (`:` `=` `!=` `<` `<=`
`>` `>=`) and a value (a bare run of characters or a quoted phrase).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from .errors import QuerySyntaxError


class T(StrEnum):
    WORD = "word"
    PHRASE = "phrase"
    FIELD = "field"
    LPAREN = "("
    RPAREN = ")"
    NOT = "-"
    OR = "or"
    AND = "and"
    EOF = "end"


@dataclass(frozen=True)
class Token:
    type: T
    position: int
    length: int
    text: str = ""  # WORD / PHRASE: the word or the phrase inside the quotes; FIELD: value
    key: str = ""  # FIELD only
    op: str = ""  # FIELD only
    op_position: int = 0  # FIELD only
    value_position: int = 0  # FIELD only (the opening quote when quoted)
    value_length: int = 0  # FIELD only


QUOTES = '"“”«»„'
OR_WORDS = frozenset({"or", "ou"})
AND_WORDS = frozenset({"and", "et"})
_FIELD = re.compile(r"([^\W\d_]\w*)(<=|>=|!=|:|=|<|>)")
_STOP = frozenset("()") | frozenset(QUOTES)


def _blank_controls(query: str) -> str:
    """Control characters and lone surrogates become spaces (same length: positions hold)."""
    return "".join(" " if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in query)


def _ends_term(ch: str) -> bool:
    return ch.isspace() or ch in _STOP


def tokenize(query: str) -> list[Token]:
    text = _blank_controls(query)
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            tokens.append(Token(T.LPAREN, i, 1))
            i += 1
        elif ch == ")":
            tokens.append(Token(T.RPAREN, i, 1))
            i += 1
        elif ch == "-":
            tokens.append(Token(T.NOT, i, 1))
            i += 1
        elif ch in QUOTES:
            phrase, end = _quoted(text, i)
            tokens.append(Token(T.PHRASE, i, end - i, phrase))
            i = end
        elif match := _FIELD.match(text, i):
            token = _field(text, match)
            tokens.append(token)
            i = token.position + token.length
        else:
            end = i
            while end < n and not _ends_term(text[end]):
                end += 1
            word = text[i:end]
            folded = word.casefold()
            kind = T.OR if folded in OR_WORDS else T.AND if folded in AND_WORDS else T.WORD
            tokens.append(Token(kind, i, end - i, word))
            i = end
    tokens.append(Token(T.EOF, n, 0))
    return tokens


def _quoted(text: str, start: int) -> tuple[str, int]:
    """The phrase inside the quote opening at `start`, and the offset after its end."""
    end = start + 1
    while end < len(text) and text[end] not in QUOTES:
        end += 1
    if end >= len(text):
        raise QuerySyntaxError("Unclosed quote", "Guillemet non fermé", start, len(text) - start)
    return text[start + 1 : end], end + 1


def _field(text: str, match: re.Match[str]) -> Token:
    key, op = match.group(1), match.group(2)
    start, value_start = match.start(), match.end()
    if value_start < len(text) and text[value_start] in QUOTES:
        value, end = _quoted(text, value_start)
    else:
        end = value_start
        while end < len(text) and not _ends_term(text[end]):
            end += 1
        value = text[value_start:end]
        if not value:
            raise QuerySyntaxError(
                f"Missing value after '{key}{op}'",
                f"Valeur manquante après « {key}{op} »",
                start,
                value_start - start,
            )
    return Token(
        T.FIELD,
        start,
        end - start,
        value,
        key=key,
        op=op,
        op_position=match.start(2),
        value_position=value_start,
        value_length=end - value_start,
    )
