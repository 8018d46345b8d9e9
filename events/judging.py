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
from dataclasses import replace

from django.utils import timezone

from armybuilder.checking import CheckOptions, check_many, cite
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


def judge_texts(event: Event, lists: Sequence[tuple[str, str, str]]) -> list[CheckResult]:
    """Judge [(label, text, team name), …] as the event does, in one batch (each game's
    card pool loaded once): team-mates' lists together."""
    teams = [team or None for _label, _text, team in lists] if event.is_team_event else None
    batch = check_many(
        [(label, text) for label, text, _team in lists], check_options(event), teams=teams
    )
    return [item.result for item in batch.items]


def status_of(result: CheckResult) -> str:
    """Legal, illegal, or unreadable (nothing read as a card: no verdict can be given)."""
    if not result.read or not result.entries:
        return ListStatus.UNREADABLE
    return ListStatus.LEGAL if result.legal else ListStatus.ILLEGAL


def card_versions_of(game: str, result: CheckResult) -> tuple[dict[str, str], dt.datetime | None]:
    """{card id: version digest} of the cards a result uses, and when the newest of those
    versions was recorded."""
    ids = sorted({entry.card.id for entry in result.entries})
    rows = list(
        Card.objects.filter(game=game, external_id__in=ids).values_list(
            "external_id", "current_version__digest", "current_version__recorded_at"
        )
    )
    versions = {external_id: digest or "" for external_id, digest, _when in rows}
    dates = [when for _id, _digest, when in rows if when is not None]
    return versions, (max(dates) if dates else None)


def stored_values(event: Event, text: str, result: CheckResult) -> dict:
    """The columns of an `EventList` for `text` judged now as `result`."""
    versions, data_date = card_versions_of(event.game, result)
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
        "reading": {lang: reading_of(cited[lang], lang=lang).as_dict() for lang in CARD_LANGUAGES},
        "card_versions": versions,
        "ruleset": ruleset,
        "data_date": data_date,
        "fingerprint": fingerprint(
            game=event.game,
            # Nothing read: the text as given is what the fingerprint covers.
            canonical=canonical or text,
            card_versions=versions,
            ruleset=ruleset,
            size=event.size_label,
        ),
        "judged_at": timezone.now(),
    }


def store(
    player: Player,
    *,
    source: str,
    text: str,
    result: CheckResult,
    saved_list: ArmyList | None = None,
    submitted: bool = True,
) -> EventList:
    """Write a player's list and its verdict (a new one, or over the one they had).
    `submitted`: given now (by the player or the organiser), not judged again after new card
    data. A list whose fingerprint changed is a new revision: an approval given to the old
    one does not carry over."""
    values = stored_values(player.event, text, result)
    now = timezone.now()
    current = EventList.objects.filter(player=player).first()
    if current is None:
        return EventList.objects.create(
            player=player, source=source, saved_list=saved_list, submitted_at=now, **values
        )
    changed = current.fingerprint != values["fingerprint"] or current.text != text
    for key, value in values.items():
        setattr(current, key, value)
    current.source, current.saved_list = source, saved_list
    if submitted:
        current.submitted_at = now
    if changed:
        current.revision += 1
        current.approved, current.approved_by = False, None
    current.save()
    return current


def rejudge_players(*, event: Event, players: Iterable[Player]) -> list[EventList]:
    """Judge these players' lists again with the current card data (same text, same
    source), team-mates together. Does nothing once the event is locked."""
    if event.is_locked:
        return []
    players = [p for p in players if hasattr(p, "event_list")]
    if not players:
        return []
    lists = [p.event_list for p in players]
    results = judge_texts(
        event,
        [
            (p.name, el.text, p.team.name if p.team else "")
            for p, el in zip(players, lists, strict=True)
        ],
    )
    return [
        store(
            p,
            source=el.source,
            text=el.text,
            result=result,
            saved_list=el.saved_list,
            submitted=False,
        )
        for p, el, result in zip(players, lists, results, strict=True)
    ]


def rejudge_event(*, event: Event) -> list[EventList]:
    players = Player.objects.filter(event=event, event_list__isnull=False).select_related(
        "event_list", "team"
    )
    return rejudge_players(event=event, players=players)
