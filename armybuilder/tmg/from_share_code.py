"""From a decoded War Council share code to an ArmyDraft (ids are community card ids)."""

from __future__ import annotations

from collections.abc import Mapping

from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import reading_finding
from armybuilder.listtext.warcouncil import WarCouncilList
from common.i18n import _

from .draft import ArmyDraft, CardFacts, Entry, UnitEntry
from .rulesets import Ruleset


def _unknown_id(card_id: str) -> Finding:
    return reading_finding(
        "CARD_UNKNOWN",
        severity=Severity.ERROR,
        message=_(
            "the share code names card {card}, which is not in the card database", card=card_id
        ),
        entries=(f"card-{card_id}",),
    )


def draft_from_share_code(
    code: WarCouncilList,
    *,
    cards: Mapping[str, CardFacts],
    ruleset: Ruleset,
    default_points: int = 40,
) -> tuple[ArmyDraft, tuple[Finding, ...]]:
    findings: list[Finding] = []

    def card(card_id: str) -> CardFacts | None:
        found = cards.get(card_id)
        if found is None:
            findings.append(_unknown_id(card_id))
        return found

    units: list[UnitEntry] = []
    for unit in code.units:
        unit_card = card(unit.unit_id)
        if unit_card is None:
            continue
        attachments = [card(a) for a in unit.attachment_ids]
        units.append(
            UnitEntry.with_attachments(
                f"unit-{len(units) + 1}", unit_card, (a for a in attachments if a is not None)
            )
        )
    ncus = [c for c in (card(i) for i in code.ncu_ids) if c is not None]
    extras = [c for c in (card(i) for i in code.extra_ids) if c is not None]
    factions = [u.card.faction for u in units if not u.card.is_neutral]
    draft = ArmyDraft(
        faction=code.faction or (max(set(factions), key=factions.count) if factions else "neutral"),
        points_limit=code.points or default_points,
        ruleset=ruleset,
        units=tuple(units),
        ncus=tuple(Entry(ref=f"ncu-{i + 1}", card=c) for i, c in enumerate(ncus)),
        unattached=tuple(Entry(ref=f"attachment-{i + 1}", card=c) for i, c in enumerate(extras)),
        name=code.name,
    )
    return draft, tuple(findings)
