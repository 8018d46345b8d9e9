"""The TMG army validator: one pure function per army-construction rule.

Each rule takes the draft, the card-pool context and the computed points, and returns
findings. Rule ids (AB-xx) follow the rulebook notes; card-level rules (requirements,
faction rule cards) are interpreted from their structured records, never from prose.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from armybuilder.findings import Finding, Report
from cards.normalise import fold
from common.i18n import Bilingual, Message, _

from .draft import ArmyContext, ArmyDraft, CardFacts, Entry, UnitEntry
from .points import (
    answers_to,
    commander_entries,
    entries_answering,
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


def _names(entries: list[Entry]) -> Bilingual:
    """The entries' card labels, comma-separated, for a message's params."""
    return Bilingual.of(lambda lang: ", ".join(entry.card.label(lang) for entry in entries))


def _label(entry: Entry) -> Bilingual:
    return Bilingual.of(entry.card.label)


def _removal_fix(candidates: list[Entry], points: Mapping[str, int], over: int) -> Message | None:
    """Suggest the cheapest single entry whose removal clears an overspend of `over`."""
    enough = sorted(
        (e for e in candidates if points.get(e.ref, 0) >= over), key=lambda e: points[e.ref]
    )
    if enough:
        pick = enough[0]
        return _("remove {card} ({points})", card=_label(pick), points=points[pick.ref])
    priced = sorted(candidates, key=lambda e: -points.get(e.ref, 0))
    if not priced or points.get(priced[0].ref, 0) == 0:
        return None
    return _(
        "remove {over} points, for example {card} ({points}) and more",
        over=over,
        card=_label(priced[0]),
        points=points[priced[0].ref],
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
            message=_(
                "points {spent}/{limit}: {over} over the game size",
                spent=totals.spent,
                limit=draft.points_limit,
                over=over,
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
            message = _(
                "{card} is not neutral: a Neutral army takes only neutral cards",
                card=_label(entry),
            )
        else:
            message = _(
                "{card} belongs to {faction}, not {army} or Neutral",
                card=_label(entry),
                faction=context.faction_label(card.faction),
                army=context.faction_label(draft.faction),
            )
        findings.append(
            Finding(
                code="FACTION_MISMATCH",
                rule="AB-05",
                message=message,
                entries=(entry.ref,),
                fix=_("remove {card}", card=_label(entry)),
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
            message=_(
                # xgettext:no-python-format
                "neutral {neutral}/{cap}: neutral cards may use at most {percent} % of the "
                "game size",
                neutral=totals.neutral,
                cap=totals.neutral_cap,
                percent=percent,
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
            message=_(
                "{army} armies may not include neutral cards: {cards}",
                army=context.faction_label(draft.faction),
                cards=_names(neutrals),
            ),
            entries=tuple(e.ref for e in neutrals),
            fix=_("remove {cards}", cards=_names(neutrals)),
        )
    ]


# --- AB-09 exactly one commander --------------------------------------------------------


def may_lead(card: CardFacts, context: ArmyContext) -> bool:
    """A commander card (marked C: an attachment, a solo unit or an NCU such as Doran,
    Lord of Sunspear), or a card an `optional_commander` faction rule names (Mag the
    Mighty, Varamyr). Any other card, an ordinary NCU included, cannot lead."""
    return card.is_commander or any(
        record.get("type") == "optional_commander"
        and (
            card.id in (record.get("commander_cards") or ())
            or ref_matches_card(record.get("commander") or {}, card)
        )
        for record in context.faction_rules
    )


def _chosen_but_not_eligible(draft: ArmyDraft, context: ArmyContext) -> Entry | None:
    if draft.chosen_commander is None:
        return None
    chosen = next((e for e in draft.entries() if e.ref == draft.chosen_commander), None)
    if chosen is None or may_lead(chosen.card, context):
        return None
    return chosen


def ab09_one_commander(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    commanders = commander_entries(draft)
    refused = _chosen_but_not_eligible(draft, context) if draft.chosen_commander else None
    findings: list[Finding] = []
    if refused is not None:
        commanders = [e for e in commanders if e.ref != refused.ref]
        findings.append(
            Finding(
                code="COMMANDER_MISSING" if not commanders else "REQUIREMENT_UNMET",
                rule="AB-09",
                message=_(
                    "{card} cannot lead the army: it is no commander card and no faction "
                    "rule lets it be chosen",
                    card=_label(refused),
                ),
                entries=(refused.ref,),
                fix=_("add a commander card (marked C)") if not commanders else None,
            )
        )
        if not commanders:
            return findings
    if not commanders:
        return [
            Finding(
                code="COMMANDER_MISSING",
                rule="AB-09",
                message=_("the army has no commander"),
                fix=_("add a commander card (marked C)"),
            )
        ]
    if len(commanders) > 1:
        findings.append(
            Finding(
                code="COMMANDER_MULTIPLE",
                rule="AB-09",
                message=_(
                    "{count} commanders: {cards}; an army has one",
                    count=len(commanders),
                    cards=_names(commanders),
                ),
                entries=tuple(e.ref for e in commanders),
                fix=_(
                    "keep one commander and remove {cards}",
                    cards=_names(commanders[1:]),
                ),
            )
        )
    return findings


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
                message=_(
                    "the character {character} appears {count} times: {cards}",
                    character=key,
                    count=len(entries),
                    cards=_names(entries),
                ),
                entries=tuple(e.ref for e in entries),
                fix=_("keep one of {cards}", cards=_names(entries)),
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
        unit_type = attachment.card.unit_type
        if unit_type:
            fix = _("attach it to a {unit_type} combat unit", unit_type=unit_type)
        else:
            fix = _("attach it to a matching combat unit")
        findings.append(
            Finding(
                code="ATTACHMENT_NO_HOST",
                rule="AB-13" if attachment.card.is_commander else "AB-20",
                message=_("{card} is not attached to a combat unit", card=_label(attachment)),
                entries=(attachment.ref,),
                fix=fix,
            )
        )
    return findings


def _in_unit(ref: Mapping, unit: UnitEntry, draft: ArmyDraft, *, besides: str) -> bool:
    """Does the unit (its own card or another card it carries) answer to `ref`?"""
    return any(
        answers_to(ref, other.card, draft)
        for other in (unit, *unit.attachments)
        if other.ref != besides
    )


def _extra_slots(unit: UnitEntry, attachment: Entry, draft: ArmyDraft) -> bool:
    if not attachment.card.requirements:
        return False
    for record in attachment.card.records("ignores_attachment_limit"):
        condition = record.get("when_host_has")
        if not condition or _in_unit(condition, unit, draft, besides=attachment.ref):
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
        counted = [a for a in unit.attachments if not _extra_slots(unit, a, draft)]
        if len(counted) <= limit:
            continue
        findings.append(
            Finding(
                code="ATTACHMENT_LIMIT",
                rule="AB-19",
                message=_(
                    "{unit} carries {count} attachments ({cards}); the limit is {limit}",
                    unit=_label(unit),
                    count=len(counted),
                    cards=_names(counted),
                    limit=limit,
                ),
                entries=(unit.ref, *(a.ref for a in counted)),
                fix=_("move {cards} to another unit", cards=_names(counted[limit:])),
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
            message=_(
                "{unit} is a solo unit and cannot take {cards}",
                unit=_label(unit),
                cards=_names(list(unit.attachments)),
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
                message=_(
                    "{card} ({wanted}) cannot join {unit} ({actual})",
                    card=_label(attachment),
                    wanted=wanted,
                    unit=_label(host),
                    actual=actual,
                ),
                entries=(host.ref, attachment.ref),
                fix=_("attach it to a {unit_type} unit instead", unit_type=wanted),
            )
        )
    return findings


# --- AB-28 card requirements ---------------------------------------------------------------


def _unmet(entry: Entry, requirement: Message, *, rule: str = "AB-28") -> Finding:
    return Finding(
        code="REQUIREMENT_UNMET",
        rule=rule,
        message=_("{card}: {requirement}", card=_label(entry), requirement=requirement),
        entries=(entry.ref,),
    )


def _conflict(entries: tuple[str, ...], message: Message, *, rule: str = "AB-28") -> Finding:
    return Finding(code="REQUIREMENT_CONFLICT", rule=rule, message=message, entries=entries)


class _Scope:
    """What a requirement check reads besides its entry and record."""

    __slots__ = ("_hosts", "context", "draft")

    def __init__(self, draft: ArmyDraft, context: ArmyContext) -> None:
        self.draft = draft
        self.context = context
        self._hosts: Mapping[str, UnitEntry] | None = None

    @property
    def hosts(self) -> Mapping[str, UnitEntry]:
        """Attachment ref -> the unit carrying it (built when a check first asks)."""
        if self._hosts is None:
            self._hosts = {a.ref: unit for unit, a in self.draft.attachments() if unit is not None}
        return self._hosts


def _requires(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    refs = record.get("refs", ())
    present = [bool(entries_answering(r, scope.draft, excluding=entry.ref)) for r in refs]
    satisfied = any(present) if record.get("mode") == "any" else all(present)
    if satisfied:
        return []
    joiner = " or " if record.get("mode") == "any" else " and "
    missing = joiner.join(ref_label(r) for r, ok in zip(refs, present, strict=True) if not ok)
    return [_unmet(entry, _("requires {cards} in the army", cards=missing))]


def _pet_of(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    ref = record.get("ref", {})
    if entries_answering(ref, scope.draft, excluding=entry.ref):
        return []
    return [_unmet(entry, _("may only be fielded with {card}", card=ref_label(ref)))]


def _must_attach_to(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    """The host unit, or a card it carries, must answer to one of the refs (Scorpion
    Modifications on a Builder Scorpion Crew; Osha in the unit that holds Rickon)."""
    host = scope.hosts.get(entry.ref)
    refs = record.get("refs", ())
    if host is None or any(_in_unit(r, host, scope.draft, besides=entry.ref) for r in refs):
        return []
    wanted = " or ".join(ref_label(r) for r in refs)
    return [_unmet(entry, _("must be attached to {cards}", cards=wanted))]


def _must_carry(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    """A unit that must carry a given character (the Kingsguard carry Joffrey)."""
    refs = record.get("refs", ())
    carried = entry.attachments if isinstance(entry, UnitEntry) else ()
    if any(answers_to(r, a.card, scope.draft) for r in refs for a in carried):
        return []
    wanted = " or ".join(ref_label(r) for r in refs)
    return [_unmet(entry, _("must carry {cards} as an attachment", cards=wanted))]


def _host_faction(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    host = scope.hosts.get(entry.ref)
    if host is None or host.card.faction == record.get("faction"):
        return []
    faction = scope.context.faction_label(record.get("faction"))
    return [_unmet(entry, _("may only join a {faction} unit", faction=faction))]


def _host_class(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    """A class (Ranger) is a word of the unit's name: Ranger Hunters, Ranger Trackers."""
    host = scope.hosts.get(entry.ref)
    wanted = fold(record.get("class") or "")
    if host is None or not wanted or wanted in _WORD.findall(fold(host.card.name_en)):
        return []
    return [_unmet(entry, _("may only join a {kind} unit", kind=wanted.capitalize()))]


