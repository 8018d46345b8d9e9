"""Reads for tournament events: who may see an event and which of its lists, and the report.

Who sees what:
- an event: anyone when it is public; an unlisted one only its organisers, its players and
  whoever holds its join link;
- its lists: organisers see every list at any time; once the lists are published, whoever
  may see the event sees them all; before that a player sees only their own list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from armybuilder.lists.selectors import Reading, as_token

from .intake import SubmittedText
from .models import Event, EventList, EventVisibility, ListStatus, Player

User = AbstractBaseUser | AnonymousUser | None


def _signed_in(user: User) -> bool:
    return user is not None and user.is_authenticated


def is_organiser(event: Event, user: User) -> bool:
    if not _signed_in(user):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.organisers.filter(pk=user.pk).exists()  # type: ignore[union-attr]


def player_of(event: Event, user: User) -> Player | None:
    """The player this user is at the event (None: not playing)."""
    if not _signed_in(user):
        return None
    return (
        Player.objects.filter(event=event, user=user).select_related("team", "event_list").first()
    )


def events_for(user: User) -> QuerySet[Event]:
    """The events a user may find: public ones, and those they organise or play in."""
    visible = Q(visibility=EventVisibility.PUBLIC)
    if _signed_in(user):
        visible |= Q(organisers=user) | Q(players__user=user)
    return Event.objects.filter(visible).distinct().order_by("-date", "-id")


def my_events(user: User) -> QuerySet[Event]:
    if not _signed_in(user):
        return Event.objects.none()
    return (
        Event.objects.filter(Q(organisers=user) | Q(players__user=user))
        .distinct()
        .order_by("-date", "-id")
    )


def public_events() -> QuerySet[Event]:
    return Event.objects.filter(visibility=EventVisibility.PUBLIC).order_by("-date", "-id")


def event_for_viewer(*, event_id: object, user: User, token: object = None) -> Event | None:
    """The event if this viewer may see it, else None (a 404: an unlisted event is not
    told apart from one that does not exist)."""
    try:
        pk = int(event_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        return None
    if event.visibility == EventVisibility.PUBLIC or is_organiser(event, user):
        return event
    if player_of(event, user) is not None:
        return event
    shared = as_token(token)
    if shared is not None and shared == event.join_token:
        return event
    return None


def event_by_join_token(token: object) -> Event | None:
    shared = as_token(token)
    return Event.objects.filter(join_token=shared).first() if shared else None


def lists_for_viewer(event: Event, user: User) -> QuerySet[EventList]:
    """The lists of `event` this viewer may read (module docstring)."""
    lists = EventList.objects.filter(player__event=event).select_related(
        "player__team", "player__user", "saved_list", "approved_by"
    )
    if is_organiser(event, user) or event.is_published:
        return lists.order_by("player__name", "id")
    if not _signed_in(user):
        return lists.none()
    return lists.filter(player__user=user).order_by("player__name", "id")


FILTERS = ("all", "illegal", "unreadable", "legal", "to-approve")


def filtered(lists: QuerySet[EventList], shown: str) -> QuerySet[EventList]:
    """The organiser's filters: illegal (and unreadable), unreadable, legal, not approved."""
    if shown == "illegal":
        return lists.filter(status__in=(ListStatus.ILLEGAL, ListStatus.UNREADABLE))
    if shown == "unreadable":
        return lists.filter(status=ListStatus.UNREADABLE)
    if shown == "legal":
        return lists.filter(status=ListStatus.LEGAL)
    if shown == "to-approve":
        return lists.filter(approved=False)
    return lists


def players_without_list(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(event=event, event_list__isnull=True).order_by("name")


# --- the report --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportRow:
    """One list as the organiser's report shows it, in one language."""

    event_list: EventList
    result: dict  # the checklist JSON of its verdict
    reading: Reading
    where: str = ""  # an intake's list: where it starts in the input ("line 12", "row 3")

    @property
    def key(self) -> str:
        return str(self.event_list.pk)

    @property
    def report(self) -> dict:
        """The verdict's JSON under the name the findings partial reads it by."""
        return self.result

    @property
    def player(self) -> str:
        return self.event_list.player.name

    @property
    def team(self) -> str:
        team = self.event_list.player.team
        return team.name if team else ""

    @property
    def errors(self) -> list[dict]:
        return [f for f in self.result.get("findings", []) if f.get("severity") == "error"]

    @property
    def warnings(self) -> list[dict]:
        return [f for f in self.result.get("findings", []) if f.get("severity") != "error"]


@dataclass(frozen=True)
class Summary:
    lists: int
    legal: int
    illegal: int
    unreadable: int
    approved: int


@dataclass(frozen=True)
class EventReport:
    event: Event
    rows: tuple[ReportRow, ...]
    lang: str
    generated_at: datetime

    @property
    def summary(self) -> Summary:
        statuses = [row.event_list.status for row in self.rows]
        return Summary(
            lists=len(statuses),
            legal=statuses.count(ListStatus.LEGAL),
            illegal=statuses.count(ListStatus.ILLEGAL),
            unreadable=statuses.count(ListStatus.UNREADABLE),
            approved=sum(1 for row in self.rows if row.event_list.approved),
        )


def report_rows(
    lists: list[EventList] | QuerySet[EventList],
    *,
    lang: str,
    where: list[str] | tuple[str, ...] = (),
) -> tuple[ReportRow, ...]:
    """The rows of `lists` in `lang`; `where`: each list's place in an intake's input."""
    lists = list(lists)
    places = list(where) or [""] * len(lists)
    return tuple(
        ReportRow(
            event_list=stored,
            result=stored.result_in(lang),
            reading=Reading.from_dict(stored.reading_in(lang)),
            where=place,
        )
        for stored, place in zip(lists, places, strict=True)
    )


def event_report(
    event: Event, lists: QuerySet[EventList], *, lang: str, now: datetime
) -> EventReport:
    return EventReport(event=event, rows=report_rows(lists, lang=lang), lang=lang, generated_at=now)


def intake_report(
    event: Event,
    lists: Sequence[EventList],
    *,
    pieces: Sequence[SubmittedText],
    lang: str,
    now: datetime,
) -> EventReport:
    """The report of the lists an intake just took in, each with its place in the input."""
    rows = report_rows(list(lists), lang=lang, where=[piece.where(lang) for piece in pieces])
    return EventReport(event=event, rows=rows, lang=lang, generated_at=now)
