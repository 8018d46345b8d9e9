"""From a parsed TMG list to an ArmyDraft: names resolved to cards, attachments to hosts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from armybuilder.findings import Finding
from armybuilder.listtext.resolve import CardIndex, Lookup, name_key, with_suggestions
from armybuilder.listtext.tmg import ListLine, ParsedTmgList
from common.i18n import Bilingual, _

from .draft import ArmyDraft, CardFacts, Entry, UnitEntry
from .rulesets import Ruleset


@dataclass(frozen=True)
class ResolvedEntry:
    ref: str
    line: int | None  # None: not read from text (a saved list)
    card: CardFacts
    role: str  # unit | attachment | ncu
    host: str | None = None
    corrected_from: str | None = None


@dataclass(frozen=True)
class TmgListBuild:
    draft: ArmyDraft | None
    findings: tuple[Finding, ...]
    entries: tuple[ResolvedEntry, ...] = ()
    points_assumed: bool = False
    faction_inferred: bool = False
    meta: dict = field(default_factory=dict)


def _narrower(line: ListLine, role_hint: str | None, faction: str | None):
    def narrow(candidates: list[CardFacts]) -> list[CardFacts]:
        steps = []
        if role_hint:
            steps.append(lambda c: c.kind == role_hint)
        if line.cost == "C":
            steps.append(lambda c: c.is_commander)
        elif line.cost is not None:
            steps.append(lambda c: str(c.points) == line.cost)
        if faction:
            steps.append(lambda c: c.faction in (faction, "neutral"))
            # The same card printed for the army's faction and as a neutral (Bolton's
            # Inner Circle reprints): the army's own version is the one meant.
            steps.append(lambda c: c.faction == faction)
        pool = [c for c in candidates if c.kind in ("unit", "attachment", "ncu")] or candidates
        for step in steps:
            narrowed = [c for c in pool if step(c)]
            if narrowed:
                pool = narrowed
        return pool

    return narrow


def resolve_faction(text: str | None, factions: Mapping[str, tuple[str, ...]]) -> str | None:
    """Faction slug from 'Stark', 'House Stark', 'Maison Stark', 'Peuple Libre', …"""
    if not text:
        return None
    key = name_key(text)
    for prefix in ("house ", "maison ", "the "):
        if key.startswith(prefix):
            key = key[len(prefix) :]
    for slug, names in factions.items():
        if key == slug or key in {name_key(n) for n in names}:
            return slug
    return None


def _unknown(line: ListLine, lookup: Lookup) -> Finding:
    if lookup.ambiguous:
        options = Bilingual.of(lambda lang: "; ".join(c.label(lang) for c in lookup.candidates[:5]))
        return Finding(
            code="CARD_AMBIGUOUS",
            rule="list-format",
            message=_(
                "line {line}: '{name}' matches several cards: {cards}",
                line=line.number,
                name=line.name,
                cards=options,
            ),
            entries=(f"line-{line.number}",),
            fix=_("add the card's title or its cost"),
            data={"candidates": [c.id for c in lookup.candidates]},
        )
    hint = "; ".join(lookup.suggestions)
    return Finding(
        code="CARD_UNKNOWN",
        rule="list-format",
        message=with_suggestions(
            _("line {line}: no card named '{name}'", line=line.number, name=line.name), lookup
        ),
        entries=(f"line-{line.number}",),
        fix=_("did you mean {names}?", names=hint) if hint else None,
        data={"suggestions": list(lookup.suggestions)},
    )


def build_tmg_draft(
    parsed: ParsedTmgList,
    *,
    index: CardIndex[CardFacts],
    factions: Mapping[str, tuple[str, ...]],
    ruleset: Ruleset,
    default_points: int = 40,
) -> TmgListBuild:
    if parsed.problems and not parsed.lines:
        return TmgListBuild(
            draft=None,
            findings=(
                Finding(
                    code="LIST_UNPARSEABLE",
                    rule="list-format",
                    message=_("this text is not an army list: no card lines were found"),
                ),
            ),
        )
    faction = resolve_faction(parsed.faction, factions)
    findings: list[Finding] = []
    if parsed.faction and faction is None:
        findings.append(
            Finding(
                code="LIST_UNPARSEABLE",
                rule="list-format",
                message=_("unknown faction '{faction}'", faction=parsed.faction),
                fix=_("use one of: {factions}", factions=", ".join(sorted(factions))),
            )
        )

    units: list[UnitEntry] = []
    ncus: list[Entry] = []
    unattached: list[Entry] = []
    resolved: list[ResolvedEntry] = []
    counters: Counter[str] = Counter()
    title_lines: list[str] = []

    def add_attachment(line: ListLine, card: CardFacts, corrected: str | None) -> None:
        loose = line.section in ("ncus", "attachments") and not line.attached and not line.indent
        if units and not loose:
            host = units[-1]
            counters[host.ref] += 1
            ref = f"{host.ref}.attachment-{counters[host.ref]}"
            units[-1] = UnitEntry(
                ref=host.ref,
                card=host.card,
                attachments=(*host.attachments, Entry(ref=ref, card=card)),
            )
            resolved.append(
                ResolvedEntry(ref, line.number, card, "attachment", host.ref, corrected)
            )
        else:
            counters["unattached"] += 1
            ref = f"attachment-{counters['unattached']}"
            unattached.append(Entry(ref=ref, card=card))
            resolved.append(ResolvedEntry(ref, line.number, card, "attachment", None, corrected))

    host_unresolved = False
    for line in parsed.lines:
        role_hint = {"ncus": "ncu"}.get(line.section or "")
        nested = line.attached or (line.indent > 0 and line.section != "ncus")
        if nested and (units or host_unresolved):
            role_hint = "attachment"
        lookup = index.lookup(line.name, narrow=_narrower(line, role_hint, faction))
        if nested and host_unresolved:
            # Its unit could not be read: report the line only if it is unknown too, and
            # keep it out of the army rather than hang it on the wrong unit.
            if lookup.card is None:
                findings.append(_unknown(line, lookup))
            continue
        if not nested:
            host_unresolved = lookup.card is None
        if lookup.card is None:
            if line.number == parsed.first_line and not line.bulleted and not lookup.ambiguous:
                # Pasted lists often open with a free-text title line ("stark 40pts").
                title_lines.append(line.name)
                continue
            findings.append(_unknown(line, lookup))
            continue
        card = lookup.card
        if card.kind in ("unit", "ncu"):
            counters[card.kind] += 1
            ref = f"{card.kind}-{counters[card.kind]}"
            if card.kind == "unit":
                units.append(UnitEntry(ref=ref, card=card))
            else:
                ncus.append(Entry(ref=ref, card=card))
            resolved.append(
                ResolvedEntry(ref, line.number, card, card.kind, None, lookup.corrected_from)
            )
        elif card.kind == "attachment":
            add_attachment(line, card, lookup.corrected_from)
        else:
            findings.append(
                Finding(
                    code="CARD_UNKNOWN",
                    rule="list-format",
                    message=_(
                        "line {line}: {card} is a {kind} card, not a unit, attachment or NCU",
                        line=line.number,
                        card=Bilingual.of(card.label),
                        kind=card.kind,
                    ),
                    entries=(f"line-{line.number}",),
                )
            )
            continue
        for inline in line.inline_attachments:
            inline_lookup = index.lookup(
                inline.name, narrow=_narrower(inline, "attachment", faction)
            )
            if inline_lookup.card is None:
                findings.append(_unknown(inline, inline_lookup))
            else:
                add_attachment(inline, inline_lookup.card, inline_lookup.corrected_from)

    if not resolved and not findings:
        return build_tmg_draft(
            ParsedTmgList(problems=("no card lines found",)),
            index=index,
            factions=factions,
            ruleset=ruleset,
        )
    faction_inferred = False
    if faction is None:
        factions_seen = Counter(e.card.faction for e in resolved if not e.card.is_neutral)
        faction = factions_seen.most_common(1)[0][0] if factions_seen else "neutral"
        faction_inferred = True

    chosen_commander = None
    if parsed.commander:
        commander_key = name_key(parsed.commander)
        for entry in resolved:
            labels = {name_key(entry.card.label("en")), name_key(entry.card.label("fr"))}
            names = {name_key(entry.card.name_en), name_key(entry.card.name_fr)}
            if commander_key in labels | names and not entry.card.is_commander:
                chosen_commander = entry.ref
                break

    draft = ArmyDraft(
        faction=faction,
        points_limit=parsed.points or default_points,
        ruleset=ruleset,
        units=tuple(units),
        ncus=tuple(ncus),
        unattached=tuple(unattached),
        chosen_commander=chosen_commander,
        name=parsed.name or " ".join(title_lines),
    )
    return TmgListBuild(
        draft=draft,
        findings=tuple(findings),
        entries=tuple(resolved),
        points_assumed=parsed.points is None,
        faction_inferred=faction_inferred,
    )
