"""The errata check: what new card data does to lists, and why.

When an import moves cards to new versions (`cards.signals.card_versions_changed`, see
events/tasks.py) and periodically (Celery beat), `check_errata` looks for lists judged with
card data that is no longer current:

- the lists of **open events** (not locked yet) are judged again with the new data: until
  the lists lock, an event's verdicts follow the current cards;
- **saved lists**, pinned to the versions they were built with, do not change by
  themselves: they are judged as they would be after "update to the current cards".

Each list gets an `ErrataImpact` (points or coins before and after, legal before and after,
finding codes added and removed, and the reasons: every card that changed, field by field,
old → new) in one `ErrataReport` per check. The check is idempotent: an event list judged
again now holds the current versions, and a saved list is reported once for the same new
data (`target`), so a second check finds nothing new and makes no report. Organisers see
their events' impacts on the event page; `manage.py errata_impact` prints the reports.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from armybuilder.lists.models import ArmyList, ListEntry
from armybuilder.lists.versions import ability_names, card_update
from cards.models import Card, CardVersion
from cards.versions import StatChange, stat_changes

from .models import ErrataImpact, ErrataReport, Event, EventList, Player
from .services import rejudge_players


def _digest(value: Any) -> str:
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CardDelta:
    """One card moved from one recorded version to another, and what changed."""

    game: str
    external_id: str
    name_en: str
    name_fr: str
    old_version: str
    new_version: str
    changes: tuple[StatChange, ...]

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.game, self.external_id, self.old_version, self.new_version)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "id": self.external_id,
            "name": {"en": self.name_en, "fr": self.name_fr or self.name_en},
            "old_version": self.old_version,
            "new_version": self.new_version,
            "changes": [change.as_dict() for change in self.changes],
        }

    def reasons(self) -> list[dict[str, Any]]:
        name = {"en": self.name_en, "fr": self.name_fr or self.name_en}
        return [{"card": self.external_id, "name": name, **c.as_dict()} for c in self.changes]


def _delta(card: Card, old: CardVersion, new: CardVersion) -> CardDelta:
    return CardDelta(
        game=card.game,
        external_id=card.external_id,
        name_en=card.full_name("en"),
        name_fr=card.full_name("fr"),
        old_version=old.version,
        new_version=new.version,
        changes=stat_changes(old.stats, new.stats),
    )


@dataclass
class _Found:
    """An impact not saved yet, and the card changes behind it."""

    impact: ErrataImpact
    deltas: list[CardDelta]


# --- open events ---------------------------------------------------------------------------


def _current(game: str) -> dict[str, Card]:
    return {
        card.external_id: card
        for card in Card.objects.filter(game=game, current_version__isnull=False).select_related(
            "current_version"
        )
    }


def _stale_cards(event_list: EventList, current: Mapping[str, Card]) -> list[str]:
    """The cards of a stored verdict whose data is no longer the current one."""
    return [
        card_id
        for card_id, digest in event_list.card_versions.items()
        if card_id in current and digest and current[card_id].current_version.digest != digest
    ]


def _event_impacts() -> list[_Found]:
    lists = list(
        EventList.objects.filter(player__event__in=Event.objects.open())
        .select_related("player__event", "player__team")
        .order_by("player__event_id", "id")
    )
    currents: dict[str, dict[str, Card]] = {}
    stale: dict[int, tuple[EventList, list[str]]] = {}
    for event_list in lists:
        game = event_list.player.event.game
        current = currents.setdefault(game, _current(game))
        cards = _stale_cards(event_list, current)
        if cards:
            stale[event_list.pk] = (event_list, cards)
    if not stale:
        return []
    old_versions = {
        (v.card_id, v.digest): v
        for v in CardVersion.objects.filter(
            card__in=[c for game in currents.values() for c in game.values()],
            digest__in={
                event_list.card_versions[card_id]
                for event_list, cards in stale.values()
                for card_id in cards
            },
        )
    }
    by_event: dict[int, list[EventList]] = defaultdict(list)
    for event_list, _cards in stale.values():
        by_event[event_list.player.event_id].append(event_list)
    found = []
    for event_lists in by_event.values():
        event = event_lists[0].player.event
        players = _with_team_mates([el.player for el in event_lists])
        after = {stored.pk: stored for stored in rejudge_players(event=event, players=players)}
        for before in event_lists:
            now = after.get(before.pk)
            if now is None:
                continue
            current = currents[event.game]
            deltas = []
            for card_id in stale[before.pk][1]:
                card = current[card_id]
                old = old_versions.get((card.pk, before.card_versions[card_id]))
                if old is not None:
                    deltas.append(_delta(card, old, card.current_version))
            found.append(
                _Found(
                    impact=_impact(
                        event_list=now,
                        target=_digest(now.card_versions),
                        spent=(before.spent, now.spent),
                        legal=(before.legal, now.legal),
                        findings=(_codes(before), _codes(now)),
                        deltas=deltas,
                    ),
                    deltas=deltas,
                )
            )
    return found


def _with_team_mates(players: list[Player]) -> list[Player]:
    """Team-mates are judged together (a character once per team): one stale list re-judges
    its team's."""
    teams = {p.team_id for p in players if p.team_id is not None}
    if not teams:
        return players
    mates = Player.objects.filter(team_id__in=teams, event_list__isnull=False).select_related(
        "event_list", "team"
    )
    return list({p.pk: p for p in [*players, *mates]}.values())


