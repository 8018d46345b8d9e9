"""Judging an event's lists, and storing each verdict exactly as it was given.

An event judges with its own settings, whatever a list says: its game, its ruleset, its
game size (TMG points) or budget (Tactics coins), and team-mates' lists together (a
character at most once per team, AB-29/30). A verdict is stored with all it takes to show
it again without judging again: the text as submitted, the canonical list, the result
JSON and the line-by-line reading in both languages, the version of every card it used,
the ruleset, and the fingerprint over them (`events.fingerprint`). Once the event locks,
nothing here writes to its lists any more.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.utils import timezone

from armybuilder.checking import CheckOptions, Pools, check_many, cite
from armybuilder.lists.models import ArmyList, ListGame
from armybuilder.lists.selectors import reading_of
from armybuilder.result import CheckResult
from armybuilder.serializers import result_json
from cards.models import Card
from common.i18n import CARD_LANGUAGES

from .fingerprint import fingerprint
from .models import Event, EventList, ListStatus, Player


def check_options(event: Event) -> CheckOptions:
    """How the event judges its lists: its game, ruleset and size, whatever a list says."""
    if event.game == ListGame.TMG:
        return CheckOptions(game="tmg", ruleset=event.ruleset or None, points=event.points)
    return CheckOptions(game="tactics", budget=event.budget_label or None)


def judge_texts(
    event: Event, lists: Sequence[tuple[str, str, str]], *, pools: Pools | None = None
) -> list[CheckResult]:
    """Judge [(label, text, team name), …] as the event does, in one batch (each game's
    card pool loaded once): team-mates' lists together."""
    teams = [team or None for _label, _text, team in lists] if event.is_team_event else None
    batch = check_many(
        [(label, text) for label, text, _team in lists],
        check_options(event),
        teams=teams,
        pools=pools,
    )
    return [item.result for item in batch.items]


def status_of(result: CheckResult) -> str:
    """Legal, illegal, or unreadable (nothing read as a card: no verdict can be given)."""
    if not result.read or not result.entries:
        return ListStatus.UNREADABLE
    return ListStatus.LEGAL if result.legal else ListStatus.ILLEGAL


class CurrentVersions:
    """The current version of every card of a game, read once for a batch of lists."""

    def __init__(self, game: str):
        self.by_card = {
            external_id: (digest, recorded)
            for external_id, digest, recorded in Card.objects.filter(
                game=game, current_version__isnull=False
            ).values_list("external_id", "current_version__digest", "current_version__recorded_at")
        }

    def of(self, result: CheckResult) -> tuple[dict[str, str], dt.datetime | None]:
        """{card id: version digest} of the cards a result uses (a card with no recorded
        version: ""), and when the newest of those versions was recorded."""
        ids = sorted({entry.card.id for entry in result.entries})
        found = [self.by_card.get(card_id) for card_id in ids]
        versions = {card_id: v[0] if v else "" for card_id, v in zip(ids, found, strict=True)}
        dates = [v[1] for v in found if v]
        return versions, (max(dates) if dates else None)


def stored_values(
    event: Event, text: str, result: CheckResult, *, versions: CurrentVersions, pool=None
) -> dict:
    """The columns of an `EventList` for `text` judged now as `result`."""
    card_versions, data_date = versions.of(result)
    canonical = result.text or ""
    ruleset = result.ruleset or ""
    cited = {lang: cite(replace(result, lang=lang)) for lang in CARD_LANGUAGES}
    return {
        "text": text,
        "canonical": canonical,
        "status": status_of(result),
        "points": result.points.spent if result.points is not None else None,
        "spent": result.spent,
        "result": {lang: dict(result_json(cited[lang])) for lang in CARD_LANGUAGES},
        "reading": {
            lang: reading_of(cited[lang], lang=lang, pool=pool).as_dict() for lang in CARD_LANGUAGES
        },
        "card_versions": card_versions,
        "ruleset": ruleset,
        "data_date": data_date,
        "fingerprint": fingerprint(
            game=event.game,
            # Nothing read: the text as given is what the fingerprint covers.
            canonical=canonical or text,
            card_versions=card_versions,
            ruleset=ruleset,
            size=event.size_label,
        ),
        "judged_at": timezone.now(),
    }


