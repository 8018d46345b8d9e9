"""The TMG factions as requirement records name them: slugs, printed names, spellings.

Quoted faction names in the War Council data (`'House Bolton'`) become faction refs, and
`Faction: X` takes looser spellings; both read the tables here.
"""

from __future__ import annotations

from cards.normalise import fold
from common.i18n import pick

#: slug -> (English name, French name). The slugs are the project's TMG faction slugs.
FACTIONS: dict[str, tuple[str, str]] = {
    "lannister": ("House Lannister", "Maison Lannister"),
    "stark": ("House Stark", "Maison Stark"),
    "freefolk": ("Free Folk", "Peuple Libre"),
    "neutral": ("Neutral", "Neutre"),
    "nightswatch": ("Night's Watch", "Garde de Nuit"),
    "baratheon": ("House Baratheon", "Maison Baratheon"),
    "targaryen": ("House Targaryen", "Maison Targaryen"),
    "greyjoy": ("House Greyjoy", "Maison Greyjoy"),
    "martell": ("House Martell", "Maison Martell"),
    "bolton": ("House Bolton", "Maison Bolton"),
    "brotherhood": ("Brotherhood Without Banners", "Fraternité sans Bannières"),
}

#: Folded spellings that name a faction when they appear as a whole quoted argument.
FACTION_FULL_NAMES: dict[str, str] = {fold(en): slug for slug, (en, _fr) in FACTIONS.items()}
#: Looser spellings accepted where the argument can only be a faction (`Faction: X`).
FACTION_ALIASES: dict[str, str] = {
    **FACTION_FULL_NAMES,
    **{slug: slug for slug in FACTIONS},
    "free folk": "freefolk",
    "night's watch": "nightswatch",
    "nights watch": "nightswatch",
    "brotherhood": "brotherhood",
}


def faction_slug(name: str) -> str | None:
    """The project slug for a faction name ('House Bolton', "Night's Watch", 'Targaryen')."""
    return FACTION_ALIASES.get(fold(name))


def faction_name(slug: str, lang: str = "en", *, unknown: str | None = None) -> str:
    """The printed name of a faction in the reader's language; `unknown` (else the slug)
    for a slug the table does not hold."""
    names = FACTIONS.get(slug)
    if names is None:
        return slug if unknown is None else unknown
    return pick(lang, *names)
