"""Checking lists: one service for the CLI, the API, the builder, the PDF and events.

Every function returns typed `CheckResult`s (armybuilder/result.py); only the serializers
(armybuilder/serializers.py) and the CLI turn them into JSON or text. The games are
reached through `GAMES`, one small adapter per game: detecting a list's game, loading its
card pool, reading and checking a pasted list. Adding a game means adding its pure
package (draft, reader, writer, validator, `check.py`) and one adapter here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from django.conf import settings

from armybuilder.citations import rule_links
from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import LineKind, reading_finding
from armybuilder.listtext.resolve import name_key
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.pool import TacticsPool, TmgPool, tactics_pool, tactics_pool_with_sets, tmg_pool
from armybuilder.result import CheckResult
from armybuilder.tactics import check as tactics_check
from armybuilder.tactics.draft import Coins
from armybuilder.tactics.text import parse_warband_text
from armybuilder.tmg import check as tmg_check
from armybuilder.tmg.draft import ArmyDraft
from armybuilder.tmg.rulesets import Ruleset, UnknownRuleset, get_ruleset
from armybuilder.tmg.validator import validate_team
from cards.models import CardSet
from common.i18n import _, card_language

# Characters of one pasted list read (settings.CITADEL_MAX_LIST_CHARS, default 20,000).
MAX_LIST_CHARS: int = settings.CITADEL_MAX_LIST_CHARS


class CheckError(ValueError):
    """A request that cannot be checked at all (bad game or ruleset): a usage error."""


@dataclass(frozen=True)
class CheckOptions:
    game: str | None = None
    ruleset: str | None = None
    lang: str = "en"
    # The game size to judge at whatever the list says (an event's): TMG points, or a
    # Tactics budget as "gold-silver-copper".
    points: int | None = None
    budget: str | None = None


class GameChecking(Protocol):
    """What the checking service needs of one game."""

    game: str
    carrier_roles: tuple[str, ...]  # entries that carry others (units, figures)
    carried_roles: tuple[str, ...]  # entries carried by one (attachments, equipment)

    def announces(self, text: str) -> bool:
        """The text says it is a list of this game (a `Game:` header)."""
        ...

    def load_pool(self) -> Any: ...

    def is_furniture(self, line: str, *, pool: Any) -> bool:
        """The line belongs to a list without naming a card: a header, a section, a legend,
        a footer, the faction's name (what a heading inside a list says)."""
        ...

    def check_text(
        self, text: str, *, pool: Any, options: CheckOptions, findings: Sequence[Finding]
    ) -> CheckResult: ...


def _requested_ruleset(ruleset_id: str | None) -> Ruleset | None:
    if not ruleset_id:
        return None
    try:
        return get_ruleset(ruleset_id)
    except UnknownRuleset as exc:
        raise CheckError(str(exc)) from exc


class _Tmg:
    game = "tmg"
    carrier_roles = ("unit",)
    carried_roles = ("attachment",)

    def announces(self, text: str) -> bool:
        return False  # the default game: a list that names no game is a TMG army

    def load_pool(self) -> TmgPool:
        return tmg_pool()

    def is_furniture(self, line: str, *, pool: TmgPool) -> bool:
        parsed = parse_tmg_text(line, factions=pool.faction_aliases)
        return any(reading.kind in FURNITURE for reading in parsed.lines)

    def check_text(
        self, text: str, *, pool: TmgPool, options: CheckOptions, findings: Sequence[Finding]
    ) -> CheckResult:
        return tmg_check.check_text(
            text,
            pool=pool,
            ruleset=_requested_ruleset(options.ruleset),
            default_ruleset=get_ruleset(),
            lang=options.lang,
            findings=findings,
            points_limit=options.points,
        )


