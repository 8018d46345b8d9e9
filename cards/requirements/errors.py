"""The errors the requirement records raise: a bad cell, an unknown record, a bad rule."""

from __future__ import annotations


class RequirementSyntaxError(ValueError):
    """A `Requirements` cell holds a directive this parser does not know (or cannot read)."""

    def __init__(self, message: str, *, line: int, text: str, card_id: str = "") -> None:
        self.message = message
        self.line = line
        self.text = text
        self.card_id = card_id
        where = f"card {card_id}, " if card_id else ""
        super().__init__(f"{message} ({where}line {line}: {text!r})")


class UnknownRecordType(ValueError):
    """A record dict whose `"type"` is not in the vocabulary."""


class FactionRulesError(ValueError):
    """A faction rule record (or the faction rules table) is inconsistent."""
