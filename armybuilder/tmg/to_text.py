"""Writing a TMG army in the canonical text format of contracts §2."""

from __future__ import annotations

from collections.abc import Mapping

from common.i18n import card_language, pick

from .draft import ArmyDraft, Entry
from .points import commander_entries

HEADINGS = {
    "en": (
        "Faction",
        "Points",
        "Commander",
        "Combat Units",
        "Non-Combat Units",
        "Name",
        "Ruleset",
        "Attachments",
    ),
    "fr": (
        "Faction",
        "Points",
        "Général",
        "Unités Combattantes",
        "Unités Non-Combattantes",
        "Nom",
        "Règles",
        "Attachements",
    ),
}


def _cost(entry: Entry, commanders: set[str]) -> str:
    if entry.ref in commanders and entry.card.is_commander:
        return "C"
    return str(entry.card.points or 0)


def write_tmg_text(
    draft: ArmyDraft, *, faction_names: Mapping[str, tuple[str, str]], lang: str = "en"
) -> str:
    faction_h, points_h, commander_h, units_h, ncus_h, name_h, ruleset_h, loose_h = HEADINGS[
        card_language(lang)
    ]
    faction = pick(lang, *faction_names.get(draft.faction, (draft.faction, draft.faction)))
    commanders = commander_entries(draft)
    commander_refs = {e.ref for e in commanders}
    lines = []
    if draft.name:
        lines.append(f"{name_h}: {draft.name}")
    lines.append(f"{faction_h}: {faction}")
    lines.append(f"{points_h}: {draft.points_limit}")
    if draft.ruleset.id != "rules-1.5":
        lines.append(f"{ruleset_h}: {draft.ruleset.id}")
    if commanders:
        lines.append(f"{commander_h}: {commanders[0].card.label(lang)}")
    lines.append(f"{units_h}:")
    for unit in draft.units:
        lines.append(f"• {unit.card.label(lang)} ({_cost(unit, commander_refs)})")
        for attachment in unit.attachments:
            lines.append(f"  • {attachment.card.label(lang)} ({_cost(attachment, commander_refs)})")
    if draft.ncus:
        lines.append(f"{ncus_h}:")
        for ncu in draft.ncus:
            lines.append(f"• {ncu.card.label(lang)} ({_cost(ncu, commander_refs)})")
    if draft.unattached:
        # Attachments with no host (enemy attachments, or a list still being built).
        lines.append(f"{loose_h}:")
        for attachment in draft.unattached:
            lines.append(f"• {attachment.card.label(lang)} ({_cost(attachment, commander_refs)})")
    return "\n".join(lines) + "\n"