def _not_with(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    findings = []
    for ref in record.get("refs", ()):
        clash = entries_matching(ref, scope.draft, excluding=entry.ref)
        if clash:
            findings.append(
                _conflict(
                    (entry.ref, *(e.ref for e in clash)),
                    _(
                        "{card} may not be in an army with {cards}",
                        card=_label(entry),
                        cards=_names(clash),
                    ),
                )
            )
    return findings


def _controlled_by(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    controllers = [{"card": card_id} for card_id in record.get("cards", ())]
    if not controllers or any(
        entries_matching(ref, scope.draft, excluding=entry.ref) for ref in controllers
    ):
        return []
    wanted = ", ".join(record.get("cards", ()))
    reason = _("only comes with the card that controls it ({cards})", cards=wanted)
    return [_unmet(entry, reason)]


def _fielded_by_ability(entry: Entry, record: Mapping, scope: _Scope) -> list[Finding]:
    reason = _("is only brought into play by an ability, not bought in a list")
    return [_unmet(entry, reason)]


_WORD = re.compile(r"[a-z]+")

#: Record type -> its check. Types absent here are read elsewhere (points, AB-19, copy
#: limits, loyalties, the commander count) or change nothing in a list.
REQUIREMENT_CHECKS: dict[str, Callable[[Entry, Mapping, _Scope], list[Finding]]] = {
    "requires": _requires,
    "pet_of": _pet_of,
    "must_attach_to": _must_attach_to,
    "must_carry": _must_carry,
    "host_faction": _host_faction,
    "host_class": _host_class,
    "not_with": _not_with,
    "controlled_by": _controlled_by,
    "fielded_by_ability": _fielded_by_ability,
}


def ab28_card_requirements(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    constrained = draft.constrained
    if not constrained:
        return []
    findings: list[Finding] = []
    scope: _Scope | None = None
    for entry in constrained:
        for record in entry.card.requirements:
            check = REQUIREMENT_CHECKS.get(record.get("type", ""))
            if check is None:
                continue
            if scope is None:
                scope = _Scope(draft, context)
            findings.extend(check(entry, record, scope))
    return findings


def ab28_unit_group_limits(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    """At most `max` attachments of one group in a unit (one Bastard's Boy per unit)."""
    if not draft.constrained:
        return []
    findings = []
    for unit in draft.units:
        if len(unit.attachments) < 2:  # a group limit is at least 1
            continue
        groups: dict[str, list[Entry]] = defaultdict(list)
        limits: dict[str, int] = {}
        for attachment in unit.attachments:
            if not attachment.card.requirements:
                continue
            for record in attachment.card.records("unit_group_limit"):
                group = record.get("group", "")
                groups[group].append(attachment)
                limits[group] = min(limits.get(group, 99), int(record.get("max", 1)))
        for group, members in groups.items():
            if len(members) <= limits[group]:
                continue
            findings.append(
                Finding(
                    code="ATTACHMENT_LIMIT",
                    rule="AB-28",
                    message=_(
                        "{unit} carries {count} attachments of one group ({cards}); at most "
                        "{limit} in a unit",
                        unit=_label(unit),
                        count=len(members),
                        cards=_names(members),
                        limit=limits[group],
                    ),
                    entries=(unit.ref, *(a.ref for a in members)),
                    fix=_("move {cards} to another unit", cards=_names(members[limits[group] :])),
                )
            )
    return findings


def ab28_loyalties(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    """Cards tagged with different loyalties never share an army; untagged cards are free."""
    by_loyalty: dict[str, list[Entry]] = defaultdict(list)
    for entry in draft.constrained:
        if "loyalty" in entry.card.record_types:
            for record in entry.card.records("loyalty"):
                by_loyalty[record.get("to", "")].append(entry)
    if len(by_loyalty) < 2:
        return []
    groups = sorted(by_loyalty.items())
    entries = tuple(e.ref for _master, group in groups for e in group)
    loyalties = [_("{master}: {cards}", master=to, cards=_names(group)) for to, group in groups]
    described = Bilingual.of(lambda lang: "; ".join(m.in_language(lang) for m in loyalties))
    return [
        _conflict(
            entries,
            _("cards loyal to different masters cannot mix ({loyalties})", loyalties=described),
        )
    ]


_COPY_TYPES = frozenset({"copy_limit", "copy_limit_per"})


def ab28_copy_limits(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    findings = []
    by_card: dict[str, list[Entry]] = defaultdict(list)
    for entry in draft.constrained:
        if not entry.card.record_types.isdisjoint(_COPY_TYPES):
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
        message=_(
            "{count} copies of {card}; at most {limit} allowed",
            count=len(entries),
            card=Bilingual.of(card.label),
            limit=limit,
        ),
        entries=tuple(e.ref for e in entries),
        fix=_("remove {count} {card}", count=len(entries) - limit, card=Bilingual.of(card.label)),
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
                            _(
                                "with {cards} the army may not include {excluded}",
                                cards=_names(trigger),
                                excluded=_names(clash),
                            ),
                            rule=rule,
                        )
                    )
        elif kind == "prefer_faction_version":
            own = context.faction_label(draft.faction)
            for entry in draft.entries():
                if entry.card.faction != record.get("over", "neutral"):
                    continue
                shared = set(entry.card.characters) & context.faction_characters
                if shared:
                    findings.append(
                        _conflict(
                            (entry.ref,),
                            _(
                                "{card}: a {army} army must take the {army} version of "
                                "{characters}",
                                card=_label(entry),
                                army=own,
                                characters=", ".join(sorted(shared)),
                            ),
                            rule=rule,
                        )
                    )
        elif kind == "optional_commander":
            # The rule's companions are needed whenever its card leads: chosen through the
            # rule (Mag, Varamyr) or printed as a commander (Doran, Lord of Sunspear, NCU).
            ids = record.get("commander_cards") or ()
            leaders = [
                e
                for e in draft.commanders
                if e.card.id in ids
                or (not ids and ref_matches_card(record.get("commander", {}), e.card))
            ]
            for leader in leaders:
                for ref in record.get("requires", ()):
                    if not entries_answering(ref, draft, excluding=leader.ref):
                        findings.append(
                            _unmet(
                                leader,
                                _("as commander, requires {card} in the army", card=ref_label(ref)),
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
    ("AB-28-groups", ab28_unit_group_limits),
    ("AB-28-loyalty", ab28_loyalties),
    ("faction-rule-cards", faction_rule_cards),
)


@dataclass(frozen=True)
class ArmyReport(Report):
    totals: Totals


def compute_totals(draft: ArmyDraft, context: ArmyContext) -> Totals:
    points = entry_points(draft, context)
    spent = sum(points.values())
    return Totals(
        points=points,
        spent=spent,
        neutral=neutral_points(draft, points),
        neutral_cap=neutral_cap(draft, spent),
    )


def list_not_empty(draft: ArmyDraft, context: ArmyContext, totals: Totals) -> list[Finding]:
    """An empty army is not legal, it is empty: nothing to judge yet."""
    if draft.entries():
        return []
    return [
        Finding(
            code="LIST_EMPTY",
            rule="AB-01",
            message=_("the army is empty: add a commander and units to build it"),
        )
    ]


def validate_army(draft: ArmyDraft, context: ArmyContext | None = None) -> ArmyReport:
    context = context or ArmyContext()
    totals = compute_totals(draft, context)
    findings: list[Finding] = []
    # An empty army says so first (LIST_EMPTY: its status is "empty"); the other rules
    # still run, so their findings say what to do next (a commander).
    for _rule_id, rule in (("AB-01-empty", list_not_empty), *RULES):
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
        if len({index for index, _entry in owners}) < 2:
            continue
        findings.append(
            Finding(
                code="TEAM_CHARACTER_DUPLICATE",
                rule="AB-30",
                message=_(
                    "the character {character} appears in {count} allied lists",
                    character=key,
                    count=len(owners),
                ),
                entries=tuple(f"list-{index + 1}.{entry.ref}" for index, entry in owners),
                data={"character": key},
            )
        )
    return findings
