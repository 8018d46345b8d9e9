"""One helper picks the reader's language; one helper reads a field in that language.

Cards, rulesets and factions carry their texts in English and French (`name_en`,
`name_fr`): `localized` reads one in the reader's language, falling back to English.
`card_language` turns any language code ("fr-CA", "fa", None) into one of the card
languages; `current_language` does the same for the request's active language.

Pure: importable without Django (Django is only imported inside `current_language`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CARD_LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"


def card_language(lang: str | None) -> str:
    """ "fr" for any French code ("fr", "fr-ca", "FR"), else "en"."""
    return "fr" if (lang or "").strip().lower().startswith("fr") else DEFAULT_LANGUAGE


def current_language() -> str:
    """The card language of the active Django language (the request's)."""
    from django.utils.translation import get_language

    return card_language(get_language())


def pick(lang: str | None, en: str, fr: str | None) -> str:
    """`fr` for a French reader when it is not empty, else `en`."""
    if card_language(lang) == "fr" and fr:
        return fr
    return en


def localized(obj: Any, field: str, lang: str | None) -> str:
    """`obj.<field>_fr` for a French reader when set, else `obj.<field>_en` (objects or
    mappings alike); "" when neither is set."""

    def read(name: str) -> Any:
        if isinstance(obj, Mapping):
            return obj.get(name)
        return getattr(obj, name, None)

    return pick(lang, read(f"{field}_en") or "", read(f"{field}_fr"))
