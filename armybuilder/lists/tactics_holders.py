"""Which figure may carry an equipment item, and why not: pure functions over the draft.

Like `lists.hosts` for TMG attachments, the answer is never a second copy of the rules: the
Tactics validator runs on trial drafts.

* baseline: the warband with the item bought but carried by nobody. What it adds to the
  current findings (coins over budget, a second unique item, …) follows from buying it at
  all: side effects, shown with every figure but blocking none. EQUIPMENT_NO_HOLDER is left
  out: it only says nobody carries the item, which is what the trial does.
* for each figure: the item given to that figure. A finding the baseline does not have
  (the figure already carries something, its type may not take it, it is mounted, …) is a
  reason against this holder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from armybuilder.findings import Finding, Severity
from armybuilder.tactics.draft import EquipmentEntry, TacticsCard, WarbandContext, WarbandDraft
from armybuilder.tactics.validator import validate_warband

TRIAL_REF = "equipment-new"


@dataclass(frozen=True)
class HolderCheck:
    figure_ref: str
    allowed: bool
    reasons: tuple[Finding, ...] = ()  # errors giving it to this figure causes
    side_effects: tuple[Finding, ...] = ()  # errors buying the item causes, whoever carries it


def _key(finding: Finding) -> tuple[str, str]:
    return finding.code, finding.message.en


def _errors(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


def _new(findings: Iterable[Finding], known: Iterable[Finding]) -> list[Finding]:
    """`findings` minus `known`, as multisets of (code, message)."""
    left = Counter(_key(f) for f in known)
    new = []
    for finding in findings:
        if left[_key(finding)] > 0:
            left[_key(finding)] -= 1
        else:
            new.append(finding)
    return new


def check_holders(
    draft: WarbandDraft, context: WarbandContext, item: TacticsCard
) -> tuple[HolderCheck, ...]:
    """One HolderCheck per figure of `draft`, in warband order."""
    current = _errors(validate_warband(draft, context).findings)
    bought = replace(draft, equipment=(*draft.equipment, EquipmentEntry(ref=TRIAL_REF, card=item)))
    baseline = [
        f
        for f in _errors(validate_warband(bought, context).findings)
        if not (f.code == "EQUIPMENT_NO_HOLDER" and TRIAL_REF in f.entries)
    ]
    side_effects = tuple(_new(baseline, current))
    checks = []
    for figure in draft.figures:
        trial = replace(
            draft,
            equipment=(
                *draft.equipment,
                EquipmentEntry(ref=TRIAL_REF, card=item, holder=figure.ref),
            ),
        )
        reasons = tuple(_new(_errors(validate_warband(trial, context).findings), baseline))
        checks.append(
            HolderCheck(
                figure_ref=figure.ref,
                allowed=not reasons,
                reasons=reasons,
                side_effects=side_effects,
            )
        )
    return tuple(checks)


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
