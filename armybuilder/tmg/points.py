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


def _same_person(ref: Mapping, alias: Mapping) -> bool:
    """Does a name ref name the character an alias (`counts_as` ref) stands for?"""
    name = ref.get("name")
    if not name or ref.get("faction") or ref.get("card"):
        return False
    if fold(name) == fold(alias.get("name") or ""):
        return not ref.get("title") or fold(ref["title"]) == fold(alias.get("title") or "")
    return not ref.get("title") and bool(
        set(ref.get("characters") or ()) & set(alias.get("characters") or ())
    )


def answers_to(ref: Mapping, card: CardFacts, draft: ArmyDraft) -> bool:
    """Does `card` meet another card's condition that looks for `ref` (a need, a companion's
    owner, a cost reduction, a host condition)? Its own identity, or a `counts_as` record:
    a named character, or the army's commander. Exclusions, uniqueness and the commander
    count use `ref_matches_card` alone."""
    if ref_matches_card(ref, card):
        return True
    if not card.requirements:
        return False
    for alias in card.aliases:
        if alias.get("commander"):
            if any(ref_matches_card(ref, e.card) for e in draft.commanders if e.card is not card):
                return True
        elif _same_person(ref, alias.get("ref") or {}):
            return True
    return False


def entries_answering(
    ref: Mapping, draft: ArmyDraft, *, excluding: str | None = None
) -> list[Entry]:
    """The entries that meet a condition looking for `ref` (see `answers_to`)."""
    found = entries_matching(ref, draft, excluding=excluding)
    for entry in draft.aliased:
        if entry.ref != excluding and entry not in found and answers_to(ref, entry.card, draft):
            found.append(entry)
    return found


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


def _reduction_applies(
    record: Mapping, entry: Entry, host: UnitEntry | None, draft: ArmyDraft
) -> bool:
    present = record.get("when_present")
    if present and entries_answering(present, draft, excluding=entry.ref):
        return True
    attached_to = record.get("when_attached_to")
    if not attached_to or host is None:
        return False
    return ref_matches_card(attached_to, host.card)


_OWN_COST_TYPES = frozenset({"cost_reduction", "first_free"})


def _own_reductions(draft: ArmyDraft, reducers: list[Entry]) -> dict[str, int]:
    """Points per entry after the reductions a card prints for itself (`cost_reduction`,
    `first_free`): `free` makes it cost nothing, `first_only` gives it to the first copy.
    Collects in `reducers` the entries whose card lowers the cost of others."""
    hosts: dict[str, UnitEntry] | None = None
    points: dict[str, int] = {}
    free_groups_used: set[str] = set()
    first_copies_used: set[str] = set()
    for entry in draft.entries():
        card = entry.card
        cost = card.points or 0
        if not card.requirements:
            points[entry.ref] = cost
            continue
        types = card.record_types
        if "reduces_cost_of" in types:
            reducers.append(entry)
        if types.isdisjoint(_OWN_COST_TYPES):
            points[entry.ref] = cost
            continue
        for record in card.records("cost_reduction"):
            if hosts is None:
                hosts = {a.ref: unit for unit, a in draft.attachments() if unit is not None}
            if not _reduction_applies(record, entry, hosts.get(entry.ref), draft):
                continue
            if record.get("first_only"):
                if card.id in first_copies_used:
                    continue
                first_copies_used.add(card.id)
            cost = 0 if record.get("free") else cost - int(record.get("amount", 1))
        for record in card.records("first_free"):
            group = record.get("group", card.id)
            if group not in free_groups_used:
                free_groups_used.add(group)
                cost = 0
        points[entry.ref] = max(cost, 0)
    return points


def _reduction_targets(entry: Entry, record: Mapping, draft: ArmyDraft) -> list[Entry]:
    """The cards a `reduces_cost_of` record may lower: the attachments of the entry's own
    unit, or any other card of the army; narrowed by kind and refs."""
    if record.get("scope") == "own_unit":
        pool: tuple[Entry, ...] = entry.attachments if isinstance(entry, UnitEntry) else ()
    else:
        pool = tuple(e for e in draft.entries() if e.ref != entry.ref)
    kind, refs = record.get("kind"), record.get("refs") or ()
    return [
        e
        for e in pool
        if (not kind or e.card.kind == kind)
        and (not refs or any(ref_matches_card(r, e.card) for r in refs))
    ]


def _reductions_of_others(reducers: list[Entry], draft: ArmyDraft, points: dict[str, int]) -> None:
    """Apply `reduces_cost_of` (Adaptive, Daenerys and her dragons): each record lowers its
    `count` most expensive targets that still cost something (what a player would pick)."""
    for entry in reducers:
        for record in entry.card.records("reduces_cost_of"):
            targets = [
                e for e in _reduction_targets(entry, record, draft) if points.get(e.ref, 0) > 0
            ]
            if len(targets) > 1:
                targets.sort(key=lambda e: -points[e.ref])
            amount = int(record.get("amount", 1))
            for target in targets[: int(record.get("count", 1))]:
                points[target.ref] = max(points[target.ref] - amount, 0)


def entry_points(draft: ArmyDraft, context: ArmyContext) -> dict[str, int]:
    """Points per entry ref after reductions (never below 0)."""
    reducers: list[Entry] = []
    points = _own_reductions(draft, reducers)
    if reducers:
        _reductions_of_others(reducers, draft, points)

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
