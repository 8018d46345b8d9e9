"""The TMG army validator: one pure function per army-construction rule.

Each rule takes the draft, the card-pool context and the computed points, and returns
findings. Rule ids (AB-xx) follow the rulebook notes; card-level rules (requirements,
faction rule cards) are interpreted from their structured records, never from prose.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from armybuilder.findings import Finding, Severity, Text

from .draft import ArmyContext, ArmyDraft, Entry
from .points import (
    commander_entries,
    entries_matching,
    entry_points,
    neutral_cap,
    neutral_points,
    ref_label,
    ref_matches_card,
)


@dataclass(frozen=True)
class Totals:
    points: Mapping[str, int]
    spent: int
    neutral: int
    neutral_cap: int


Rule = Callable[[ArmyDraft, ArmyContext, Totals], list[Finding]]


def _names(entries: list[Entry], lang: str) -> str:
    return ", ".join(entry.card.label(lang) for entry in entries)


def _removal_fix(candidates: list[Entry], points: Mapping[str, int], over: int) -> Text | None:
    """Suggest the cheapest single entry whose removal clears an overspend of `over`."""
    enough = sorted(
        (e for e in candidates if points.get(e.ref, 0) >= over), key=lambda e: points[e.ref]
    )
    if enough:
        pick = enough[0]
        return Text(
            f"remove {pick.card.label('en')} ({points[pick.ref]})",
            f"retirez {pick.card.label('fr')} ({points[pick.ref]})",
        )
    priced = sorted(candidates, key=lambda e: -points.get(e.ref, 0))
    if not priced or points.get(priced[0].ref, 0) == 0:
        return None
    return Text(
        f"remove {over} points, for example {priced[0].card.label('en')} "
        f"({points[priced[0].ref]}) and more",
        f"retirez {over} points, par exemple {priced[0].card.label('fr')} "
        f"({points[priced[0].ref]}) et d'autres",
    )


# --- AB-01 points budget -------------------------------------------------------------


def ab01_points_budget(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    if totals.spent <= draft.points_limit:
        return []
    over = totals.spent - draft.points_limit
    candidates = [e for e in draft.entries() if totals.points.get(e.ref, 0) > 0]
    return [
        Finding(
            code="POINTS_OVER_LIMIT",
            rule="AB-01",
            message=Text(
                f"points {totals.spent}/{draft.points_limit}: {over} over the game size",
                f"points {totals.spent}/{draft.points_limit} : {over} de plus que la taille "
                "de partie",
            ),
            fix=_removal_fix(candidates, totals.points, over),
            data={"spent": totals.spent, "limit": draft.points_limit},
        )
    ]


# --- AB-05 / AB-08 faction -----------------------------------------------------------


def ab05_one_faction(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    own, neutral_army = draft.faction, draft.faction == "neutral"
    strangers = [
        entry
        for entry in draft.entries()
        if entry.card.faction != own and (neutral_army or entry.card.faction != "neutral")
    ]
    if not strangers:
        return []
    allowances = [r for r in context.faction_rules if r.get("type") == "faction_allowance"]
    remaining = Counter({id(r): int(r.get("count", 1)) for r in allowances})
    findings = []
    for entry in strangers:
        card = entry.card
        allowance = next(
            (
                r
                for r in allowances
                if card.faction in r.get("factions", ())
                and card.kind in r.get("kinds", ("unit",))
                and remaining[id(r)] > 0
            ),
            None,
        )
        if allowance is not None:
            remaining[id(allowance)] -= 1
            continue
        if draft.faction == "neutral":
            message = Text(
                f"{card.label('en')} is not neutral: a Neutral army takes only neutral cards",
                f"{card.label('fr')} n'est pas neutre : une armée Neutre ne prend que des "
                "cartes neutres",
            )
        else:
            message = Text(
                f"{card.label('en')} belongs to {context.faction_name(card.faction)}, not "
                f"{context.faction_name(draft.faction)} or Neutral",
                f"{card.label('fr')} appartient à {context.faction_name(card.faction, 'fr')}, "
                f"ni à {context.faction_name(draft.faction, 'fr')} ni "
                "aux Neutres",
            )
        findings.append(
            Finding(
                code="FACTION_MISMATCH",
                rule="AB-05",
                message=message,
                entries=(entry.ref,),
                fix=Text(f"remove {card.label('en')}", f"retirez {card.label('fr')}"),
            )
        )
    return findings


# --- AB-06 / AB-07 neutral cap, and factions that forbid neutrals ----------------------


def ab06_neutral_cap(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    if draft.faction == "neutral" or totals.neutral <= totals.neutral_cap:
        return []
    if any(r.get("type") == "no_neutrals" for r in context.faction_rules):
        return []  # NEUTRALS_FORBIDDEN already says more
    over = totals.neutral - totals.neutral_cap
    neutrals = [e for e in draft.entries() if e.card.is_neutral]
    percent = draft.ruleset.neutral_cap_percent
    return [
        Finding(
            code="NEUTRAL_CAP_EXCEEDED",
            rule="AB-06",
            message=Text(
                f"neutral {totals.neutral}/{totals.neutral_cap}: neutral cards may use at most "
                f"{percent} % of the game size",
                f"neutres {totals.neutral}/{totals.neutral_cap} : les cartes neutres ne "
                f"peuvent dépasser {percent} % de la taille de partie",
            ),
            entries=tuple(e.ref for e in neutrals),
            fix=_removal_fix(neutrals, totals.points, over),
            data={"neutral": totals.neutral, "cap": totals.neutral_cap},
        )
    ]


def faction_no_neutrals(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    rule = next((r for r in context.faction_rules if r.get("type") == "no_neutrals"), None)
    if rule is None:
        return []
    neutrals = [e for e in draft.entries() if e.card.is_neutral]
    if not neutrals:
        return []
    return [
        Finding(
            code="NEUTRALS_FORBIDDEN",
            rule=f"card {rule.get('rule_card', '')}".strip(),
            message=Text(
                f"{context.faction_name(draft.faction)} armies may not include neutral cards: "
                f"{_names(neutrals, 'en')}",
                f"les armées {context.faction_name(draft.faction, 'fr')} ne peuvent inclure "
                "aucune carte neutre : "
                f"{_names(neutrals, 'fr')}",
            ),
            entries=tuple(e.ref for e in neutrals),
            fix=Text(f"remove {_names(neutrals, 'en')}", f"retirez {_names(neutrals, 'fr')}"),
        )
    ]


# --- AB-09 exactly one commander --------------------------------------------------------


def ab09_one_commander(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    commanders = commander_entries(draft)
    if not commanders:
        return [
            Finding(
                code="COMMANDER_MISSING",
                rule="AB-09",
                message=Text(
                    "the army has no commander", "l'armée n'a pas de Général (commandant)"
                ),
                fix=Text(
                    "add a commander card (marked C)", "ajoutez une carte de Général (marquée G)"
                ),
            )
        ]
    if len(commanders) > 1:
        return [
            Finding(
                code="COMMANDER_MULTIPLE",
                rule="AB-09",
                message=Text(
                    f"{len(commanders)} commanders: {_names(commanders, 'en')}; an army has one",
                    f"{len(commanders)} Généraux : {_names(commanders, 'fr')} ; une armée n'en "
                    "a qu'un",
                ),
                entries=tuple(e.ref for e in commanders),
                fix=Text(
                    f"keep one commander and remove {_names(commanders[1:], 'en')}",
                    f"gardez un seul Général et retirez {_names(commanders[1:], 'fr')}",
                ),
            )
        ]
    return []


# --- AB-17 / AB-18 characters are unique across versions --------------------------------


def ab17_unique_characters(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    keys = [key for entry in draft.entries() for key in entry.card.characters]
    if len(keys) == len(set(keys)):
        return []
    by_character: dict[str, list[Entry]] = defaultdict(list)
    for entry in draft.entries():
        for key in entry.card.characters:
            by_character[key].append(entry)
    findings = []
    for key, entries in by_character.items():
        if len(entries) < 2:
            continue
        findings.append(
            Finding(
                code="CHARACTER_DUPLICATE",
                rule="AB-18" if len({e.card.id for e in entries}) > 1 else "AB-17",
                message=Text(
                    f"the character {key} appears {len(entries)} times: {_names(entries, 'en')}",
                    f"le personnage {key} apparaît {len(entries)} fois : {_names(entries, 'fr')}",
                ),
                entries=tuple(e.ref for e in entries),
                fix=Text(
                    f"keep one of {_names(entries, 'en')}",
                    f"gardez une seule carte parmi {_names(entries, 'fr')}",
                ),
                data={"character": key},
            )
        )
    return findings


# --- AB-19 … AB-23 attachments ----------------------------------------------------------


def ab20_attachment_needs_host(
    draft: ArmyDraft, context: ArmyContext, totals: Totals
) -> list[Finding]:
    findings = []
    for host, attachment in draft.attachments():
        if host is not None or attachment.card.attaches_to_enemy:
            continue
        findings.append(
            Finding(
                code="ATTACHMENT_NO_HOST",
                rule="AB-13" if attachment.card.is_commander else "AB-20",
                message=Text(
                    f"{attachment.card.label('en')} is not attached to a combat unit",
                    f"{attachment.card.label('fr')} n'est attaché à aucune unité combattante",
                ),
                entries=(attachment.ref,),
                fix=Text(
                    f"attach it to a {attachment.card.unit_type or 'matching'} combat unit",
                    f"attachez-le à une unité combattante de type "
                    f"{attachment.card.unit_type or 'compatible'}",
                ),
            )
        )
    return findings


def _extra_slots(unit, attachment: Entry) -> bool:
    if not attachment.card.requirements:
        return False
    for record in attachment.card.records("ignores_attachment_limit"):
        condition = record.get("when_host_has")
        if not condition:
            return True
        if any(ref_matches_card(condition, other.card) for other in (unit, *unit.attachments)):
            return True
    return False


def ab19_one_attachment_per_unit(
    draft: ArmyDraft, context: ArmyContext, totals: Totals
) -> list[Finding]:
    findings = []
    limit = draft.ruleset.attachments_per_unit
    for unit in draft.units:
        if len(unit.attachments) <= limit:
            continue
        counted = [a for a in unit.attachments if not _extra_slots(unit, a)]
        if len(counted) <= limit:
            continue
        findings.append(
            Finding(
                code="ATTACHMENT_LIMIT",
                rule="AB-19",
                message=Text(
                    f"{unit.card.label('en')} carries {len(counted)} attachments "
                    f"({_names(counted, 'en')}); the limit is {limit}",
                    f"{unit.card.label('fr')} porte {len(counted)} attachements "
                    f"({_names(counted, 'fr')}) ; la limite est {limit}",
                ),
                entries=(unit.ref, *(a.ref for a in counted)),
                fix=Text(
                    f"move {_names(counted[limit:], 'en')} to another unit",
                    f"déplacez {_names(counted[limit:], 'fr')} vers une autre unité",
                ),
            )
        )
    return findings


def ab21_no_attachment_on_solo(
    draft: ArmyDraft, context: ArmyContext, totals: Totals
) -> list[Finding]:
    return [
        Finding(
            code="ATTACHMENT_ON_SOLO",
            rule="AB-21",
            message=Text(
                f"{unit.card.label('en')} is a solo unit and cannot take "
                f"{_names(list(unit.attachments), 'en')}",
                f"{unit.card.label('fr')} est une unité individuelle et ne peut pas recevoir "
                f"{_names(list(unit.attachments), 'fr')}",
            ),
            entries=(unit.ref, *(a.ref for a in unit.attachments)),
        )
        for unit in draft.units
        if unit.attachments and unit.card.is_solo
    ]


def ab22_attachment_type_matches(
    draft: ArmyDraft, context: ArmyContext, totals: Totals
) -> list[Finding]:
    findings = []
    for host, attachment in draft.attachments():
        if host is None or host.card.is_solo:
            continue
        wanted, actual = attachment.card.unit_type, host.card.unit_type
        if not wanted or wanted == "none" or wanted == actual:
            continue
        findings.append(
            Finding(
                code="ATTACHMENT_TYPE_MISMATCH",
                rule="AB-22",
                message=Text(
                    f"{attachment.card.label('en')} ({wanted}) cannot join "
                    f"{host.card.label('en')} ({actual})",
                    f"{attachment.card.label('fr')} ({wanted}) ne peut pas rejoindre "
                    f"{host.card.label('fr')} ({actual})",
                ),
                entries=(host.ref, attachment.ref),
                fix=Text(
                    f"attach it to a {wanted} unit instead",
                    f"attachez-le plutôt à une unité de type {wanted}",
                ),
            )
        )
    return findings


# --- AB-28 card requirements ---------------------------------------------------------------


def _unmet(entry: Entry, en: str, fr: str, *, rule: str = "AB-28") -> Finding:
    return Finding(
        code="REQUIREMENT_UNMET",
        rule=rule,
        message=Text(f"{entry.card.label('en')}: {en}", f"{entry.card.label('fr')} : {fr}"),
        entries=(entry.ref,),
    )


def _conflict(entries: tuple[str, ...], en: str, fr: str, *, rule: str = "AB-28") -> Finding:
    return Finding(code="REQUIREMENT_CONFLICT", rule=rule, message=Text(en, fr), entries=entries)


def ab28_card_requirements(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    constrained = draft.constrained
    if not constrained:
        return []
    findings: list[Finding] = []
    hosts = {a.ref: unit for unit, a in draft.attachments() if unit is not None}
    for entry in constrained:
        card = entry.card
        for record in card.requirements:
            kind = record.get("type")
            if kind == "requires":
                refs = record.get("refs", ())
                present = [bool(entries_matching(r, draft, excluding=entry.ref)) for r in refs]
                satisfied = any(present) if record.get("mode") == "any" else all(present)
                if not satisfied:
                    joiner = " or " if record.get("mode") == "any" else " and "
                    missing = joiner.join(
                        ref_label(r) for r, ok in zip(refs, present, strict=True) if not ok
                    )
                    findings.append(
                        _unmet(
                            entry,
                            f"requires {missing} in the army",
                            f"exige {missing} dans l'armée",
                        )
                    )
            elif kind == "pet_of":
                ref = record.get("ref", {})
                if not entries_matching(ref, draft, excluding=entry.ref):
                    findings.append(
                        _unmet(
                            entry,
                            f"may only be fielded with {ref_label(ref)}",
                            f"ne peut être alignée qu'avec {ref_label(ref)}",
                        )
                    )
            elif kind == "must_attach_to":
                host = hosts.get(entry.ref)
                refs = record.get("refs", ())
                if host is not None and not any(ref_matches_card(r, host.card) for r in refs):
                    wanted = " or ".join(ref_label(r) for r in refs)
                    findings.append(
                        _unmet(
                            entry,
                            f"must be attached to {wanted}",
                            f"doit être attaché à {wanted}",
                        )
                    )
            elif kind == "host_faction":
                host = hosts.get(entry.ref)
                if host is not None and host.card.faction != record.get("faction"):
                    findings.append(
                        _unmet(
                            entry,
                            f"may only join a {context.faction_name(record.get('faction'))} unit",
                            "ne peut rejoindre qu'une unité "
                            f"{context.faction_name(record.get('faction'), 'fr')}",
                        )
                    )
            elif kind == "not_with":
                for ref in record.get("refs", ()):
                    clash = entries_matching(ref, draft, excluding=entry.ref)
                    if clash:
                        findings.append(
                            _conflict(
                                (entry.ref, *(e.ref for e in clash)),
                                f"{card.label('en')} may not be in an army with "
                                f"{_names(clash, 'en')}",
                                f"{card.label('fr')} ne peut pas être dans une armée avec "
                                f"{_names(clash, 'fr')}",
                            )
                        )
            elif kind == "controlled_by":
                controllers = [{"card": card_id} for card_id in record.get("cards", ())]
                if controllers and not any(
                    entries_matching(ref, draft, excluding=entry.ref) for ref in controllers
                ):
                    wanted = ", ".join(record.get("cards", ()))
                    findings.append(
                        _unmet(
                            entry,
                            f"only comes with the card that controls it ({wanted})",
                            f"ne vient qu'avec la carte qui le contrôle ({wanted})",
                        )
                    )
            elif kind == "fielded_by_ability":
                findings.append(
                    _unmet(
                        entry,
                        "is only brought into play by an ability, not bought in a list",
                        "n'entre en jeu que par une capacité, elle ne s'achète pas",
                    )
                )
    return findings


def ab28_loyalties(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    """Cards tagged with different loyalties never share an army; untagged cards are free."""
    by_loyalty: dict[str, list[Entry]] = defaultdict(list)
    for entry in draft.constrained:
        for record in entry.card.records("loyalty"):
            by_loyalty[record.get("to", "")].append(entry)
    if len(by_loyalty) < 2:
        return []
    groups = sorted(by_loyalty.items())
    entries = tuple(e.ref for _, group in groups for e in group)
    described = "; ".join(f"{to}: {_names(group, 'en')}" for to, group in groups)
    described_fr = "; ".join(f"{to} : {_names(group, 'fr')}" for to, group in groups)
    return [
        _conflict(
            entries,
            f"cards loyal to different masters cannot mix ({described})",
            f"des cartes loyales à des maîtres différents ne se mélangent pas ({described_fr})",
        )
    ]


def ab28_copy_limits(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    findings = []
    by_card: dict[str, list[Entry]] = defaultdict(list)
    for entry in draft.constrained:
        by_card[entry.card.id].append(entry)
    for entries in by_card.values():
        card = entries[0].card
        for record in card.records("copy_limit"):
            ignored = record.get("ignore") or ()
            counted = [
                e
                for e in entries
                if not any(
                    ref_matches_card(ref, other.card)
                    for ref in ignored
                    for other in _unit_of(draft, e)
                )
            ]
            limit = int(record.get("max", 1))
            if len(counted) > limit:
                findings.append(_copy_limit(card, counted, limit))
        for record in card.records("copy_limit_per"):
            per = record.get("per", {})
            unit_type = record.get("unit_type")
            qualifying = [
                u
                for u in draft.units
                if ref_matches_card(per, u.card) or _name_contains(u.card, per.get("name", ""))
                if not unit_type or u.card.unit_type == unit_type
            ]
            limit = int(record.get("max_per", 1)) * len(qualifying)
            if len(entries) > limit:
                findings.append(_copy_limit(card, entries, limit))
    return findings


def _name_contains(card, fragment: str) -> bool:
    from cards.normalise import fold

    return bool(fragment) and fold(fragment) in fold(card.name_en)


def _unit_of(draft: ArmyDraft, entry: Entry):
    for unit in draft.units:
        if entry is unit or entry in unit.attachments:
            return (unit, *unit.attachments)
    return (entry,)


def _copy_limit(card, entries: list[Entry], limit: int) -> Finding:
    return Finding(
        code="COPY_LIMIT",
        rule="AB-28",
        message=Text(
            f"{len(entries)} copies of {card.label('en')}; at most {limit} allowed",
            f"{len(entries)} exemplaires de {card.label('fr')} ; {limit} au plus",
        ),
        entries=tuple(e.ref for e in entries),
        fix=Text(
            f"remove {len(entries) - limit} {card.label('en')}",
            f"retirez {len(entries) - limit} {card.label('fr')}",
        ),
    )


# --- faction rule cards ------------------------------------------------------------------


LIST_RULE_TYPES = frozenset(
    {"conditional_exclusion", "prefer_faction_version", "optional_commander"}
)


def faction_rule_cards(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    findings = []
    for record in context.faction_rules:
        if record.get("type") not in LIST_RULE_TYPES:
            continue
        kind = record.get("type")
        rule = f"card {record.get('rule_card', '')}".strip()
        if kind == "conditional_exclusion":
            trigger = entries_matching(record.get("when_present", {}), draft)
            if not trigger:
                continue
            for ref in record.get("refs", ()):
                clash = [
                    e for e in entries_matching(ref, draft) if e.ref not in {t.ref for t in trigger}
                ]
                if clash:
                    findings.append(
                        _conflict(
                            tuple(e.ref for e in (*trigger, *clash)),
                            f"with {_names(trigger, 'en')} the army may not include "
                            f"{_names(clash, 'en')}",
                            f"avec {_names(trigger, 'fr')}, l'armée ne peut pas inclure "
                            f"{_names(clash, 'fr')}",
                            rule=rule,
                        )
                    )
        elif kind == "prefer_faction_version":
            own_en = context.faction_name(draft.faction)
            own_fr = context.faction_name(draft.faction, "fr")
            for entry in draft.entries():
                if entry.card.faction != record.get("over", "neutral"):
                    continue
                shared = set(entry.card.characters) & context.faction_characters
                if shared:
                    findings.append(
                        _conflict(
                            (entry.ref,),
                            f"{entry.card.label('en')}: a {own_en} army must take the "
                            f"{own_en} version of {', '.join(sorted(shared))}",
                            f"{entry.card.label('fr')} : une armée {own_fr} doit prendre "
                            f"la version {own_fr} de {', '.join(sorted(shared))}",
                            rule=rule,
                        )
                    )
        elif kind == "optional_commander" and draft.chosen_commander is not None:
            chosen = [e for e in draft.entries() if e.ref == draft.chosen_commander]
            if not chosen or not ref_matches_card(record.get("commander", {}), chosen[0].card):
                continue
            for ref in record.get("requires", ()):
                if not entries_matching(ref, draft, excluding=chosen[0].ref):
                    findings.append(
                        _unmet(
                            chosen[0],
                            f"as commander, requires {ref_label(ref)} in the army",
                            f"comme Général, exige {ref_label(ref)} dans l'armée",
                            rule=rule,
                        )
                    )
    return findings


RULES: tuple[tuple[str, Rule], ...] = (
    ("AB-01", ab01_points_budget),
    ("AB-05", ab05_one_faction),
    ("AB-06", ab06_neutral_cap),
    ("faction-rules", faction_no_neutrals),
    ("AB-09", ab09_one_commander),
    ("AB-17", ab17_unique_characters),
    ("AB-19", ab19_one_attachment_per_unit),
    ("AB-20", ab20_attachment_needs_host),
    ("AB-21", ab21_no_attachment_on_solo),
    ("AB-22", ab22_attachment_type_matches),
    ("AB-28", ab28_card_requirements),
    ("AB-28-copies", ab28_copy_limits),
    ("AB-28-loyalty", ab28_loyalties),
    ("faction-rule-cards", faction_rule_cards),
)


@dataclass(frozen=True)
class ArmyReport:
    findings: tuple[Finding, ...]
    totals: Totals

    @property
    def legal(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def compute_totals(draft: ArmyDraft, context: ArmyContext) -> Totals:
    points = entry_points(draft, context)
    spent = sum(points.values())
    return Totals(
        points=points,
        spent=spent,
        neutral=neutral_points(draft, points),
        neutral_cap=neutral_cap(draft, spent),
    )


def validate_army(draft: ArmyDraft, context: ArmyContext | None = None) -> ArmyReport:
    context = context or ArmyContext()
    totals = compute_totals(draft, context)
    findings: list[Finding] = []
    for _rule_id, rule in RULES:
        findings.extend(rule(draft, context, totals))
    return ArmyReport(findings=tuple(findings), totals=totals)


def validate_team(drafts: list[ArmyDraft]) -> list[Finding]:
    """AB-30: a character appears at most once across all allied armies of a team."""
    seen: dict[str, list[tuple[int, Entry]]] = defaultdict(list)
    for index, draft in enumerate(drafts):
        for entry in draft.entries():
            for key in set(entry.card.characters):
                seen[key].append((index, entry))
    findings = []
    for key, owners in seen.items():
        if len({index for index, _ in owners}) < 2:
            continue
        findings.append(
            Finding(
                code="TEAM_CHARACTER_DUPLICATE",
                rule="AB-30",
                message=Text(
                    f"the character {key} appears in {len(owners)} allied lists",
                    f"le personnage {key} apparaît dans {len(owners)} listes alliées",
                ),
                entries=tuple(f"list-{index + 1}.{entry.ref}" for index, entry in owners),
                data={"character": key},
            )
        )
    return findings
