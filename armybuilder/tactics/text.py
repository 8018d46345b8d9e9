"""Reading and writing Tactics warbands as text (contracts §2, canonical warband format)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from armybuilder.findings import Finding
from armybuilder.listtext.resolve import CardIndex, name_key, with_suggestions
from cards.normalise import fold
from common.i18n import _, card_language, pick

from .draft import Coins, EquipmentEntry, FigureEntry, TacticsCard, WarbandDraft

SECTIONS = {
    "heroes": "hero",
    "hero": "hero",
    "heros": "hero",
    "champions": "champion",
    "champion": "champion",
    "soldiers": "soldier",
    "soldier": "soldier",
    "soldats": "soldier",
    "soldat": "soldier",
    "equipment": "equipment",
    "equipement": "equipment",
    "equipements": "equipment",
}
HEADERS = {
    "game": "game",
    "jeu": "game",
    "scenario": "scenario",
    "size": "scenario",
    "taille": "scenario",
    "budget": "scenario",
    "faction": "faction",
    "name": "name",
    "nom": "name",
}
_BULLET = re.compile(r"^\s*(?:[•\-*–·>]+|\d+[.)](?=\s))?\s*")
_COST = re.compile(r"\[[^\]]*\]")
_COPIES = re.compile(r"\s+[x×]\s*(\d{1,2})\b|^(\d{1,2})\s*[x×]\s+", re.IGNORECASE)
_BUDGET = re.compile(r"(\d+)\s*-\s*(\d+)\s*-\s*(\d+)")
SIZE_WORDS = {
    "small": Coins(2, 4, 12),
    "petite": Coins(2, 4, 12),
    "standard": Coins(3, 6, 18),
    "large": Coins(4, 8, 24),
    "grande": Coins(4, 8, 24),
}


@dataclass(frozen=True)
class WarbandLine:
    number: int
    name: str
    section: str | None
    indent: int
    copies: int = 1


@dataclass(frozen=True)
class ParsedWarband:
    game: str | None = None
    scenario: str | None = None
    faction: str | None = None
    name: str = ""
    lines: tuple[WarbandLine, ...] = ()


def parse_warband_text(text: str) -> ParsedWarband:
    headers: dict[str, str] = {}
    lines: list[WarbandLine] = []
    section = None
    for number, raw in enumerate((text or "").splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        key, colon, value = stripped.partition(":")
        folded_key = fold(key).strip(" •-*")
        if colon and folded_key in HEADERS and value.strip() and HEADERS[folded_key] not in headers:
            headers[HEADERS[folded_key]] = value.strip()
            continue
        if fold(stripped).rstrip(": ") in SECTIONS:
            section = SECTIONS[fold(stripped).rstrip(": ")]
            continue
        expanded = raw.replace("\t", "    ")
        indent = len(expanded) - len(expanded.lstrip())
        body = _COST.sub(" ", _BULLET.sub("", raw, count=1)).strip()
        copies = 1
        match = _COPIES.search(body)
        if match:
            copies = max(1, int(match.group(1) or match.group(2)))
            body = _COPIES.sub(" ", body).strip()
        body = re.sub(r"\s+", " ", body).strip(" -–,")
        if body:
            lines.append(WarbandLine(number, body, section, indent, copies))
    return ParsedWarband(
        game=headers.get("game"),
        scenario=headers.get("scenario"),
        faction=headers.get("faction"),
        name=headers.get("name", ""),
        lines=tuple(lines),
    )


def resolve_budget(text: str | None, scenarios: Mapping[str, Coins | None]) -> Coins | None:
    """A scenario name (EN/FR), a size word, or a literal G-S-C budget."""
    if not text:
        return None
    key = name_key(text)
    if key in scenarios:
        return scenarios[key]
    literal = _BUDGET.search(text)
    if literal:
        return Coins(*(int(g) for g in literal.groups()))
    for word, budget in SIZE_WORDS.items():
        if word in key.split():
            return budget
    return None


def build_warband(
    parsed: ParsedWarband,
    *,
    index: CardIndex[TacticsCard],
    scenarios: Mapping[str, Coins | None],
    factions: Mapping[str, tuple[str, ...]],
) -> tuple[WarbandDraft | None, tuple[Finding, ...]]:
    if not parsed.lines:
        return None, (
            Finding(
                code="LIST_UNPARSEABLE",
                rule="list-format",
                message=_("this text is not a warband: no figure lines were found"),
            ),
        )
    findings: list[Finding] = []
    figures: list[FigureEntry] = []
    equipment: list[EquipmentEntry] = []
    last_figure: FigureEntry | None = None
    for line in parsed.lines:
        hint = line.section
        if line.indent > 0 and last_figure is not None:
            hint = "equipment"

        def narrow(cards: list[TacticsCard], hint=hint, line=line) -> list[TacticsCard]:
            pool = [c for c in cards if c.kind == hint] if hint else cards
            pool = pool or cards
            wants_mounted = "mounted" in name_key(line.name) or "monte" in name_key(line.name)
            mounted = [c for c in pool if c.mounted == wants_mounted]
            return mounted or pool

        lookup = index.lookup(line.name, narrow=narrow)
        if lookup.card is None:
            code = "CARD_AMBIGUOUS" if lookup.ambiguous else "CARD_UNKNOWN"
            if lookup.ambiguous:
                message = _(
                    "line {line}: '{name}' matches several cards", line=line.number, name=line.name
                )
            else:
                message = _(
                    "line {line}: '{name}' is no known card", line=line.number, name=line.name
                )
            findings.append(
                Finding(
                    code=code,
                    rule="list-format",
                    message=with_suggestions(message, lookup),
                    entries=(f"line-{line.number}",),
                )
            )
            continue
        card = lookup.card
        if card.kind == "equipment":
            for _copy in range(line.copies):
                holder = last_figure.ref if (line.indent > 0 and last_figure) else None
                equipment.append(
                    EquipmentEntry(ref=f"equipment-{len(equipment) + 1}", card=card, holder=holder)
                )
            continue
        for copy in range(line.copies):
            entry = FigureEntry(ref=f"figure-{len(figures) + 1}", card=card)
            figures.append(entry)
            if copy == 0:
                last_figure = entry

    faction = None
    if parsed.faction:
        key = name_key(parsed.faction)
        faction = next(
            (slug for slug, names in factions.items() if key in {slug, *map(name_key, names)}),
            None,
        )
    if faction is None:
        seen = [f.card.faction for f in figures if f.card.faction and not f.card.is_neutral]
        faction = max(set(seen), key=seen.count) if seen else ("neutral" if figures else None)
    draft = WarbandDraft(
        faction=faction,
        budget=resolve_budget(parsed.scenario, scenarios),
        figures=tuple(figures),
        equipment=tuple(equipment),
        scenario=parsed.scenario or "",
        name=parsed.name,
    )
    return draft, tuple(findings)


def cost_label(cost: Coins | None, *, each: bool = False) -> str:
    if cost is None:
        return "[?]"
    parts = [
        f"{n}{letter}"
        for n, letter in zip((cost.gold, cost.silver, cost.copper), "GSC", strict=True)
        if n
    ]
    return "[" + (" ".join(parts) or "0") + (" each" if each else "") + "]"


# The section headings of a written warband, in the card languages.
HEADINGS = {
    "en": ("Heroes", "Champions", "Soldiers", "Equipment"),
    "fr": ("Héros", "Champions", "Soldats", "Équipement"),
}


def write_warband_text(
    draft: WarbandDraft,
    *,
    faction_names: Mapping[str, tuple[str, str]],
    scenario_label: str,
    lang: str = "en",
) -> str:
    headings = HEADINGS[card_language(lang)]
    faction = draft.faction or ""
    lines = ["Game: Tactics"]
    if draft.name:
        lines.append(f"Name: {draft.name}")
    lines.append(f"Scenario: {scenario_label}")
    lines.append(f"Faction: {pick(lang, *faction_names.get(faction, (faction, faction)))}")
    held: dict[str, list[EquipmentEntry]] = {}
    for item in draft.equipment:
        if item.holder:
            held.setdefault(item.holder, []).append(item)
    for heading, kind in zip(headings[:3], ("hero", "champion", "soldier"), strict=True):
        entries = [f for f in draft.figures if f.card.kind == kind]
        if not entries:
            continue
        lines.append(f"{heading}:")
        index = 0
        while index < len(entries):
            entry = entries[index]
            run = 1
            if kind == "soldier":
                while (
                    index + run < len(entries)
                    and entries[index + run].card.id == entry.card.id
                    and not held.get(entries[index + run].ref)
                ):
                    run += 1
            copies = f" x{run}" if run > 1 else ""
            cost = cost_label(entry.card.cost, each=run > 1)
            lines.append(f"• {entry.card.label(lang)}{copies} {cost}")
            for item in held.get(entry.ref, []):
                lines.append(f"  • {item.card.label(lang)} {cost_label(item.card.cost)}")
            index += run
    loose = [i for i in draft.equipment if not i.holder]
    if loose:
        lines.append(f"{headings[3]}:")
        lines.extend(f"• {i.card.label(lang)} {cost_label(i.card.cost)}" for i in loose)
    return "\n".join(lines) + "\n"
