"""Checking lists pasted as text: one service for the CLI, the API, the builder and the PDF.

Results are plain dicts in the shape of contracts §3 (`checklist --format json`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from armybuilder.citations import rule_urls
from armybuilder.findings import Finding, Severity, Text, is_legal
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.listtext.warcouncil import ShareCodeError, decode_share_code, looks_like_share_code
from armybuilder.pool import TacticsPool, TmgPool, tactics_pool, tmg_pool
from armybuilder.tactics.draft import WarbandContext, WarbandDraft
from armybuilder.tactics.text import build_warband, parse_warband_text, write_warband_text
from armybuilder.tactics.validator import validate_warband
from armybuilder.tmg.deck import build_tactics_deck
from armybuilder.tmg.draft import ArmyDraft, Entry
from armybuilder.tmg.from_share_code import draft_from_share_code
from armybuilder.tmg.from_text import ResolvedEntry, build_tmg_draft
from armybuilder.tmg.rulesets import Ruleset, UnknownRuleset, get_ruleset
from armybuilder.tmg.to_text import write_tmg_text
from armybuilder.tmg.validator import validate_army, validate_team

GAMES = ("tmg", "tactics")
_TACTICS_HEADER = re.compile(r"^\s*(?:game|jeu)\s*:\s*tacti", re.IGNORECASE | re.MULTILINE)
MAX_LIST_CHARS = 20_000


class CheckError(ValueError):
    """A request that cannot be checked at all (bad game or ruleset): a usage error."""


@dataclass(frozen=True)
class CheckOptions:
    game: str | None = None
    ruleset: str | None = None
    lang: str = "en"


def detect_game(text: str, requested: str | None = None) -> str:
    if requested:
        if requested not in GAMES:
            raise CheckError(f"unknown game {requested!r}: use tmg or tactics")
        return requested
    return "tactics" if _TACTICS_HEADER.search(text or "") else "tmg"


def _findings_json(findings, lang: str) -> list[dict]:
    order = {Severity.ERROR: 0, Severity.WARNING: 1}
    urls = rule_urls(language=lang)
    return [
        f.to_dict(lang, rule_url=urls.get(f.rule))
        for f in sorted(findings, key=lambda f: order[f.severity])
    ]


def _too_long(text: str) -> Finding | None:
    if len(text) <= MAX_LIST_CHARS:
        return None
    return Finding(
        code="LIST_UNPARSEABLE",
        rule="list-format",
        message=Text(
            f"the list is {len(text)} characters long; at most {MAX_LIST_CHARS} are read",
            f"la liste fait {len(text)} caractères ; {MAX_LIST_CHARS} au plus sont lus",
        ),
    )


def _empty_tmg_result(ruleset: Ruleset) -> dict:
    return {
        "legal": False,
        "game": "tmg",
        "ruleset": ruleset.id,
        "faction": None,
        "points": None,
        "entries": [],
        "findings": [],
        "deck": [],
    }


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


def tmg_result(
    draft: ArmyDraft,
    *,
    pool: TmgPool,
    lang: str = "en",
    entries: Sequence[ResolvedEntry] | None = None,
    findings: Sequence[Finding] = (),
    points_assumed: bool = False,
) -> dict:
    """Validate a draft and build the contract §3 result: the one place that shapes it.

    `entries` are the resolved lines of a pasted list (default: the draft's own entries,
    for a saved list); `findings` are what reading the text already found.
    """
    context = pool.context_for(draft.faction)
    report = validate_army(draft, context)
    findings = [*findings, *report.findings]
    totals = report.totals
    result = _empty_tmg_result(draft.ruleset)
    result.update(
        legal=is_legal(findings),
        faction=draft.faction,
        name=draft.name,
        points={
            "spent": totals.spent,
            "limit": draft.points_limit,
            "neutral": totals.neutral,
            "neutral_cap": totals.neutral_cap,
            "limit_assumed": points_assumed,
        },
        entries=[
            {
                "ref": entry.ref,
                "line": entry.line,
                "role": entry.role,
                "host": entry.host,
                "id": entry.card.id,
                "name": entry.card.label(lang),
                "faction": entry.card.faction,
                "points": totals.points.get(entry.ref, 0),
                "printed_points": entry.card.points,
                "commander": entry.card.is_commander or entry.ref == draft.chosen_commander,
                **({"corrected_from": entry.corrected_from} if entry.corrected_from else {}),
            }
            for entry in (draft_entries(draft) if entries is None else entries)
        ],
        findings=_findings_json(findings, lang),
        deck=[
            {
                "id": card.card_id,
                "name": card.name_fr if lang == "fr" else card.name_en,
                "copies": card.copies,
                "source": card.source,
            }
            for card in build_tactics_deck(draft, context)
        ],
        text=write_tmg_text(draft, faction_names=pool.faction_names, lang=lang),
    )
    return result


def check_tmg_text(
    text: str, *, ruleset_id: str | None = None, lang: str = "en", pool: TmgPool | None = None
) -> dict:
    pool = pool or tmg_pool()
    if looks_like_share_code(text):
        return _check_share_code(text, ruleset_id=ruleset_id, lang=lang, pool=pool)
    parsed = parse_tmg_text(text)
    try:
        ruleset = get_ruleset(ruleset_id or parsed.ruleset)
    except UnknownRuleset as exc:
        if ruleset_id:
            raise CheckError(str(exc)) from exc
        ruleset = get_ruleset()
    build = build_tmg_draft(
        parsed, index=pool.index, factions=pool.faction_aliases, ruleset=ruleset
    )
    findings = list(build.findings)
    too_long = _too_long(text)
    if too_long:
        findings.append(too_long)
    if build.draft is None:
        result = _empty_tmg_result(ruleset)
        result["findings"] = _findings_json(findings, lang)
        return result
    return tmg_result(
        build.draft,
        pool=pool,
        lang=lang,
        entries=build.entries,
        findings=findings,
        points_assumed=build.points_assumed,
    )


def _check_share_code(code: str, *, ruleset_id: str | None, lang: str, pool: TmgPool) -> dict:
    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset as exc:
        raise CheckError(str(exc)) from exc
    try:
        decoded = decode_share_code(code)
    except ShareCodeError as exc:
        result = _empty_tmg_result(ruleset)
        unreadable = Finding(
            code="LIST_UNPARSEABLE",
            rule="list-format",
            message=Text(
                f"this looks like a War Council share code but cannot be read ({exc})",
                f"cela ressemble à un code de partage War Council illisible ({exc})",
            ),
        )
        result["findings"] = _findings_json([unreadable], lang)
        return result
    draft, findings = draft_from_share_code(decoded, cards=pool.by_id, ruleset=ruleset)
    return tmg_result(draft, pool=pool, lang=lang, findings=findings)


def _empty_tactics_result() -> dict:
    return {
        "legal": False,
        "game": "tactics",
        "faction": None,
        "coins": None,
        "figures": 0,
        "entries": [],
        "findings": [],
    }


def tactics_result(
    draft: WarbandDraft,
    *,
    pool: TacticsPool,
    lang: str = "en",
    findings: Sequence[Finding] = (),
    context: WarbandContext | None = None,
) -> dict:
    """Validate a warband draft and build the contract §3 result: the one place that shapes
    it, for pasted text and saved warbands alike. `findings`: what reading the text found;
    `context`: the cards the player could still buy (default: the faction's pool)."""
    report = validate_warband(draft, context or pool.context_for(draft.faction))
    findings = [*findings, *report.findings]
    holders = {item.ref: item.holder for item in draft.equipment}
    budget = draft.budget
    result = _empty_tactics_result()
    result.update(
        legal=is_legal(findings),
        faction=draft.faction,
        scenario=draft.scenario,
        name=draft.name,
        coins={
            "spent": report.spent.as_dict(),
            "budget": budget.as_dict() if budget else None,
        },
        figures=report.figures,
        entries=[
            {
                "ref": entry.ref,
                "id": entry.card.id,
                "kind": entry.card.kind,
                "name": entry.card.label(lang),
                "faction": entry.card.faction,
                "cost": entry.card.cost.as_dict() if entry.card.cost else None,
                **({"holder": holders[entry.ref]} if entry.ref in holders else {}),
            }
            for entry in draft.entries()
        ],
        findings=_findings_json(findings, lang),
        text=write_warband_text(
            draft,
            faction_names=pool.faction_names,
            scenario_label=scenario_label(draft, pool),
            lang=lang,
        ),
    )
    return result


def scenario_label(draft: WarbandDraft, pool: TacticsPool) -> str:
    """What the canonical text writes after `Scenario:`."""
    budget = draft.budget
    return (
        pool.scenario_labels.get(budget.label(), budget.label()) if budget else ""
    ) or draft.scenario


def check_tactics_text(text: str, *, lang: str = "en", pool: TacticsPool | None = None) -> dict:
    pool = pool or tactics_pool()
    parsed = parse_warband_text(text)
    draft, parse_findings = build_warband(
        parsed, index=pool.index, scenarios=pool.scenarios, factions=pool.faction_aliases
    )
    findings = list(parse_findings)
    too_long = _too_long(text)
    if too_long:
        findings.append(too_long)
    if draft is None:
        result = _empty_tactics_result()
        result["findings"] = _findings_json(findings, lang)
        return result
    return tactics_result(draft, pool=pool, lang=lang, findings=findings)


class Pools:
    """Loads each game's pool on first use, once per request or batch."""

    @cached_property
    def tmg(self) -> TmgPool:
        return tmg_pool()

    @cached_property
    def tactics(self) -> TacticsPool:
        return tactics_pool()


def check_list_text(
    text: str, options: CheckOptions = CheckOptions(), *, pools: Pools | None = None
) -> dict:
    pools = pools or Pools()
    game = detect_game(text, options.game)
    lang = "fr" if (options.lang or "").startswith("fr") else "en"
    if game == "tactics":
        return check_tactics_text(text, lang=lang, pool=pools.tactics)
    return check_tmg_text(text, ruleset_id=options.ruleset, lang=lang, pool=pools.tmg)


def apply_team_rules(results: list[dict], teams: Sequence[str | None], pool: TmgPool, lang: str):
    """AB-29/30: lists sharing a team name are allies; a character may appear in only one
    of them. Adds TEAM_CHARACTER_DUPLICATE to every list involved (results change in place)."""
    members: dict[str, list[int]] = {}
    for index, (result, team) in enumerate(zip(results, teams, strict=True)):
        if team and result.get("game") == "tmg" and result.get("entries"):
            members.setdefault(team, []).append(index)
    for indexes in members.values():
        drafts = [
            ArmyDraft(
                faction=results[i]["faction"] or "",
                points_limit=0,
                ruleset=get_ruleset(results[i]["ruleset"]),
                ncus=tuple(
                    Entry(ref=entry["ref"], card=pool.by_id[entry["id"]])
                    for entry in results[i]["entries"]
                    if entry["id"] in pool.by_id
                ),
            )
            for i in indexes
        ]
        for finding in validate_team(drafts):
            involved: dict[int, list[str]] = {}
            for ref in finding.entries:
                position, _, entry_ref = ref.partition(".")
                involved.setdefault(indexes[int(position.removeprefix("list-")) - 1], []).append(
                    entry_ref
                )
            label = [r.get("id", r.get("file")) for r in results]
            others = {i: [label[j] for j in involved if j != i] for i in involved}
            for i, refs in involved.items():
                local = replace(
                    finding,
                    entries=tuple(refs),
                    data={**finding.data, "allied_lists": others[i]},
                )
                rule_url = rule_urls(language=lang).get(local.rule)
                results[i]["findings"].append(local.to_dict(lang, rule_url=rule_url))
                results[i]["legal"] = False


def check_many(
    lists: list[tuple[str, str]],
    options: CheckOptions = CheckOptions(),
    *,
    teams: Sequence[str | None] | None = None,
) -> dict:
    """Check a batch [(id, text), …]; the pool is loaded once for the whole batch.
    `teams` (one name or None per list) checks allied lists together (team games)."""
    results = []
    pools = Pools()
    for list_id, text in lists:
        results.append({"id": list_id, **check_list_text(text, options, pools=pools)})
    if teams and any(teams):
        lang = "fr" if (options.lang or "").startswith("fr") else "en"
        apply_team_rules(results, teams, pools.tmg, lang)
    legal = sum(1 for result in results if result["legal"])
    codes: dict[str, int] = {}
    for result in results:
        for finding in result["findings"]:
            codes[finding["code"]] = codes.get(finding["code"], 0) + 1
    return {
        "results": results,
        "summary": {
            "lists": len(results),
            "legal": legal,
            "illegal": len(results) - legal,
            "findings_by_code": dict(sorted(codes.items())),
        },
    }