def _codes(event_list: EventList) -> list[str]:
    return [f["code"] for f in event_list.result_in("en").get("findings", [])]


# --- saved lists ---------------------------------------------------------------------------


def _outdated_saved_lists() -> dict[int, str]:
    """Saved lists (with an owner) pinned to versions that are not current: list id -> the
    target digest of the new versions."""
    rows = (
        ListEntry.objects.filter(
            army_list__owner__isnull=False,
            card_version__isnull=False,
            card__current_version__isnull=False,
        )
        .exclude(card_version=F("card__current_version"))
        .values_list("army_list_id", "card_id", "card__current_version_id")
        .order_by("army_list_id", "card_id")
    )
    pairs: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for list_id, card_id, version_id in rows:
        pairs[list_id].add((card_id, version_id))
    return {list_id: _digest(sorted(found)) for list_id, found in pairs.items()}


def _saved_impacts() -> list[_Found]:
    outdated = _outdated_saved_lists()
    if not outdated:
        return []
    reported = set(
        ErrataImpact.objects.filter(army_list_id__in=outdated).values_list("army_list_id", "target")
    )
    found = []
    lists = ArmyList.objects.filter(pk__in=outdated).select_related("faction", "owner")
    for army_list in lists:
        target = outdated[army_list.pk]
        if (army_list.pk, target) in reported:
            continue
        update = card_update(army_list, lang="en")
        if update is None:
            continue
        named = {
            card.external_id: card
            for card in Card.objects.filter(
                game=army_list.game, external_id__in=[c.external_id for c in update.cards]
            )
        }
        deltas = [
            CardDelta(
                game=army_list.game,
                external_id=c.external_id,
                name_en=named[c.external_id].full_name("en"),
                name_fr=named[c.external_id].full_name("fr"),
                old_version=c.old_version,
                new_version=c.new_version,
                changes=c.changes,
            )
            for c in update.cards
        ]
        before_codes = [f.code for f in update.before.findings]
        after_codes = [f.code for f in update.after.findings]
        found.append(
            _Found(
                impact=_impact(
                    army_list=army_list,
                    target=target,
                    spent=(update.before.spent, update.after.spent),
                    legal=(update.before.legal, update.after.legal),
                    findings=(before_codes, after_codes),
                    deltas=deltas,
                ),
                deltas=deltas,
            )
        )
    return found


# --- the report ----------------------------------------------------------------------------


