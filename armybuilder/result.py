"""The typed result of checking one list, for every game and every door.

`CheckResult` is what the checking service returns and what the builder, the CLI, the API,
the PDF documents and tournament code read: frozen values, no dicts. Only the serializers
(`armybuilder/serializers.py`) and the CLI's text format turn it into JSON or prose.

Pure: importable without Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from armybuilder.findings import LIST_EMPTY, Finding, Severity, is_legal
from armybuilder.listtext.reading import LineReading
from common.i18n import Localizable

#: The finding that says a card's cost is unknown (the list's status is "undecided"; an empty
#: list's finding is findings.LIST_EMPTY, its status "empty").
COST_UNKNOWN_CODE = "CARD_COST_UNKNOWN"

if TYPE_CHECKING:
    from armybuilder.tactics.draft import Coins, WarbandDraft
    from armybuilder.tmg.deck import DeckCard
    from armybuilder.tmg.draft import ArmyDraft


class CardLike(Protocol):
    """What a result entry needs of a card, in either game (read-only, so that frozen
    dataclasses match)."""

    @property
    def id(self) -> str: ...
    @property
    def faction(self) -> str | None: ...
    @property
    def name_en(self) -> str: ...
    @property
    def name_fr(self) -> str: ...

    def label(self, lang: str = "en") -> str: ...


@dataclass(frozen=True)
class ResultEntry:
    """One card of the list as read: its ref (what findings name), its card, its role
    (TMG: unit / attachment / ncu; Tactics: hero / champion / soldier / equipment), the
    pasted line it came from, and what carries it (an attachment's unit, an item's figure)."""

    ref: str
    card: CardLike
    role: str
    line: int | None = None
    host: str | None = None
    points: int | None = None  # TMG: what it costs in this army (0 for a free commander)
    commander: bool = False  # TMG: a commander card, or the one chosen by a faction rule
    corrected_from: str | None = None  # a misspelt name the reader corrected
    # Read from text: how the card was chosen (the rule or hint), the other cards the
    # name could have been, and the cost printed beside it (when there was one).
    how: Localizable | None = None
    alternatives: tuple[str, ...] = ()
    printed_cost: str | None = None


@dataclass(frozen=True)
class PointsTotals:
    """TMG: points spent against the game size, and the neutral points against their cap."""

    spent: int
    limit: int
    neutral: int
    neutral_cap: int
    limit_assumed: bool = False  # no Points line: the default game size was assumed


@dataclass(frozen=True)
class CoinTotals:
    """Tactics: coins spent against the scenario's budget (None: budget unknown)."""

    spent: Coins
    budget: Coins | None


@dataclass(frozen=True)
class CheckResult:
    """One list, checked. `draft` is None when nothing could be read (then `entries` is
    empty and `findings` says why). `findings` are in display order: errors, then
    warnings, then what was added later (team rules). `citations` maps a finding's rule to
    the rulebook section stating it, for the reader's language."""

    game: str
    lang: str
    draft: ArmyDraft | WarbandDraft | None = None
    findings: tuple[Finding, ...] = ()
    entries: tuple[ResultEntry, ...] = ()
    text: str | None = None  # the list in canonical text; None when nothing was read
    ruleset: str | None = None  # TMG
    points: PointsTotals | None = None  # TMG
    deck: tuple[DeckCard, ...] = ()  # TMG
    coins: CoinTotals | None = None  # Tactics
    figures: int = 0  # Tactics
    citations: Mapping[str, str] = field(default_factory=dict, compare=False)
    # Where `citations` gives a quick reference (no rulebook in the reader's language):
    # the rulebook's own section of the rule.
    original_citations: Mapping[str, str] = field(default_factory=dict, compare=False)
    # Pasted text: every input line, in order, and what became of it (empty otherwise).
    lines: tuple[LineReading, ...] = ()

    @property
    def read(self) -> bool:
        return self.draft is not None

    @property
    def legal(self) -> bool:
        return self.draft is not None and is_legal(self.findings)

    @property
    def status(self) -> str:
        """The verdict in one word: "legal", "illegal", "empty" (no card yet: nothing to
        judge) or "undecided" (cards whose cost is not known block the verdict; see
        `undecided_by`)."""
        if self.draft is not None and any(f.code == LIST_EMPTY for f in self.findings):
            return "empty"
        if self.undecided_by:
            return "undecided"
        return "legal" if self.legal else "illegal"

    @property
    def undecided_by(self) -> tuple[str, ...]:
        """Refs of the entries whose unknown cost keeps the list from a verdict."""
        return tuple(ref for f in self.findings if f.code == COST_UNKNOWN_CODE for ref in f.entries)

    @property
    def faction(self) -> str | None:
        return self.draft.faction if self.draft is not None else None

    @property
    def name(self) -> str:
        return self.draft.name if self.draft is not None else ""

    @property
    def scenario(self) -> str | None:
        return getattr(self.draft, "scenario", None)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is not Severity.ERROR)

    @property
    def flagged_refs(self) -> frozenset[str]:
        """The entries some error names: the rows to mark on the page and the sheet."""
        return frozenset(ref for finding in self.errors for ref in finding.entries)

    @property
    def deck_size(self) -> int:
        return sum(card.copies for card in self.deck)

    @property
    def spent(self) -> str:
        """What the list spends as pages and reports print it: TMG points ("38"), Tactics
        coins gold-silver-copper ("3-5-12"); "" when nothing was read."""
        if self.points is not None:
            return str(self.points.spent)
        if self.coins is not None:
            return self.coins.spent.label()
        return ""

    def with_findings(self, extra: tuple[Finding, ...] | list[Finding]) -> CheckResult:
        """The same result with findings added at the end (team rules)."""
        return replace(self, findings=(*self.findings, *extra))


def in_display_order(findings: list[Finding] | tuple[Finding, ...]) -> tuple[Finding, ...]:
    """Errors first, then warnings, each in the order they were found."""
    return tuple(sorted(findings, key=lambda f: f.severity is not Severity.ERROR))
