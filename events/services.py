"""Writes for tournament events (keyword-only; each one checks who may do it).

Every write that changes a list refuses once the event is locked (see events/models.py for
the states). A refusal is an `EventRefused` carrying a translated message and, when a form
field is at fault, its name: views and the API show it as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from armybuilder.checking import GAMES, BatchItem, CheckError, Pools, apply_team_rules
from armybuilder.lists.games import for_game
from armybuilder.lists.models import ArmyList, ListGame
from armybuilder.listtext.lines import split_lines
from armybuilder.listtext.reading import LineKind
from armybuilder.listtext.warcouncil import looks_like_share_code
from armybuilder.result import CheckResult
from armybuilder.tactics.draft import Coins
from armybuilder.tmg.rulesets import UnknownRuleset, get_ruleset, ruleset_in_force
from cards.models import Scenario, ScenarioKind

from .intake import SubmittedText
from .judging import Judged, judge_texts, rejudge_event, rejudge_players, store_many
from .models import Event, EventList, EventVisibility, ListSource, Player, Team
from .selectors import is_organiser

MAX_NAME = 120


class EventRefused(Exception):
    """A write that may not happen: the message says why, in the active language."""

    def __init__(self, message: str, *, field: str | None = None, status: int = 400):
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


def _forbidden() -> EventRefused:
    return EventRefused(_("Only the event's organisers may do this."), status=403)


def _locked(event: Event) -> EventRefused:
    return EventRefused(
        _(
            "The lists of this event are locked since %(when)s: nothing can be changed. "
            "Ask an organiser if a list is wrong."
        )
        % {"when": timezone.localtime(event.lock_time()).strftime("%Y-%m-%d %H:%M")},  # type: ignore[arg-type]
        status=409,
    )


def _require_organiser(event: Event, actor: AbstractBaseUser | None) -> None:
    if not is_organiser(event, actor):
        raise _forbidden()


def _require_open(event: Event) -> None:
    if event.is_locked:
        raise _locked(event)


# --- the event itself ------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSettings:
    """An event's settings, checked (see `event_settings`)."""

    name: str
    date: dt.date
    game: str
    place: str = ""
    points: int | None = None
    scenario: Scenario | None = None
    budget: Coins | None = None
    ruleset: str = ""
    game_modes: tuple[str, ...] = ()
    deadline: dt.datetime | None = None
    team_size: int = 1
    visibility: str = EventVisibility.UNLISTED


def _text(value: object, field: str, *, required: bool = True, limit: int = MAX_NAME) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise EventRefused(_("This field must be text."), field=field)
    value = value.strip()
    if required and not value:
        raise EventRefused(_("This field is required."), field=field)
    if len(value) > limit:
        raise EventRefused(
            _("At most %(limit)d characters, please.") % {"limit": limit}, field=field
        )
    return value