class _Tactics:
    game = "tactics"
    carrier_roles = ("hero", "champion", "soldier")
    carried_roles = ("equipment",)
    _header = re.compile(r"^\s*(?:game|jeu)\s*:\s*tacti", re.IGNORECASE | re.MULTILINE)

    def announces(self, text: str) -> bool:
        return bool(self._header.search(text or ""))

    def load_pool(self) -> TacticsPool:
        return tactics_pool()

    def is_furniture(self, line: str, *, pool: TacticsPool) -> bool:
        parsed = parse_warband_text(line)
        if any(reading.kind in FURNITURE for reading in parsed.lines):
            return True
        key = name_key(line)
        return any(
            key == name_key(name) for names in pool.faction_aliases.values() for name in names
        )

    def check_text(
        self, text: str, *, pool: TacticsPool, options: CheckOptions, findings: Sequence[Finding]
    ) -> CheckResult:
        return tactics_check.check_text(
            text,
            pool=pool,
            lang=options.lang,
            findings=findings,
            budget=Coins.parse(options.budget) if options.budget else None,
        )


# Lines that belong to a list without naming a card.
FURNITURE = frozenset({LineKind.HEADER, LineKind.SECTION, LineKind.LEGEND, LineKind.FOOTER})

GAMES: dict[str, GameChecking] = {adapter.game: adapter for adapter in (_Tmg(), _Tactics())}
DEFAULT_GAME = "tmg"


def detect_game(text: str, requested: str | None = None) -> str:
    if requested:
        if requested not in GAMES:
            raise CheckError(f"unknown game {requested!r}: use {' or '.join(GAMES)}")
        return requested
    for game, adapter in GAMES.items():
        if adapter.announces(text):
            return game
    return DEFAULT_GAME


class Pools:
    """Loads each game's pool on first use, once per request or batch. `card_sets`: the
    players' Tactics sets a pasted warband is read against besides the shipped cards (their
    cards and cost overrides, as for a warband drawing from them)."""

    def __init__(self, *, card_sets: Sequence[CardSet] = (), **loaded: Any) -> None:
        self._loaded: dict[str, Any] = {game: pool for game, pool in loaded.items() if pool}
        self._card_sets = list(card_sets)

    def get(self, game: str) -> Any:
        if game not in self._loaded:
            if game == "tactics" and self._card_sets:
                self._loaded[game] = tactics_pool_with_sets(self._card_sets)
            else:
                self._loaded[game] = GAMES[game].load_pool()
        return self._loaded[game]


def _too_long(text: str) -> tuple[Finding, ...]:
    if len(text) <= MAX_LIST_CHARS:
        return ()
    return (
        reading_finding(
            "LIST_UNPARSEABLE",
            severity=Severity.ERROR,
            message=_(
                "the list is {length} characters long; at most {limit} are read",
                length=len(text),
                limit=MAX_LIST_CHARS,
            ),
        ),
    )


def cite(result: CheckResult) -> CheckResult:
    """The result with the rulebook section of each finding's rule, where a book has it
    (and the rulebook's own section when that is a quick reference in the reader's
    language)."""
    if not result.findings:
        return result
    links = rule_links(language=result.lang)
    cited = {f.rule: links[f.rule] for f in result.findings if f.rule in links}
    return replace(
        result,
        citations={rule: link.url for rule, link in cited.items()},
        original_citations={
            rule: link.original_url for rule, link in cited.items() if link.original_url
        },
    )


def check_list_text(
    text: str, options: CheckOptions = CheckOptions(), *, pools: Pools | None = None
) -> CheckResult:
    """Check one pasted list (or War Council share code) of any game."""
    pools = pools or Pools()
    game = detect_game(text, options.game)
    options = replace(options, lang=card_language(options.lang))
    result = GAMES[game].check_text(
        text, pool=pools.get(game), options=options, findings=_too_long(text)
    )
    return cite(result)


