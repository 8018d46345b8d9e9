"""Checking a TMG army: read text or a War Council share code into a draft, validate it,
and build the typed `CheckResult` (points, entries with their points, the tactics deck,
the canonical text). Pure: the card pool is passed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import LineKind, LineReading, reading_finding
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.listtext.warcouncil import ShareCodeError, decode_share_code, looks_like_share_code
from armybuilder.result import CheckResult, PointsTotals, ResultEntry, in_display_order
from common.i18n import _

from .deck import build_tactics_deck
from .draft import ArmyDraft
from .from_share_code import draft_from_share_code
from .from_text import ResolvedEntry, build_tmg_draft
from .rulesets import Ruleset
from .to_text import write_tmg_text
from .validator import validate_army

if TYPE_CHECKING:
    from armybuilder.pool import TmgPool

GAME = "tmg"


def draft_entries(draft: ArmyDraft) -> tuple[ResolvedEntry, ...]:
    """The entries of a draft that was not read from text (a saved list): no line numbers."""
    rows: list[ResolvedEntry] = []
    for unit in draft.units:
        rows.append(ResolvedEntry(ref=unit.ref, line=None, card=unit.card, role="unit"))
        rows.extend(
            ResolvedEntry(ref=a.ref, line=None, card=a.card, role="attachment", host=unit.ref)
            for a in unit.attachments
        )
    rows.extend(
        ResolvedEntry(ref=a.ref, line=None, card=a.card, role="attachment")
        for a in draft.unattached
    )
    rows.extend(ResolvedEntry(ref=n.ref, line=None, card=n.card, role="ncu") for n in draft.ncus)
    return tuple(rows)


def cost_differences(rows: Sequence[ResolvedEntry], points: Mapping[str, int]) -> list[Finding]:
    """One warning naming every entry whose printed cost is not what it costs in this army
    by the current card data (costs printed in an older season, or a typo)."""
    # `2x Outriders (12)`: a cost printed once for several copies read from one line.
    copies: Counter[tuple[int | None, str]] = Counter((row.line, row.card.id) for row in rows)
    differing = [
        row
        for row in rows
        if row.printed_cost is not None
        and row.printed_cost.isdigit()
        and row.ref in points
        and int(row.printed_cost)
        not in {
            cost * times
            for cost in (points[row.ref], row.card.points or 0)
            for times in {1, copies[(row.line, row.card.id)]}
        }
    ]
    if not differing:
        return []
    details = "; ".join(
        f"{row.card.name_en} {row.printed_cost} → {points[row.ref]}" for row in differing
    )
    return [
        reading_finding(
            "COST_DIFFERS",
            message=_(
                "printed costs differ from the current card data (printed → now): {details}",
                details=details,
            ),
            entries=tuple(row.ref for row in differing),
            fix=_("the current costs are the ones counted"),
        )
    ]


def unread(ruleset: Ruleset, findings: Sequence[Finding], *, lang: str) -> CheckResult:
    """Nothing could be read: the findings say why."""
    return CheckResult(
        game=GAME, lang=lang, ruleset=ruleset.id, findings=in_display_order(list(findings))
    )


def check_draft(
    draft: ArmyDraft,
    *,
    pool: TmgPool,
    lang: str = "en",
    entries: Sequence[ResolvedEntry] | None = None,
    findings: Sequence[Finding] = (),
    points_assumed: bool = False,
    lines: Sequence[LineReading] = (),
) -> CheckResult:
    """Validate a draft: the one place a TMG result is built, for pasted text and saved
    lists alike. `entries`: the resolved lines of a pasted list (default: the draft's
    own entries); `findings`: what reading the text already found."""
    context = pool.context_for(draft.faction)
    report = validate_army(draft, context)
    totals = report.totals
    rows = draft_entries(draft) if entries is None else entries
    differs = cost_differences(rows, totals.points)
    return CheckResult(
        game=GAME,
        lang=lang,
        draft=draft,
        findings=in_display_order([*findings, *report.findings, *differs]),
        lines=tuple(lines),
        ruleset=draft.ruleset.id,
        points=PointsTotals(
            spent=totals.spent,
            limit=draft.points_limit,
            neutral=totals.neutral,
            neutral_cap=totals.neutral_cap,
            limit_assumed=points_assumed,
        ),
        entries=tuple(
            ResultEntry(
                ref=row.ref,
                card=row.card,
                role=row.role,
                line=row.line,
                host=row.host,
                points=totals.points.get(row.ref, 0),
                commander=row.card.is_commander or row.ref == draft.chosen_commander,
                corrected_from=row.corrected_from,
                how=row.how,
                alternatives=row.alternatives,
                printed_cost=row.printed_cost,
            )
            for row in rows
        ),
        deck=build_tactics_deck(draft, context),
        text=write_tmg_text(draft, faction_names=pool.faction_names, lang=lang),
    )


def check_text(
    text: str,
    *,
    pool: TmgPool,
    ruleset: Ruleset | None,
    default_ruleset: Ruleset,
    lang: str = "en",
    findings: Sequence[Finding] = (),
    points_limit: int | None = None,
) -> CheckResult:
    """Read a pasted army list and check it. `ruleset`: the one asked for (None: the
    list's own `Ruleset:` line, else `default_ruleset`). `points_limit`: the game size
    to judge it at (an event's), whatever size the list says."""
    from .rulesets import UnknownRuleset, get_ruleset

    if looks_like_share_code(text):
        result = check_share_code(
            text,
            pool=pool,
            ruleset=ruleset or default_ruleset,
            lang=lang,
            points_limit=points_limit,
        )
        return replace(result, lines=share_code_lines(text, result))
    parsed = parse_tmg_text(text, factions=pool.faction_aliases)
    if ruleset is None:
        try:
            ruleset = get_ruleset(parsed.ruleset)
        except UnknownRuleset:
            ruleset = default_ruleset
    build = build_tmg_draft(
        parsed, index=pool.index, factions=pool.faction_aliases, ruleset=ruleset
    )
    read_findings = [*build.findings, *findings]
    if build.draft is None:
        return replace(unread(ruleset, read_findings, lang=lang), lines=build.lines)
    draft, points_assumed = build.draft, build.points_assumed
    if points_limit is not None:
        draft, applied = at_game_size(draft, points_limit, declared=not points_assumed)
        read_findings = [
            *(f for f in read_findings if f.code != "POINTS_ASSUMED"),
            *applied,
        ]
        points_assumed = False
    return check_draft(
        draft,
        pool=pool,
        lang=lang,
        entries=build.entries,
        findings=read_findings,
        points_assumed=points_assumed,
        lines=build.lines,
    )


def at_game_size(
    draft: ArmyDraft, points_limit: int, *, declared: bool = True
) -> tuple[ArmyDraft, tuple[Finding, ...]]:
    """The draft judged at a size set from outside (an event's), with a warning when the
    list itself said another size."""
    if draft.points_limit == points_limit:
        return draft, ()
    said = draft.points_limit
    draft = replace(draft, points_limit=points_limit)
    if not declared:
        return draft, ()
    return draft, (
        reading_finding(
            "EVENT_SIZE_APPLIED",
            _(
                "the list says {said} points; it is judged at the event's {size}",
                said=said,
                size=points_limit,
            ),
            data={"said": said, "size": points_limit},
        ),
    )


def share_code_lines(text: str, result: CheckResult) -> tuple[LineReading, ...]:
    """A pasted share code, line by line: the code's line holds every entry."""
    refs = tuple(entry.ref for entry in result.entries)
    return tuple(
        LineReading(
            number=number,
            text=line,
            kind=LineKind.CARD if refs else LineKind.UNKNOWN,
            refs=refs,
            note=_("a War Council share code"),
        )
        if line.strip()
        else LineReading(number=number, text=line, kind=LineKind.BLANK)
        for number, line in enumerate(text.splitlines(), start=1)
    )


def check_share_code(
    code: str,
    *,
    pool: TmgPool,
    ruleset: Ruleset,
    lang: str = "en",
    points_limit: int | None = None,
) -> CheckResult:
    try:
        decoded = decode_share_code(code)
    except ShareCodeError as exc:
        unreadable = reading_finding(
            "LIST_UNPARSEABLE",
            severity=Severity.ERROR,
            message=_(
                "this looks like a War Council share code but cannot be read ({error})",
                error=str(exc),
            ),
        )
        return unread(ruleset, [unreadable], lang=lang)
    draft, read_findings = draft_from_share_code(decoded, cards=pool.by_id, ruleset=ruleset)
    if points_limit is not None:
        draft, applied = at_game_size(draft, points_limit, declared=bool(decoded.points))
        read_findings = (*read_findings, *applied)
    return check_draft(draft, pool=pool, lang=lang, findings=read_findings)
