"""Which combat unit may take an attachment, and why not: pure functions over the draft.

The trial drafts are TMG's (the card on no unit, then on each unit in turn); comparing
their findings is `lists.placements`, shared with the Tactics holder chooser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from armybuilder.tmg.draft import ArmyContext, ArmyDraft, CardFacts, Entry
from armybuilder.tmg.points import ref_matches_card
from armybuilder.tmg.validator import validate_army

from .placements import PlacementCheck, check_placements

TRIAL_REF = "attachment-new"


def check_hosts(
    draft: ArmyDraft, context: ArmyContext, attachment: CardFacts
) -> tuple[PlacementCheck, ...]:
    """One check per combat unit of `draft`, in list order (`ref`: the unit's)."""

    def hosted(index: int) -> ArmyDraft:
        unit = draft.units[index]
        trial = Entry(ref=f"{unit.ref}.{TRIAL_REF}", card=attachment)
        unit = replace(unit, attachments=(*unit.attachments, trial))
        return replace(draft, units=(*draft.units[:index], unit, *draft.units[index + 1 :]))

    return check_placements(
        lambda trial: validate_army(trial, context).findings,
        draft=draft,
        taken=replace(draft, unattached=(*draft.unattached, Entry(ref=TRIAL_REF, card=attachment))),
        trials=((unit.ref, hosted(index)) for index, unit in enumerate(draft.units)),
        unplaced=("ATTACHMENT_NO_HOST", TRIAL_REF),
    )


def may_be_chosen_commander(card: CardFacts, faction_rules: tuple[Mapping, ...]) -> bool:
    """A card a faction rule lets the player pick as commander (Mag the Mighty, …)."""
    return not card.is_commander and any(
        record.get("type") == "optional_commander"
        and (
            card.id in (record.get("commander_cards") or ())
            or ref_matches_card(record.get("commander") or {}, card)
        )
        for record in faction_rules
    )