def _date(value: object, field: str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise EventRefused(_("Give a date as YYYY-MM-DD."), field=field)


def _deadline(value: object, field: str = "deadline") -> dt.datetime | None:
    if value in (None, ""):
        return None
    moment: dt.datetime | None = None
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            moment = None
    if moment is None:
        raise EventRefused(_("Give a date and time as YYYY-MM-DDTHH:MM."), field=field)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _whole_number(
    value: object, *, field: str, low: int, high: int, unreadable: str, out_of_range: str
) -> int:
    """`value` (a number, or its digits as text) between `low` and `high`; EventRefused on
    `field` with `unreadable` for anything else (a boolean too), `out_of_range` past a bound."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise EventRefused(unreadable, field=field)
    try:
        number = int(value)
    except ValueError:
        raise EventRefused(unreadable, field=field) from None
    if not low <= number <= high:
        raise EventRefused(out_of_range, field=field)
    return number


def _points(value: object) -> int:
    return _whole_number(
        value,
        field="points",
        low=1,
        high=500,
        unreadable=_("Give the game size in points, e.g. 40."),
        out_of_range=_("A game size is between 1 and 500 points."),
    )


def _tactics_budget(value: object) -> tuple[Scenario | None, Coins]:
    """A budget "3-6-18", or the slug or name of a Tactics scenario / game size with one."""
    if isinstance(value, str) and value.strip():
        coins = Coins.parse(value.strip())
        if coins is not None:
            return None, coins
        scenario = (
            Scenario.objects.filter(game=ListGame.TACTICS).filter(slug=value.strip()).first()
            or Scenario.objects.filter(game=ListGame.TACTICS, name_en__iexact=value.strip()).first()
        )
        if scenario is not None:
            if scenario.budget is None:
                raise EventRefused(
                    _("The scenario %(name)s has no coin budget: give one as gold-silver-copper.")
                    % {"name": scenario.name_en},
                    field="budget",
                )
            return scenario, Coins(**scenario.budget)
    raise EventRefused(
        _("Give the budget as gold-silver-copper (e.g. 3-6-18) or a scenario's slug."),
        field="budget",
    )


def _game_modes(value: object, game: str) -> tuple[str, ...]:
    if value in (None, ""):
        return ()
    if isinstance(value, str):
        value = [part for part in value.replace(";", ",").split(",") if part.strip()]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise EventRefused(_("Give the game modes as a list of slugs."), field="game_modes")
    slugs = tuple(dict.fromkeys(v.strip() for v in value))
    kinds = [ScenarioKind.GAME_MODE] if game == ListGame.TMG else [ScenarioKind.SCENARIO]
    known = set(
        Scenario.objects.filter(game=game, kind__in=kinds, slug__in=slugs).values_list(
            "slug", flat=True
        )
    )
    unknown = [s for s in slugs if s not in known]
    if unknown:
        raise EventRefused(
            _("Unknown game mode: %(slugs)s.") % {"slugs": ", ".join(unknown)}, field="game_modes"
        )
    return slugs


def event_settings(data: dict, *, current: Event | None = None) -> EventSettings:
    """Check an event's settings (a new event's, or `current`'s with `data` changed).
    Raises EventRefused naming the field at fault."""

    def given(key: str) -> bool:
        return key in data

    def value(key: str, default: object) -> object:
        return data[key] if given(key) else default

    game = value("game", current.game if current else None)
    if game not in ListGame.values:
        raise EventRefused(_("The game is tmg or tactics."), field="game")
    if current is not None and game != current.game and current.players.exists():
        raise EventRefused(_("Players have joined: the game can no longer change."), field="game")
    settings = EventSettings(
        name=_text(value("name", current.name if current else None), "name"),
        date=_date(value("date", current.date if current else None), "date"),
        game=str(game),
        place=_text(value("place", current.place if current else ""), "place", required=False),
        deadline=_deadline(value("deadline", current.deadline if current else None)),
        visibility=str(value("visibility", current.visibility if current else "unlisted")),
        game_modes=_game_modes(
            value("game_modes", list(current.game_modes) if current else []), str(game)
        ),
    )
    if settings.visibility not in EventVisibility.values:
        raise EventRefused(_("Visibility is public or unlisted."), field="visibility")
    if settings.deadline is not None and timezone.localdate(settings.deadline) > settings.date:
        raise EventRefused(
            _("The lists must lock by the day of the event: choose a deadline on or before it."),
            field="deadline",
        )
    team_size = _whole_number(
        value("team_size", current.team_size if current else 1),
        field="team_size",
        low=1,
        high=10,
        unreadable=_("Give the number of players per team."),
        out_of_range=_("A team has 1 to 10 players."),
    )
    settings = replace(settings, team_size=team_size)
    if game == ListGame.TMG:
        points = value("points", current.points if current else None)
        if points in (None, ""):
            raise EventRefused(_("Give the game size in points, e.g. 40."), field="points")
        ruleset_id = value("ruleset", current.ruleset if current else "")
        if ruleset_id:
            try:
                ruleset = get_ruleset(str(ruleset_id))
            except UnknownRuleset as exc:
                raise EventRefused(str(exc), field="ruleset") from None
        else:
            ruleset = ruleset_in_force(settings.date)
        return replace(settings, points=_points(points), ruleset=ruleset.id)
    if given("budget") or given("scenario") or current is None:
        budget = data.get("budget") or data.get("scenario")
        scenario, coins = _tactics_budget(budget)
    else:
        scenario = current.scenario
        coins = Coins(current.gold or 0, current.silver or 0, current.copper or 0)
    return replace(settings, scenario=scenario, budget=coins)


def _apply(event: Event, settings: EventSettings) -> None:
    event.name, event.date, event.game = settings.name, settings.date, settings.game
    event.place, event.deadline = settings.place, settings.deadline
    event.visibility, event.team_size = settings.visibility, settings.team_size
    event.game_modes = list(settings.game_modes)
    event.points, event.ruleset = settings.points, settings.ruleset
    event.scenario = settings.scenario
    coins = settings.budget
    event.gold, event.silver, event.copper = (
        (coins.gold, coins.silver, coins.copper) if coins else (None, None, None)
    )


@transaction.atomic
def create_event(*, creator: AbstractBaseUser, data: dict) -> Event:
    """A new event; its creator is its first organiser."""
    if creator is None or not creator.is_authenticated:
        raise EventRefused(_("Sign in to create an event."), status=403)
    event = Event()
    _apply(event, event_settings(data))
    event.save()
    event.organisers.add(creator)
    return event


@transaction.atomic
def update_event(*, event: Event, actor: AbstractBaseUser, data: dict) -> Event:
    """Change an event's settings. A change of size, budget or ruleset re-judges the lists
    (while the event is open; a locked event keeps its settings)."""
    _require_organiser(event, actor)
    before = (event.points, event.budget_label, event.ruleset, event.team_size)
    settings = event_settings(data, current=event)
    _apply(event, settings)
    after = (event.points, event.budget_label, event.ruleset, event.team_size)
    if after != before and event.is_locked:
        raise _locked(event)
    event.save()
    if after != before:
        rejudge_event(event=event)
    return event


def add_organiser(*, event: Event, actor: AbstractBaseUser, user: AbstractBaseUser) -> None:
    _require_organiser(event, actor)
    event.organisers.add(user)


def remove_organiser(*, event: Event, actor: AbstractBaseUser, user: AbstractBaseUser) -> None:
    _require_organiser(event, actor)
    if event.organisers.count() <= 1:
        raise EventRefused(_("An event keeps at least one organiser."))
    event.organisers.remove(user)


def lock_event(*, event: Event, actor: AbstractBaseUser) -> Event:
    """Lock every list now (the deadline would otherwise). Locking twice changes nothing."""
    _require_organiser(event, actor)
    if not event.is_locked:
        event.locked_at = timezone.now()
        event.save(update_fields=["locked_at", "updated_at"])
    return event


def publish_lists(*, event: Event, actor: AbstractBaseUser) -> Event:
    """Show every list to whoever can read the event. Publishing locks the lists first:
    once players see each other's lists nobody may change theirs."""
    _require_organiser(event, actor)
    now = timezone.now()
    if not event.is_locked:
        event.locked_at = now
    if event.published_at is None:
        event.published_at = now
    event.save(update_fields=["locked_at", "published_at", "updated_at"])
    return event


# --- players -------------------------------------------------------------------------------


def _team(event: Event, name: str) -> Team | None:
    name = (name or "").strip()[:80]
    if not name or not event.is_team_event:
        return None
    team, _created = Team.objects.get_or_create(event=event, name=name)
    if team.players.count() >= event.team_size and _created is False:
        # A full team refuses a new member; the player may pick another team.
        raise EventRefused(
            _("The team %(team)s already has %(size)d players.")
            % {"team": team.name, "size": event.team_size},
            field="team",
            status=409,
        )
    return team


def _unique_name(event: Event, wanted: str) -> str:
    name, number = wanted, 2
    taken = set(event.players.values_list("name", flat=True))
    while name in taken:
        name, number = f"{wanted} ({number})", number + 1
    return name


@transaction.atomic
def join_event(*, event: Event, user: AbstractBaseUser, team: str = "") -> Player:
    """A signed-in player joins (by the join link, or from a public event's page).
    Joining twice returns the same player."""
    if user is None or not user.is_authenticated:
        raise EventRefused(_("Sign in to join an event."), status=403)
    existing = event.players.filter(user=user).first()
    if existing is not None:
        return existing
    _require_open(event)
    wanted = (user.get_full_name() or user.get_username())[:MAX_NAME]  # type: ignore[attr-defined]
    return Player.objects.create(
        event=event, user=user, name=_unique_name(event, wanted), team=_team(event, team)
    )


@transaction.atomic
def add_player(
    *,
    event: Event,
    actor: AbstractBaseUser,
    name: str,
    user: AbstractBaseUser | None = None,
    team: str = "",
) -> Player:
    """An organiser adds a player, by name (and account, when the player has one)."""
    _require_organiser(event, actor)
    name = _text(name, "name")
    if event.players.filter(name=name).exists():
        raise EventRefused(
            _("A player of this event already has this name."), field="name", status=409
        )
    if user is not None and event.players.filter(user=user).exists():
        raise EventRefused(_("This account already plays in this event."), field="user", status=409)
    return Player.objects.create(event=event, user=user, name=name, team=_team(event, team))


@transaction.atomic
def remove_player(*, event: Event, actor: AbstractBaseUser, player: Player) -> None:
    _require_organiser(event, actor)
    _require_open(event)
    team = player.team
    player.delete()
    if team is not None:
        rejudge_players(event=event, players=list(team.players.all()))


# --- submitting lists ----------------------------------------------------------------------


def _team_mates(player: Player) -> list[Player]:
    if player.team_id is None:
        return []
    return list(
        Player.objects.filter(team_id=player.team_id)
        .exclude(pk=player.pk)
        .select_related("event_list", "team")
        .filter(event_list__isnull=False)
    )


def _may_submit_for(event: Event, player: Player, actor: AbstractBaseUser | None) -> None:
    if player.event_id != event.pk:
        raise EventRefused(_("This player does not play in this event."), status=404)
    own = actor is not None and actor.is_authenticated and player.user_id == actor.pk
    if not own and not is_organiser(event, actor):
        raise EventRefused(_("You may only submit your own list."), status=403)


@transaction.atomic
def submit_list(
    *,
    event: Event,
    player: Player,
    actor: AbstractBaseUser | None,
    text: str | None = None,
    saved_list: ArmyList | None = None,
) -> EventList:
    """Store and judge a player's list: pasted text (a War Council share code included) or
    one of their saved lists (its canonical text as it stands now). Resubmitting replaces
    the list until the event locks."""
    _may_submit_for(event, player, actor)
    _require_open(event)
    if saved_list is not None:
        if saved_list.owner_id is None or saved_list.owner_id != getattr(actor, "pk", None):
            raise EventRefused(
                _("No saved list of yours has this number."), field="list_id", status=404
            )
        if saved_list.game != event.game:
            raise EventRefused(
                _("This event is played with %(game)s lists.")
                % {"game": ListGame(event.game).label},
                field="list_id",
            )
        text = for_game(saved_list.game).text(saved_list)
        source = ListSource.SAVED
    else:
        if not isinstance(text, str) or not text.strip():
            raise EventRefused(_("Paste your list, or choose a saved list."), field="text")
        source = ListSource.SHARE_CODE if looks_like_share_code(text) else ListSource.TEXT
    team = player.team.name if player.team else ""
    mates = _team_mates(player)
    rows = [(player.name, text, team)] + [(m.name, m.event_list.text, team) for m in mates]
    try:
        results = judge_texts(event, rows)
    except CheckError as exc:
        raise EventRefused(str(exc), field="text") from None
    mine = Judged(player, source, text, results[0], saved_list=saved_list)
    theirs = [
        Judged(m, m.event_list.source, m.event_list.text, result, m.event_list.saved_list, False)
        for m, result in zip(mates, results[1:], strict=True)
    ]
    return store_many(event, [mine, *theirs])[0]


def withdraw_list(*, event: Event, player: Player, actor: AbstractBaseUser | None) -> None:
    _may_submit_for(event, player, actor)
    _require_open(event)
    EventList.objects.filter(player=player).delete()


def review_list(
    *,
    event_list: EventList,
    actor: AbstractBaseUser,
    approved: bool | None = None,
    note: str | None = None,
) -> EventList:
    """An organiser's note on a list, and whether it is approved (after talking to the
    player). Both stay possible after locking: they are not part of the list."""
    event = event_list.player.event
    _require_organiser(event, actor)
    fields = []
    if note is not None:
        event_list.note = _text(note, "note", required=False, limit=2000)
        fields.append("note")
    if approved is not None:
        event_list.approved = bool(approved)
        event_list.approved_by = actor if approved else None
        fields += ["approved", "approved_by"]
    if fields:
        event_list.save(update_fields=fields)
    return event_list


# --- bulk intake ----------------------------------------------------------------------------


@dataclass(frozen=True)
class IntakeOutcome:
    """What a bulk intake stored: one list per piece, in the input's order."""

    lists: tuple[EventList, ...]
    pieces: tuple[SubmittedText, ...]  # what each list was read from
    created: int  # new players
    replaced: int  # players whose list was replaced


# Cuts per intake piece at most: a piece the reader keeps finding new lists in is not cut
# forever (the rest stays one list, reported with LIST_SEVERAL).
MAX_CUTS = 50


def _cut(piece: SubmittedText, result: CheckResult) -> tuple[SubmittedText, SubmittedText] | None:
    """A piece in which the reader saw a second list begin, cut there: the lines before the
    second list, then the rest. The paragraph just before it goes with it when it holds no
    card (the second list's title: often its player's name)."""
    kinds = {line.number: line.kind for line in result.lines}
    first = next((n for n, kind in sorted(kinds.items()) if kind is LineKind.OTHER_LIST), None)
    if first is None:
        return None
    start = first
    while start - 1 in kinds and kinds[start - 1] in (
        LineKind.PROSE,
        LineKind.TITLE,
        LineKind.UNKNOWN,
    ):
        start -= 1
    if start - 1 in kinds and kinds[start - 1] is not LineKind.BLANK:
        start = first  # the paragraph runs into the first list: it belongs to it
    lines = piece.text.splitlines()
    head, tail = "\n".join(lines[: start - 1]).rstrip(), "\n".join(lines[start - 1 :])
    if not head.strip() or not tail.strip():
        return None
    kind, number = piece.origin
    return (
        replace(piece, text=head),
        SubmittedText(player="", text=tail, team=piece.team, origin=(kind, number + start - 1)),
    )


def _title(result: CheckResult) -> str:
    """The list's own title line (before its first card), to name a player the input does
    not name."""
    for line in result.lines:
        if line.kind is LineKind.CARD:
            return ""
        if line.kind is LineKind.TITLE:
            body = next(iter(split_lines(line.text)), None)
            text = body.body if body is not None else line.text
            _key, colon, value = text.partition(":")
            return (value if colon and value.strip() else text).strip()[:MAX_NAME]
    return ""


def list_line_test(event: Event) -> Callable[[str], bool]:
    """Whether a heading line of an intake text is part of a list (a faction, a section…)
    rather than a player's name, as the event's game reads lists."""
    game = GAMES[event.game]
    pool = game.load_pool()
    return lambda line: game.is_furniture(line, pool=pool)


def read_pieces(
    event: Event, pieces: Sequence[SubmittedText], *, pools: Pools | None = None
) -> tuple[list[SubmittedText], list[CheckResult]]:
    """Judge each piece as the event does; cut the pieces in which the reader sees a second
    list begin, and judge the halves. The pieces (cut) and their results, in order."""
    pools = pools or Pools()
    queue = list(pieces)
    results = judge_texts(event, [(p.player, p.text, "") for p in queue], pools=pools)
    done: list[tuple[SubmittedText, CheckResult]] = []
    cuts = 0
    while queue:
        piece, result = queue.pop(0), results.pop(0)
        halves = _cut(piece, result) if cuts < MAX_CUTS else None
        if halves is None:
            done.append((piece, result))
            continue
        cuts += 1
        queue[:0] = list(halves)
        results[:0] = judge_texts(event, [(h.player, h.text, "") for h in halves], pools=pools)
    return [piece for piece, _result in done], [result for _piece, result in done]


def _names(pieces: Sequence[SubmittedText], results: Sequence[CheckResult]) -> list[str]:
    """One distinct player name per piece: the one the input gives, else the list's title,
    else "List 3"; a repeated name gets "(2)"."""
    used: set[str] = set()
    names = []
    for number, (piece, result) in enumerate(zip(pieces, results, strict=True), start=1):
        name = piece.player.strip()[:MAX_NAME] or _title(result)
        name = name or _("List %(number)d") % {"number": number}
        base, suffix = name, 2
        while name in used:
            name, suffix = f"{base} ({suffix})", suffix + 1
        used.add(name)
        names.append(name)
    return names


@transaction.atomic
def intake_lists(
    *, event: Event, pieces: Sequence[SubmittedText], actor: AbstractBaseUser
) -> IntakeOutcome:
    """Lists an organiser collected elsewhere: each becomes (or replaces) the list of the
    player it names, all judged in one batch (team-mates together), stored as submitted."""
    _require_organiser(event, actor)
    _require_open(event)
    if not pieces:  # nothing but blank lines and separators: nothing to take in
        return IntakeOutcome(lists=(), pieces=(), created=0, replaced=0)
    limit = settings.CITADEL_MAX_INTAKE_LISTS
    pools = Pools()
    if len(pieces) <= limit:
        pieces, results = read_pieces(event, pieces, pools=pools)
    if len(pieces) > limit:
        raise EventRefused(
            _("At most %(limit)d lists at a time; this has %(count)d.")
            % {"limit": limit, "count": len(pieces)},
            field="text",
        )
    names = _names(pieces, results)
    players = {p.name: p for p in event.players.filter(name__in=names).select_related("team")}
    teams = {
        name: Team.objects.get_or_create(event=event, name=name)[0]
        for name in {piece.team.strip()[:80] for piece in pieces}
        if name and event.is_team_event
    }
    new = [
        Player(event=event, name=name, team=teams.get(piece.team.strip()[:80]))
        for name, piece in zip(names, pieces, strict=True)
        if name not in players
    ]
    Player.objects.bulk_create(new, batch_size=500)
    players.update({player.name: player for player in new})
    rows = [players[name] for name in names]
    if event.is_team_event:
        results = [
            item.result
            for item in apply_team_rules(
                [
                    BatchItem(label=p.name, result=r, team=p.team.name if p.team else None)
                    for p, r in zip(rows, results, strict=True)
                ]
            )
        ]
    replaced = EventList.objects.filter(player__in=rows).count()
    stored = store_many(
        event,
        [
            Judged(player, ListSource.INTAKE, piece.text, result)
            for player, piece, result in zip(rows, pieces, results, strict=True)
        ],
        pools=pools,
    )
    created = len(new)
    return IntakeOutcome(
        lists=tuple(stored), pieces=tuple(pieces), created=created, replaced=replaced
    )