def _impact(
    *,
    target: str,
    spent: tuple[str, str],
    legal: tuple[bool, bool],
    findings: tuple[list[str], list[str]],
    deltas: list[CardDelta],
    event_list: EventList | None = None,
    army_list: ArmyList | None = None,
) -> ErrataImpact:
    before, after = findings
    return ErrataImpact(
        event_list=event_list,
        army_list=army_list,
        target=target,
        spent_before=spent[0],
        spent_after=spent[1],
        legal_before=legal[0],
        legal_after=legal[1],
        changed=spent[0] != spent[1] or legal[0] != legal[1],
        reasons=[reason for delta in deltas for reason in delta.reasons()],
        findings_added=sorted(set(after) - set(before)),
        findings_removed=sorted(set(before) - set(after)),
    )


@transaction.atomic
def check_errata(*, source: str = "") -> ErrataReport | None:
    """Judge again the open events' lists judged with old card data, judge saved lists as
    they would be with the current cards, and report them (module docstring). None when
    nothing is new."""
    found = [*_event_impacts(), *_saved_impacts()]
    if not found:
        return None
    cards: dict[tuple[str, str, str, str], CardDelta] = {}
    for item in found:
        for delta in item.deltas:
            cards.setdefault(delta.key, delta)
    report = ErrataReport.objects.create(
        source=source[:64], cards=[delta.as_dict() for delta in cards.values()]
    )
    for item in found:
        item.impact.report = report
    ErrataImpact.objects.bulk_create([item.impact for item in found])
    return report


# --- reading the reports -------------------------------------------------------------------


def impacts_of_event(event: Event) -> Iterable[ErrataImpact]:
    """The impacts on an event's lists, newest report first."""
    return (
        ErrataImpact.objects.filter(event_list__player__event=event)
        .select_related("report", "event_list__player")
        .order_by("-report__created_at", "-report_id", "id")
    )


def reports(*, report_id: int | None = None, event: Event | None = None) -> list[ErrataReport]:
    """Reports newest first (one report: `report_id`; only those touching `event`)."""
    found = ErrataReport.objects.prefetch_related(
        "impacts__event_list__player__event", "impacts__army_list__owner"
    )
    if report_id is not None:
        found = found.filter(pk=report_id)
    if event is not None:
        found = found.filter(impacts__event_list__player__event=event).distinct()
    return list(found.order_by("-created_at", "-id"))


def describe(reason: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> str:
    """One stored reason said in `lang`: "Stark Outriders: points 6 → 7"."""
    change = StatChange(field=reason["field"], old=reason.get("old"), new=reason.get("new"))
    name = reason.get("name") or {}
    label = name.get(lang) or name.get("en") or reason.get("card", "")
    return f"{label}: {change.describe(lang, names)}"


def impact_json(impact: ErrataImpact, *, lang: str) -> dict[str, Any]:
    """One impact as the API and the command print it."""
    names = ability_names(lang)
    data: dict[str, Any] = {
        "report": impact.report_id,
        "reported_at": impact.report.created_at.isoformat(),
        "spent": {"before": impact.spent_before, "after": impact.spent_after},
        "legal": {"before": impact.legal_before, "after": impact.legal_after},
        "changed": impact.changed,
        "findings_added": impact.findings_added,
        "findings_removed": impact.findings_removed,
        "reasons": [{**reason, "said": describe(reason, lang, names)} for reason in impact.reasons],
    }
    if impact.event_list_id is not None:
        data["event_list"] = impact.event_list_id
        data["player"] = impact.event_list.player.name
    if impact.army_list_id is not None:
        data["saved_list"] = impact.army_list_id
    return data


def said_in(impacts: Iterable[ErrataImpact], *, lang: str) -> list[dict[str, Any]]:
    """Each impact with its reasons said in `lang`, for a page."""
    names = ability_names(lang)
    return [
        {"impact": impact, "said": [describe(r, lang, names) for r in impact.reasons]}
        for impact in impacts
    ]


def relevant(impacts: Iterable[ErrataImpact]) -> list[ErrataImpact]:
    """The impacts a reader cares about: points (coins) or legality changed."""
    return [impact for impact in impacts if impact.changed]
