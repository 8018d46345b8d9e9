"""Reads about the card versions a saved list is pinned to.

A saved list is judged with the card versions its entries were added with
(`ListEntry.card_version`). When newer card data arrives (errata, a new printing), the list
does not change by itself: its page says which data it was judged with ("judged with card
data of <date>") and offers to update it to the current cards, showing first what that
changes — points or coins, legality, findings — and why, card by card (`card_update`).
The update itself is `services.update_to_current_cards`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from armybuilder.result import CheckResult
from cards.selectors import ability_names
from cards.versions import StatChange, stat_changes

from .games import for_game
from .models import ArmyList, ListEntry
from .selectors import saved_entries


def outdated_entries(entries: list[ListEntry]) -> list[ListEntry]:
    """The entries pinned to another version than their card's current one."""
    return [
        e
        for e in entries
        if e.card_version_id is not None
        and e.card.current_version_id is not None
        and e.card_version_id != e.card.current_version_id
    ]


def data_date(entries: list[ListEntry]) -> datetime | None:
    """When the newest card data a list is judged with was recorded (None: no entry has a
    recorded version)."""
    dates = [e.card_version.recorded_at for e in entries if e.card_version is not None]
    return max(dates) if dates else None


@dataclass(frozen=True)
class CardVersions:
    """What the list page says about its card data."""

    judged_with: datetime | None
    outdated: int  # entries whose card has newer data

    @property
    def update_available(self) -> bool:
        return self.outdated > 0


def card_versions(army_list: ArmyList) -> CardVersions:
    entries = saved_entries(army_list)
    return CardVersions(judged_with=data_date(entries), outdated=len(outdated_entries(entries)))


@dataclass(frozen=True)
class CardChange:
    """One card of the list whose current data differs from the version it is pinned to."""

    external_id: str
    name: str  # in the reader's language
    copies: int
    old_version: str
    new_version: str
    old_recorded: datetime
    new_recorded: datetime
    changes: tuple[StatChange, ...]
    descriptions: tuple[str, ...]  # each change, said in the reader's language


@dataclass(frozen=True)
class FindingLine:
    code: str
    severity: str
    message: str


@dataclass(frozen=True)
class CardUpdate:
    """The list as it is judged now (pinned versions) and as it would be with the current
    cards, and the card changes that make the difference."""

    before: CheckResult
    after: CheckResult
    cards: tuple[CardChange, ...]

    @property
    def spent_changes(self) -> bool:
        return self.before.spent != self.after.spent

    @property
    def legality_changes(self) -> bool:
        return self.before.legal != self.after.legal

    def _findings(self, result: CheckResult) -> Counter[FindingLine]:
        lang = result.lang
        return Counter(
            FindingLine(f.code, str(f.severity), f.message.in_language(lang))
            for f in result.findings
        )

    @property
    def findings_added(self) -> tuple[FindingLine, ...]:
        return tuple((self._findings(self.after) - self._findings(self.before)).elements())

    @property
    def findings_removed(self) -> tuple[FindingLine, ...]:
        return tuple((self._findings(self.before) - self._findings(self.after)).elements())


def card_changes(entries: list[ListEntry], *, lang: str) -> tuple[CardChange, ...]:
    """Each card of `entries` pinned to an older version, with what changed since."""
    outdated = outdated_entries(entries)
    if not outdated:
        return ()
    copies = Counter(e.card_id for e in outdated)
    names = ability_names(lang)
    seen: dict[int, CardChange] = {}
    for entry in outdated:
        if entry.card_id in seen:
            continue
        old, new = entry.card_version, entry.card.current_version
        assert old is not None and new is not None  # outdated_entries checked both
        changes = stat_changes(old.stats, new.stats)
        seen[entry.card_id] = CardChange(
            external_id=entry.card.external_id,
            name=entry.card.full_name(lang),
            copies=copies[entry.card_id],
            old_version=old.version,
            new_version=new.version,
            old_recorded=old.recorded_at,
            new_recorded=new.recorded_at,
            changes=changes,
            descriptions=tuple(change.describe(lang, names) for change in changes),
        )
    return tuple(seen.values())


def card_update(army_list: ArmyList, *, lang: str) -> CardUpdate | None:
    """What updating the list to the current cards would change; None when it is current."""
    entries = list(
        army_list.entries.select_related("card", "card_version", "card__current_version")
    )
    cards = card_changes(entries, lang=lang)
    if not cards:
        return None
    game = for_game(army_list.game)
    return CardUpdate(
        before=game.report(army_list, lang=lang),
        after=game.report(army_list, lang=lang, current_cards=True),
        cards=cards,
    )
