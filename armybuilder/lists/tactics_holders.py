"""Which figure may carry an equipment item, and why not: pure functions over the draft.

The trial drafts are Tactics' (the item bought but carried by nobody, then given to each
figure in turn); comparing their findings is `lists.placements`, shared with the TMG host
chooser.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from armybuilder.tactics.draft import EquipmentEntry, TacticsCard, WarbandContext, WarbandDraft
from armybuilder.tactics.validator import validate_warband

from .placements import PlacementCheck, check_placements

TRIAL_REF = "equipment-new"


def check_holders(
    draft: WarbandDraft, context: WarbandContext, item: TacticsCard
) -> tuple[PlacementCheck, ...]:
    """One check per figure of `draft`, in warband order (`ref`: the figure's)."""

    def bought(holder: str | None) -> WarbandDraft:
        trial = EquipmentEntry(ref=TRIAL_REF, card=item, holder=holder)
        return replace(draft, equipment=(*draft.equipment, trial))

    return check_placements(
        lambda trial: validate_warband(trial, context).findings,
        draft=draft,
        taken=bought(None),
        trials=((figure.ref, bought(figure.ref)) for figure in draft.figures),
        unplaced=("EQUIPMENT_NO_HOLDER", TRIAL_REF),
    )


def counterpart(card: TacticsCard, cards: Iterable[TacticsCard]) -> TacticsCard | None:
    """The mounted version of a foot character, or the foot version of a mounted one."""
    if card.kind not in ("hero", "champion") or not card.characters:
        return None
    keys = set(card.characters)
    return next(
        (
            other
            for other in cards
            if other.id != card.id
            and other.kind in ("hero", "champion")
            and other.mounted != card.mounted
            and keys & set(other.characters)
        ),
        None,
    )
