"""What each entry of a TMG army costs once card and faction rules have had their say."""

from __future__ import annotations

from collections.abc import Mapping

from cards.normalise import fold, slug_key

from .draft import ArmyContext, ArmyDraft, CardFacts, Entry, UnitEntry


def ref_matches_card(ref: Mapping, card: CardFacts) -> bool:
    """Does a requirement reference ({"cards"}, {"name", "title"}, {"faction"}) name this card?"""
    if ref.get("faction"):
        return card.faction == ref["faction"]
    if ref.get("card"):
        return card.id == ref["card"]
    if ref.get("cards") and card.id in ref["cards"]:
        return True
    name = ref.get("name")
    if not name:
        return False
    title = ref.get("title")
    if card.matches_name(name, title):
        return True
    # A bare person's name also matches any card of that person (every version).
    return title is None and slug_key(name) in card.characters


def entries_matching(
    ref: Mapping, draft: ArmyDraft, *, excluding: str | None = None
) -> list[Entry]:
    return [
        entry
        for entry in draft.entries()
        if entry.ref != excluding and ref_matches_card(ref, entry.card)
    ]


def ref_label(ref: Mapping) -> str:
    if ref.get("faction"):
        return f"House {ref['faction'].capitalize()}"
    if ref.get("name"):
        return f"{ref['name']}, {ref['title']}" if ref.get("title") else ref["name"]
    return ref.get("card") or ", ".join(ref.get("cards", ()))


def commander_entries(draft: ArmyDraft) -> list[Entry]:
    return list(draft.commanders)


def _optional_commander_record(draft: ArmyDraft, context: ArmyContext) -> Mapping | None:
    if draft.chosen_commander is None:
        return None
    chosen = next((e for e in draft.entries() if e.ref == draft.chosen_commander), None)
    if chosen is None:
        return None
    for record in context.faction_rules:
        if record.get("type") == "optional_commander" and ref_matches_card(
            record.get("commander", {}), chosen.card
        ):
            return record
    return None


def entry_points(draft: ArmyDraft, context: ArmyContext) -> dict[str, int]:
    """Points per entry ref after reductions (never below 0)."""
    hosts: dict[str, UnitEntry] | None = None
    points: dict[str, int] = {}
    free_groups_used: set[str] = set()
    for entry in draft.entries():
        card = entry.card
        cost = card.points or 0
        if not card.requirements:
            points[entry.ref] = cost
            continue
        for record in entry.card.records("cost_reduction"):
            present = record.get("when_present")
            attached_to = record.get("when_attached_to")
            if hosts is None:
                hosts = {a.ref: unit for unit, a in draft.attachments() if unit is not None}
            host: UnitEntry | None = hosts.get(entry.ref)
            if (present and entries_matching(present, draft, excluding=entry.ref)) or (
                attached_to and host is not None and ref_matches_card(attached_to, host.card)
            ):
                cost -= int(record.get("amount", 1))
        for record in entry.card.records("first_free"):
            group = record.get("group", entry.card.id)
            if group not in free_groups_used:
                free_groups_used.add(group)
                cost = 0
        points[entry.ref] = max(cost, 0)

    optional = _optional_commander_record(draft, context)
    if optional is not None and optional.get("points") is not None and draft.chosen_commander:
        points[draft.chosen_commander] = int(optional["points"])

    for record in context.faction_rules:
        if record.get("type") != "attachment_discount":
            continue
        priced = sorted(
            (a for _, a in draft.attachments() if points.get(a.ref, 0) > 0),
            key=lambda a: -points[a.ref],
        )
        for attachment in priced[: int(record.get("count", 1))]:
            points[attachment.ref] = max(points[attachment.ref] - int(record.get("amount", 1)), 0)
    return points


def neutral_points(draft: ArmyDraft, points: Mapping[str, int]) -> int:
    neutrals = [entry.ref for entry in draft.entries() if entry.card.faction == "neutral"]
    if not neutrals:
        return 0
    if not draft.ruleset.neutral_commander_counts_towards_cap:
        commanders = {entry.ref for entry in draft.commanders}
        neutrals = [ref for ref in neutrals if ref not in commanders]
    return sum(points.get(ref, 0) for ref in neutrals)


def neutral_cap(draft: ArmyDraft, spent: int) -> int:
    basis = spent if draft.ruleset.neutral_cap_basis == "points_spent" else draft.points_limit
    return basis * draft.ruleset.neutral_cap_percent // 100


def same_name(a: str, b: str) -> bool:
    return fold(a) == fold(b)