@dataclass(frozen=True)
class Judged:
    """A player's list judged now, to be stored."""

    player: Player
    source: str
    text: str
    result: CheckResult
    saved_list: ArmyList | None = None
    # Given now (by the player or the organiser); False: judged again after new card data.
    submitted: bool = True


# The columns `store_many` writes over an existing list.
_WRITTEN = (
    "text",
    "canonical",
    "status",
    "points",
    "spent",
    "result",
    "reading",
    "card_versions",
    "ruleset",
    "data_date",
    "fingerprint",
    "judged_at",
    "source",
    "saved_list",
    "submitted_at",
    "revision",
    "approved",
    "approved_by",
)


def store_many(
    event: Event, judged: Sequence[Judged], *, pools: Pools | None = None
) -> list[EventList]:
    """Write each player's list and its verdict (a new one, or over the one they had), in
    a few queries whatever the number of lists. A list whose fingerprint changed is a new
    revision: an approval given to the old one does not carry over."""
    if not judged:
        return []
    versions = CurrentVersions(event.game)
    pool = (pools or Pools()).get(event.game)
    existing = {
        stored.player_id: stored
        for stored in EventList.objects.filter(player__in=[item.player for item in judged])
    }
    now = timezone.now()
    created, updated, stored = [], [], []
    for item in judged:
        values = stored_values(event, item.text, item.result, versions=versions, pool=pool)
        current = existing.get(item.player.pk)
        if current is None:
            current = EventList(
                player=item.player,
                source=item.source,
                saved_list=item.saved_list,
                submitted_at=now,
                **values,
            )
            created.append(current)
        else:
            changed = current.fingerprint != values["fingerprint"] or current.text != item.text
            for key, value in values.items():
                setattr(current, key, value)
            current.source, current.saved_list = item.source, item.saved_list
            if item.submitted:
                current.submitted_at = now
            if changed:
                current.revision += 1
                current.approved, current.approved_by = False, None
            updated.append(current)
        current.player = item.player
        stored.append(current)
    EventList.objects.bulk_create(created, batch_size=200)
    EventList.objects.bulk_update(updated, _WRITTEN, batch_size=200)
    return stored


def store(
    player: Player,
    *,
    source: str,
    text: str,
    result: CheckResult,
    saved_list: ArmyList | None = None,
    submitted: bool = True,
) -> EventList:
    """`store_many` for one list."""
    [stored] = store_many(
        player.event,
        [Judged(player, source, text, result, saved_list=saved_list, submitted=submitted)],
    )
    return stored


def rejudge_players(*, event: Event, players: Iterable[Player]) -> list[EventList]:
    """Judge these players' lists again with the current card data (same text, same
    source), team-mates together. Does nothing once the event is locked."""
    if event.is_locked:
        return []
    players = [p for p in players if hasattr(p, "event_list")]
    if not players:
        return []
    lists = [p.event_list for p in players]
    pools = Pools()
    results = judge_texts(
        event,
        [
            (p.name, el.text, p.team.name if p.team else "")
            for p, el in zip(players, lists, strict=True)
        ],
        pools=pools,
    )
    return store_many(
        event,
        [
            Judged(p, el.source, el.text, result, saved_list=el.saved_list, submitted=False)
            for p, el, result in zip(players, lists, results, strict=True)
        ],
        pools=pools,
    )


def rejudge_event(*, event: Event) -> list[EventList]:
    players = Player.objects.filter(event=event, event_list__isnull=False).select_related(
        "event_list", "team"
    )
    return rejudge_players(event=event, players=players)
