"""Which combat unit may take an attachment, and why not: pure functions over the draft.

The answer is never a second copy of the rules: the validator runs on trial drafts.

* baseline: the list with the card taken but on no unit. What it adds to the current
  list's findings (a second commander, a duplicate character, neutral points over the cap,
  points over the limit, …) follows from taking the card at all: these are side effects,
  shown with every host but blocking none. ATTACHMENT_NO_HOST is left out: it only says
  the card is on no unit, which is what the trial does.
* for each unit: the card put on that unit. A finding (code and message) that the baseline
  does not have comes from this placement (a full unit, a solo unit, another unit type, a
  card that must join someone else, …): a reason against this host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from armybuilder.findings import Finding, Severity
from armybuilder.tmg.draft import ArmyContext, ArmyDraft, CardFacts, Entry
from armybuilder.tmg.points import ref_matches_card
from armybuilder.tmg.validator import validate_army

TRIAL_REF = "attachment-new"


@dataclass(frozen=True)
class HostCheck:
    unit_ref: str
    allowed: bool
    reasons: tuple[Finding, ...] = ()  # errors this placement causes
    side_effects: tuple[Finding, ...] = ()  # errors taking the card causes wherever it goes
    resolves: tuple[str, ...] = ()  # codes that disappear (e.g. COMMANDER_MISSING)


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


def check_hosts(
    draft: ArmyDraft, context: ArmyContext, attachment: CardFacts
) -> tuple[HostCheck, ...]:
    """One HostCheck per combat unit of `draft`, in list order."""
    current = _errors(validate_army(draft, context).findings)
    taken = replace(draft, unattached=(*draft.unattached, Entry(ref=TRIAL_REF, card=attachment)))
    baseline = [
        f
        for f in _errors(validate_army(taken, context).findings)
        if not (f.code == "ATTACHMENT_NO_HOST" and TRIAL_REF in f.entries)
    ]
    side_effects = tuple(_new(baseline, current))
    before_codes = Counter(f.code for f in current)
    checks = []
    for index, unit in enumerate(draft.units):
        hosted = replace(
            unit,
            attachments=(*unit.attachments, Entry(ref=f"{unit.ref}.{TRIAL_REF}", card=attachment)),
        )
        trial = replace(draft, units=(*draft.units[:index], hosted, *draft.units[index + 1 :]))
        after = _errors(validate_army(trial, context).findings)
        reasons = tuple(_new(after, baseline))
        checks.append(
            HostCheck(
                unit_ref=unit.ref,
                allowed=not reasons,
                reasons=reasons,
                side_effects=side_effects,
                resolves=tuple(sorted(before_codes - Counter(f.code for f in after))),
            )
        )
    return tuple(checks)


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
