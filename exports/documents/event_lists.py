"""The list sheets of a tournament event: one sheet per list, as each was judged and stored
(never judged again: a locked list prints as it locked), with the player, the event and the
fingerprint on top. One list (its player's print) or every list of the event in one PDF
(the organisers')."""

from __future__ import annotations

from django.utils.text import slugify
from django.utils.translation import gettext as _

from events.models import Event, EventList

from .army_list import LIST_LANGUAGES, sheet_context
from .base import DocumentError, Progress, RenderedDocument, render_html, write_pdf


def _lists(params: dict) -> tuple[Event, list[EventList]]:
    lists = EventList.objects.select_related("player__event", "player__team").order_by(
        "player__name", "id"
    )
    if params.get("event_list_id") is not None:
        stored = lists.filter(pk=params["event_list_id"]).first()
        if stored is None:
            raise DocumentError(_("This list is no longer part of the event."))
        return stored.player.event, [stored]
    event = Event.objects.filter(pk=params.get("event_id")).first()
    if event is None:
        raise DocumentError(_("No event has this number."))
    chosen = list(lists.filter(player__event=event))
    if not chosen:
        raise DocumentError(_("The event has no list to print yet."))
    return event, chosen


def render_event_lists(*, params: dict, language: str, progress: Progress) -> RenderedDocument:
    if language not in LIST_LANGUAGES:
        raise DocumentError(_("Army lists and warbands are printed in English or French."))
    event, lists = _lists(params)
    sheets = []
    for number, stored in enumerate(lists, start=1):
        context = sheet_context(stored.result_in(language), language)
        context["entrant"] = {
            "player": stored.player.name,
            "team": stored.player.team.name if stored.player.team_id else "",
            "event": event.name,
            "fingerprint": stored.fingerprint,
        }
        sheets.append(context)
        progress(40 * number / len(lists))
    html = render_html(
        "pdf/event_lists.html",
        {"event": event, "sheets": sheets, "lang": language},
        language=language,
    )
    progress(50)
    content, pages = write_pdf(html, language=language, progress=progress, start=50, end=100)
    stem = slugify(event.name) or "event"
    if len(lists) == 1:
        stem = f"{stem}-{slugify(lists[0].player.name) or 'list'}"
    return RenderedDocument(filename=f"{stem}-lists.pdf", content=content, pages=pages)
