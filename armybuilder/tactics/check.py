"""Checking a Tactics warband: read text into a draft, validate it, and build the typed
`CheckResult` (coins spent against the budget, figures, entries with what carries them,
the canonical text). Pure: the card pool is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from armybuilder.findings import Finding
from armybuilder.listtext.reading import LineReading, reading_finding
from armybuilder.result import CheckResult, CoinTotals, ResultEntry, in_display_order
from common.i18n import _

from .draft import Coins, TacticsCard, WarbandContext, WarbandDraft
from .text import EntryReading, read_warband, write_warband_text
from .validator import validate_warband

if TYPE_CHECKING:
    from armybuilder.pool import TacticsPool

GAME = "tactics"


def scenario_label(draft: WarbandDraft, pool: TacticsPool) -> str:
    """What the canonical text writes after `Scenario:`."""
    budget = draft.budget
    return (
        pool.scenario_labels.get(budget.label(), budget.label()) if budget else ""
    ) or draft.scenario


def check_draft(
    draft: WarbandDraft,
    *,
    pool: TacticsPool,
    lang: str = "en",
    findings: Sequence[Finding] = (),
    context: WarbandContext | None = None,
    lines: tuple[LineReading, ...] = (),
    read: Mapping[str, EntryReading] | None = None,
) -> CheckResult:
    """Validate a warband draft: the one place a Tactics result is built, for pasted text
    and saved warbands alike. `findings`: what reading the text found; `context`: the
    cards the player could still buy (default: the faction's pool); `lines` and `read`:
    for pasted text, how each line and each entry was read."""
    report = validate_warband(draft, context or pool.context_for(draft.faction))
    holders = {item.ref: item.holder for item in draft.equipment}
    read = read or {}
    return CheckResult(
        game=GAME,
        lang=lang,
        draft=draft,
        findings=in_display_order([*findings, *report.findings]),
        coins=CoinTotals(spent=report.spent, budget=draft.budget),
        figures=report.figures,
        entries=tuple(
            _entry(entry.ref, entry.card, holders.get(entry.ref), read.get(entry.ref))
            for entry in draft.entries()
        ),
        text=write_warband_text(
            draft,
            faction_names=pool.faction_names,
            scenario_label=scenario_label(draft, pool),
            lang=lang,
        ),
        lines=lines,
    )


def _entry(ref: str, card: TacticsCard, host: str | None, read: EntryReading | None) -> ResultEntry:
    if read is None:
        return ResultEntry(ref=ref, card=card, role=card.kind, host=host)
    return ResultEntry(
        ref=ref,
        card=card,
        role=card.kind,
        host=host,
        line=read.line,
        corrected_from=read.corrected_from,
        how=read.how,
        alternatives=read.alternatives,
        printed_cost=read.printed_cost,
    )


def check_text(
    text: str,
    *,
    pool: TacticsPool,
    lang: str = "en",
    findings: Sequence[Finding] = (),
    budget: Coins | None = None,
) -> CheckResult:
    """Read a pasted warband and check it: every line of `text` is in `lines`.
    `budget`: the coins to judge it with (an event's), whatever the warband says."""
    reading = read_warband(
        text, index=pool.index, scenarios=pool.scenarios, factions=pool.faction_aliases
    )
    read_findings = [*reading.findings, *findings]
    if reading.draft is None:
        return CheckResult(
            game=GAME, lang=lang, findings=in_display_order(read_findings), lines=reading.lines
        )
    draft = reading.draft
    if budget is not None:
        draft, applied = at_budget(draft, budget)
        read_findings = [*(f for f in read_findings if f.code != "SCENARIO_UNKNOWN"), *applied]
    return check_draft(
        draft,
        pool=pool,
        lang=lang,
        findings=read_findings,
        lines=reading.lines,
        read=reading.entries,
    )


def at_budget(draft: WarbandDraft, budget: Coins) -> tuple[WarbandDraft, tuple[Finding, ...]]:
    """The warband judged with a budget set from outside (an event's), with a warning
    when it said another one."""
    if draft.budget == budget:
        return draft, ()
    said = draft.budget
    draft = replace(draft, budget=budget, scenario="")
    if said is None:
        return draft, ()
    return draft, (
        reading_finding(
            "EVENT_SIZE_APPLIED",
            _(
                "the warband says {said}; it is judged with the event's {budget}",
                said=said.label(),
                budget=budget.label(),
            ),
            data={"said": said.as_dict(), "budget": budget.as_dict()},
        ),
    )
