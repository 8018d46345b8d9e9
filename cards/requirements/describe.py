"""Every record as a short sentence, in English or French, for card pages and the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common.i18n import pick

from .errors import UnknownRecordType
from .rule_records import FACTION_RULE_TYPES, describe_rule
from .wording import RecordWords

#: record type -> (English, French) sentence, filled from `RecordWords`.
_SENTENCES: dict[str, tuple[str, str]] = {
    "requires": ("Needs {refs} in the army.", "Exige {refs} dans l'armée."),
    "not_with": ("Not allowed with {refs}.", "Interdit dans une armée avec {refs}."),
    "pet_of": (
        "Companion of {ref}: only allowed if {ref} is in the army.",
        "Compagnon de {ref} : seulement si {ref} est dans l'armée.",
    ),
    "rules_card": ("Uses rules card {card_id}.", "Utilise la carte de règles {card_id}."),
    "controls": ("Brings and controls {card}.", "Amène et contrôle {card}."),
    "controlled_by": ("Brought and controlled by {cards}.", "Amené et contrôlé par {cards}."),
    "adds": ("Adds {card} to the army.", "Ajoute {card} à l'armée sans autre choix."),
    "copy_limit_per": (
        "At most {max_per} per {per} {unit_type} unit in the army.",
        "Au plus {max_per} par unité {unit_type} « {per} » dans l'armée.",
    ),
    "ignores_attachment_limit": (
        "Ignores the usual attachment limit.",
        "Ignore la limite habituelle d'attachements.",
    ),
    "solo": (
        "Solo unit: never takes an attachment.",
        "Unité individuelle : ne reçoit jamais d'attachement.",
    ),
    "fielded_by_ability": (
        "Not bought directly: only brought in by the {ability} ability.",
        "Ne s'achète pas : n'arrive que par la capacité {ability}.",
    ),
    "host_faction": (
        "May only join {faction} units.",
        "Ne peut rejoindre que des unités de la faction {faction}.",
    ),
    "must_attach_to": (
        "Must be attached to a {refs} unit.",
        "Doit être attaché à une unité {refs}.",
    ),
    "host_class": ("May only join {class} units.", "Ne peut rejoindre que des unités {class}."),
    "acts_as_commander": (
        "Counts as the commander for army building.",
        "Compte comme le général pour la construction d'armée.",
    ),
    "first_free": (
        "The first {group} card in the army is free.",
        "La première carte {group} de l'armée est gratuite.",
    ),
    "loyalty": (
        "Loyal to {to}: never with cards of another loyalty.",
        "Loyauté {to} : jamais avec des cartes d'une autre loyauté.",
    ),
    "must_carry": (
        "Must carry {refs} as an attachment.",
        "Doit recevoir {refs} comme attachement.",
    ),
}
_COUNTS_AS = (
    "Counts as {ref} for the army-building conditions of other cards.",
    "Compte comme {ref} pour les conditions de recrutement des autres cartes.",
)
_COUNTS_AS_COMMANDER = (
    "Counts as the army's commander for the army-building conditions of other cards.",
    "Compte comme le général de l'armée pour les conditions de recrutement des autres cartes.",
)
_ATTACHMENT_LIMIT_IN_UNIT = (
    "Ignores the usual attachment limit in a unit with {when_host_has}.",
    "Ignore la limite habituelle d'attachements dans une unité comprenant {when_host_has}.",
)
_IGNORED_COPIES = (
    " Copies carrying {ignore} do not count.",
    " Les exemplaires portant {ignore} ne comptent pas.",
)
_REDUCTION_CONDITIONS = {
    "when_attached_to": (
        "when attached to {when_attached_to}",
        "s'il est attaché à {when_attached_to}",
    ),
    "when_present": ("if the army includes {when_present}", "si l'armée comprend {when_present}"),
}


def _copy_limit(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    n = record["max"]
    text = pick(
        lang,
        f"At most {n} cop{'ies' if n > 1 else 'y'} per army.",
        f"Au plus {n} exemplaire{'s' if n > 1 else ''} par armée.",
    )
    if record.get("ignore"):
        text += pick(lang, *_IGNORED_COPIES).format_map(words)
    return text


def _cost_reduction(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    condition = next((key for key in _REDUCTION_CONDITIONS if record.get(key)), None)
    cond = pick(lang, *_REDUCTION_CONDITIONS[condition]).format_map(words) if condition else ""
    if record.get("free") and record.get("first_only"):
        head = pick(lang, "The first copy is free", "Le premier exemplaire est gratuit")
    elif record.get("free"):
        head = pick(lang, "Free", "Gratuit")
    else:
        n = record.get("amount", 1)
        s = "s" if n > 1 else ""
        head = pick(lang, f"Costs {n} point{s} less", f"Coûte {n} point{s} de moins")
    return f"{head} {cond}.".replace(" .", ".")


def _reduces_cost_of(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    n, amount = int(record.get("count", 1)), int(record.get("amount", 1))
    points = f"{amount} point{'s' if amount > 1 else ''}"  # the same word in French
    kind = record.get("kind") or ""
    noun_en = {"attachment": "attachment", "unit": "unit"}.get(kind, "card")
    noun_fr = {"attachment": "attachement", "unit": "unité"}.get(kind, "carte")
    plural_en, plural_fr = ("s", "s") if n > 1 else ("", "")
    what_en, what_fr = f"{n} {noun_en}{plural_en}", f"{n} {noun_fr}{plural_fr}"
    if record.get("refs"):
        named = words["refs"]
        what_en += f" ({named})"
        what_fr += f" ({named})"
    if record.get("scope") == "own_unit":
        return pick(
            lang,
            f"Lowers the cost of {what_en} in its unit by {points}.",
            f"Réduit de {points} le coût de {what_fr} de son unité.",
        )
    return pick(
        lang,
        f"Lowers the cost of {what_en} in the army by {points}.",
        f"Réduit de {points} le coût de {what_fr} de l'armée.",
    )


def _unit_group_limit(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    n = int(record.get("max", 1))
    group = words["group"]
    return pick(
        lang,
        f"At most {n} {group} attachment{'s' if n > 1 else ''} in any one unit.",
        f"Au plus {n} attachement{'s' if n > 1 else ''} {group} par unité.",
    )


def _counts_as(record: dict[str, Any], lang: str, words: RecordWords) -> str:
    if record.get("commander") or not record.get("ref"):
        return pick(lang, *_COUNTS_AS_COMMANDER)
    return pick(lang, *_COUNTS_AS).format_map(words)


_WRITERS: dict[str, Callable[[dict[str, Any], str, RecordWords], str]] = {
    "copy_limit": _copy_limit,
    "cost_reduction": _cost_reduction,
    "reduces_cost_of": _reduces_cost_of,
    "unit_group_limit": _unit_group_limit,
    "counts_as": _counts_as,
}


def describe(
    record: dict[str, Any],
    lang: str = "en",
    *,
    card_name: Callable[[str], str] | None = None,
) -> str:
    """A short sentence (English, or French for `lang="fr"`) for one record, for card pages.

    `card_name`, when given, turns a card id into a display name for card refs.
    Faction rule records (rules cards store them in `requirements` too) are described by
    `describe_rule`. Raises `UnknownRecordType` for any other type.
    """
    kind = record.get("type")
    words = RecordWords(record, lang, card_name=card_name)
    writer = _WRITERS.get(kind or "")
    if writer is not None:
        return writer(record, lang, words)
    if kind == "ignores_attachment_limit" and record.get("when_host_has"):
        return pick(lang, *_ATTACHMENT_LIMIT_IN_UNIT).format_map(words)
    if kind in _SENTENCES:
        return pick(lang, *_SENTENCES[kind]).format_map(words)
    if kind in FACTION_RULE_TYPES:
        return describe_rule(record, lang)
    raise UnknownRecordType(f"unknown requirement record type {kind!r}")
