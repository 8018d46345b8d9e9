"""The records of the faction / special rules cards, and their wording.

Rules cards (kind "special") keep these records in `Card.requirements` next to the
mini-language records, so their vocabulary and wording live with the other records;
`cards.faction_rules` holds the table of which rules card carries which records.
See docs/requirements.md for each type.
"""

from __future__ import annotations

from typing import Any

from common.i18n import localized, pick

from .errors import FactionRulesError
from .wording import RecordWords

SCOPES = frozenset({"army", "card", "game"})

#: type -> fields every record of that type must have (besides type/scope/rule_card/faction).
FACTION_RULE_TYPES: dict[str, frozenset[str]] = {
    "no_neutrals": frozenset(),
    "optional_commander": frozenset(
        {
            "commander",
            "commander_cards",
            "points",
            "requires",
            "discount_per_unused_attachment_point",
            "replaces_tactics_deck",
            "battlefield_commander",
        }
    ),
    "prefer_faction_version": frozenset({"over"}),
    "attachment_discount": frozenset({"amount", "count"}),
    "faction_allowance": frozenset({"factions", "kinds", "count", "counts_as_faction"}),
    "conditional_exclusion": frozenset({"when_present", "refs", "include_neutral_versions"}),
    "game_effect": frozenset({"note_en", "note_fr"}),
}
#: Every faction rule record type (what a rules card's `requirements` list may hold).
RULE_TYPES: frozenset[str] = frozenset(FACTION_RULE_TYPES)


#: faction rule record type -> (English, French) sentence, filled from `RecordWords`.
_RULE_SENTENCES: dict[str, tuple[str, str]] = {
    "no_neutrals": (
        "The army may not include any Neutral cards.",
        "L'armée ne peut inclure aucune carte Neutre.",
    ),
    "prefer_faction_version": (
        "A character with both a Neutral and a faction card may only be taken as the "
        "faction version.",
        "Un personnage qui existe en version Neutre et en version de la faction "
        "ne peut être pris que dans la version de la faction.",
    ),
    "attachment_discount": (
        "Reduces the cost of {count} attachment in the army by {amount}.",
        "Réduit de {amount} le coût de {count} attachement de l'armée.",
    ),
    "faction_allowance": (
        "The army may include {count} combat unit from {factions}, counted as non-Neutral.",
        "L'armée peut inclure {count} unité de combat de la faction {factions}, "
        "comptée comme non-Neutre.",
    ),
    "conditional_exclusion": (
        "If the army includes {when_present}, it may not include {refs}.",
        "Si l'armée comprend {when_present}, elle ne peut pas inclure {refs}.",
    ),
}
#: What an `optional_commander` record adds to its sentence, field by field, when set.
_COMMANDER_CLAUSES: dict[str, tuple[str, str]] = {
    "requires": (
        " The army must then include {requires}.",
        " L'armée doit alors inclure {requires}.",
    ),
    "discount_per_unused_attachment_point": (
        " His cost drops by {discount_per_unused_attachment_point} for each unused extra "
        "attachment point.",
        " Son coût baisse de {discount_per_unused_attachment_point} par point d'attachement "
        "supplémentaire inutilisé.",
    ),
    "replaces_tactics_deck": (
        " His tactics deck replaces the faction deck.",
        " Son paquet tactique remplace celui de la faction.",
    ),
    "battlefield_commander": (
        " On the battlefield, {battlefield_commander} counts as the commander.",
        " Sur le champ de bataille, {battlefield_commander} compte comme le général.",
    ),
}


def _optional_commander(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    sentence = pick(
        lang, "{commander} may be the commander", "{commander} peut être choisi comme général"
    )
    if record.get("points") is not None:
        sentence += pick(lang, " for {points} points", " pour {points} points")
    sentence += "."
    for key, clause in _COMMANDER_CLAUSES.items():
        if record.get(key):
            sentence += pick(lang, *clause)
    return sentence.format_map(words)


def describe_rule(record: dict[str, Any], lang: str = "en") -> str:
    """A short sentence (English, or French for `lang="fr"`) for one faction rule record."""
    kind = record.get("type")
    words = RecordWords(record, lang)
    if kind == "optional_commander":
        return _optional_commander(record, lang, words)
    if kind == "game_effect":
        return localized(record, "note", lang)
    if kind in _RULE_SENTENCES:
        return pick(lang, *_RULE_SENTENCES[kind]).format_map(words)
    raise FactionRulesError(f"unknown faction rule record type {kind!r}")
