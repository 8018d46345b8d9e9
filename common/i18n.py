"""One way to say something in the reader's language.

Two kinds of text reach a reader, and each has one helper:

- Interface sentences (a validator's finding, its fix) are gettext messages: `_("the army
  has no commander")` marks the English sentence for translation and returns a lazy
  `Message`; `Message.in_language(lang)` translates it with the same compiled catalogue
  Django reads (locale/<lang>/LC_MESSAGES/django.mo), then fills its `{named}` params. The
  French sentences live in locale/fr/LC_MESSAGES/django.po with every other French string;
  `manage.py makemessages` extracts `_("...")` calls like Django's own.
  `pgettext_lazy(context, msgid)` is the same for a sentence that needs two translations.
- Card data (a card's name, a faction's name) comes from the database in English and
  French (`name_en`, `name_fr`): `localized` reads a field in the reader's language,
  `CardLabel` gives plain card values their "Name - Title" label, and `Bilingual` carries
  such a value into a message's params.

`card_language` turns any language code ("fr-CA", "fa", None) into one of the card
languages, English or French; messages speak those two as well, so a Persian reader reads
English findings, as the card names are. `current_language` does the same for the
request's active language.

Pure: importable without Django (Django is only imported inside `current_language`).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

CARD_LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
# The catalogues of settings.LOCALE_PATHS, found from here so that no Django is needed.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "django"


def card_language(lang: str | None) -> str:
    """ "fr" for any French code ("fr", "fr-ca", "FR"), else "en"."""
    return "fr" if (lang or "").strip().lower().startswith("fr") else DEFAULT_LANGUAGE


def current_language() -> str:
    """The card language of the active Django language (the request's)."""
    from django.utils.translation import get_language

    return card_language(get_language())


def pick(lang: str | None, en: str, fr: str | None) -> str:
    """`fr` for a French reader when it is not empty, else `en`."""
    if not fr or lang == DEFAULT_LANGUAGE:  # the common cases first: checking is hot code
        return en
    return fr if card_language(lang) == "fr" else en


def localized(obj: Any, field: str, lang: str | None) -> str:
    """`obj.<field>_fr` for a French reader when set, else `obj.<field>_en` (objects or
    mappings alike); "" when neither is set."""
    if isinstance(obj, Mapping):
        en, fr = obj.get(f"{field}_en"), obj.get(f"{field}_fr")
    else:
        en, fr = getattr(obj, f"{field}_en", None), getattr(obj, f"{field}_fr", None)
    return pick(lang, en or "", fr)


class Localizable(Protocol):
    """Anything that can say itself in a reader's language (a `Message`, a `Bilingual`)."""

    def in_language(self, lang: str | None) -> str: ...


@dataclass(frozen=True)
class Bilingual:
    """A value the card data holds in English and French: a card's label, a faction's
    name, a list of card names. Never an interface sentence: those are `Message`s, so
    that their translations live in the catalogue with all the others."""

    en: str
    fr: str

    @classmethod
    def of(cls, say: Callable[[str], str]) -> Bilingual:
        """What `say(lang)` answers in each card language: `Bilingual.of(card.label)`."""
        return cls(*(say(lang) for lang in CARD_LANGUAGES))

    def in_language(self, lang: str | None) -> str:
        return pick(lang, self.en, self.fr)


class CardLabel:
    """Mixin for plain card values with `name_en`, `name_fr`, `title_en`, `title_fr`: the
    label players know a card by, "Name - Title", each part in the reader's language when
    the card has it."""

    def label(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        name, title = localized(self, "name", lang), localized(self, "title", lang)
        return f"{name} - {title}" if title else name


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang`, read once; without one, a null catalogue that
    answers every msgid with itself (English)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def _render(value: object, lang: str) -> object:
    # Numbers stay numbers, so that a msgid may format them ("{points:d}").
    in_language = getattr(value, "in_language", None)
    return in_language(lang) if callable(in_language) else value


@dataclass(frozen=True)
class Message:
    """An interface sentence, translated only when it is rendered.

    `msgid` is the English sentence with `{named}` placeholders; `params` fill them, and
    a param that is itself `Localizable` (a nested message, a card's label) is rendered
    in the same language. `context` tells apart one English sentence that needs two
    translations (gettext's msgctxt). Findings keep messages rather than strings because
    one report is shown in several languages (the page, the API's `lang`, a PDF).
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)
    context: str | None = None

    def in_language(self, lang: str | None) -> str:
        lang = card_language(lang)
        if lang == DEFAULT_LANGUAGE:
            text = self.msgid
        elif self.context:
            text = catalogue(lang).pgettext(self.context, self.msgid)
        else:
            text = catalogue(lang).gettext(self.msgid)
        return text.format_map({name: _render(v, lang) for name, v in self.params.items()})

    @property
    def en(self) -> str:
        """The English sentence: what findings are compared by across two checks."""
        return self.in_language(DEFAULT_LANGUAGE)

    def __str__(self) -> str:
        """In the request's language (a template printing `{{ finding.message }}`)."""
        return self.in_language(current_language())


# The two markers below are named so that `makemessages` (xgettext) extracts them as it
# does Django's own: the msgid of `_(...)`, the context and msgid of `pgettext_lazy(...)`.
# Like Django's lazy variants, they translate nothing until the message is rendered.


def _(msgid: str, /, **params: object) -> Message:
    """Mark `msgid` for translation and bind its params: `_("{count} commanders", count=n)`."""
    return Message(msgid, params)


def pgettext_lazy(context: str, msgid: str, /, **params: object) -> Message:
    """`_` for an English sentence that needs another translation in this `context`."""
    return Message(msgid, params, context)
