"""The one exception the query language raises, with an English and a French message."""

from __future__ import annotations

from common.i18n import card_language, pick


class QuerySyntaxError(ValueError):
    """A query that cannot be read. `position` is a 0-based character offset into the query,
    `length` how many characters the faulty part spans (at least 1, for highlighting)."""

    def __init__(self, message_en: str, message_fr: str, position: int, length: int = 1):
        super().__init__(message_en)
        self.message_en = message_en
        self.message_fr = message_fr
        self.position = position
        self.length = max(1, length)

    def __str__(self) -> str:
        return self.message("en")

    def message_in(self, lang: str | None) -> str:
        """The message alone (no position) in the reader's language: French when asked
        and present, else English, else the exception's own text."""
        return pick(lang, self.message_en, self.message_fr) or str(self)

    def message(self, lang: str = "en") -> str:
        """The message with its position, in French when `lang` starts with "fr"."""
        if card_language(lang) == "fr":
            return f"{self.message_fr} à la position {self.position}"
        return f"{self.message_en} at position {self.position}"

    def as_dict(self) -> dict[str, str | int]:
        """A JSON-ready description for the API and the search box."""
        return {
            "message_en": self.message_en,
            "message_fr": self.message_fr,
            "position": self.position,
            "length": self.length,
        }