def check_tmg_text(
    text: str, *, ruleset_id: str | None = None, lang: str = "en", pool: TmgPool | None = None
) -> CheckResult:
    """A pasted TMG army list, checked (whatever its `Game:` line says)."""
    options = CheckOptions(game="tmg", ruleset=ruleset_id, lang=lang)
    return check_list_text(text, options, pools=Pools(tmg=pool))


def check_tactics_text(text: str, *, lang: str = "en", pool: TacticsPool | None = None):
    """A pasted Tactics warband, checked."""
    options = CheckOptions(game="tactics", lang=lang)
    return check_list_text(text, options, pools=Pools(tactics=pool))


def check_tmg_draft(draft: ArmyDraft, *, lang: str = "en", pool: TmgPool | None = None, **kwargs):
    """A TMG draft (a saved list), checked and cited."""
    return cite(tmg_check.check_draft(draft, pool=pool or tmg_pool(), lang=lang, **kwargs))


def check_tactics_draft(draft, *, lang: str = "en", pool: TacticsPool | None = None, **kwargs):
    """A Tactics draft (a saved warband), checked and cited."""
    return cite(tactics_check.check_draft(draft, pool=pool or tactics_pool(), lang=lang, **kwargs))


# --- many lists ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchItem:
    label: str  # the list's id (API) or file name (CLI)
    result: CheckResult
    team: str | None = None


@dataclass(frozen=True)
class BatchSummary:
    lists: int
    legal: int
    illegal: int
    findings_by_code: dict[str, int]


@dataclass(frozen=True)
class BatchResult:
    items: tuple[BatchItem, ...]

    @property
    def summary(self) -> BatchSummary:
        legal = sum(1 for item in self.items if item.result.legal)
        codes: dict[str, int] = {}
        for item in self.items:
            for finding in item.result.findings:
                codes[finding.code] = codes.get(finding.code, 0) + 1
        return BatchSummary(
            lists=len(self.items),
            legal=legal,
            illegal=len(self.items) - legal,
            findings_by_code=dict(sorted(codes.items())),
        )


def apply_team_rules(items: Sequence[BatchItem]) -> tuple[BatchItem, ...]:
    """AB-29/30: lists sharing a team name are allies; a character may appear in only one
    of them. Adds TEAM_CHARACTER_DUPLICATE to every list involved."""
    members: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        if item.team and item.result.game == "tmg" and item.result.entries:
            members.setdefault(item.team, []).append(index)
    added: dict[int, list[Finding]] = {}
    for indexes in members.values():
        drafts = [items[i].result.draft for i in indexes]
        for finding in validate_team([d for d in drafts if isinstance(d, ArmyDraft)]):
            involved: dict[int, list[str]] = {}
            for ref in finding.entries:
                position, _, entry_ref = ref.partition(".")
                involved.setdefault(indexes[int(position.removeprefix("list-")) - 1], []).append(
                    entry_ref
                )
            for i, refs in involved.items():
                allies = [items[j].label for j in involved if j != i]
                added.setdefault(i, []).append(
                    replace(
                        finding,
                        entries=tuple(refs),
                        data={**finding.data, "allied_lists": allies},
                    )
                )
    return tuple(
        replace(item, result=cite(item.result.with_findings(added[i]))) if i in added else item
        for i, item in enumerate(items)
    )


def check_many(
    lists: Sequence[tuple[str, str]],
    options: CheckOptions = CheckOptions(),
    *,
    teams: Sequence[str | None] | None = None,
    pools: Pools | None = None,
) -> BatchResult:
    """Check a batch [(label, text), …]; each game's pool is loaded once for the whole
    batch (or given: `pools`). `teams` (one name or None per list) checks allied lists
    together."""
    pools = pools or Pools()
    items = []
    for position, (label, text) in enumerate(lists):
        team = teams[position] if teams else None
        items.append(
            BatchItem(label=label, result=check_list_text(text, options, pools=pools), team=team)
        )
    if teams and any(teams):
        return BatchResult(items=apply_team_rules(items))
    return BatchResult(items=tuple(items))
