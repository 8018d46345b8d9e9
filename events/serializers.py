"""Events as JSON and CSV: the API's requests and answers, and the organiser's report files.

The JSON of a list is written by plain functions from what was stored when it was judged
(`list_json`); the serializer classes check requests and document the answers in the
OpenAPI schema. The report (`report_json`, `report_csv`) is the same rows the organiser's
page shows, in the reader's language.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.lists.models import ListGame
from armybuilder.serializers import (
    FindingSerializer,
    LineReadingSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
)
from armybuilder.tmg.rulesets import all_rulesets

from .models import Event, EventList, EventVisibility, ListSource, ListStatus
from .selectors import EventReport, ReportRow, Summary

# --- events ------------------------------------------------------------------------------------


class EventWriteSerializer(serializers.Serializer):
    """An event's settings. Creating needs name, date, game and the size: `points` (TMG) or
    `budget` (Tactics: "gold-silver-copper" or a scenario's slug). Each field is checked
    again by the service (a ruleset that exists, a deadline before the event, …)."""

    name = StrictCharField(min_length=1, max_length=120)
    date = serializers.DateField()
    game = serializers.ChoiceField(choices=ListGame.choices)
    place = StrictCharField(max_length=160, required=False, allow_blank=True)
    points = StrictIntegerField(
        min_value=1, max_value=500, required=False, help_text="TMG: the game size in points."
    )
    budget = StrictCharField(
        min_length=1,
        max_length=64,
        required=False,
        help_text='Tactics: a budget "gold-silver-copper" (e.g. "3-6-18") or a scenario slug.',
    )
    ruleset = serializers.ChoiceField(
        choices=[("", ""), *((r, r) for r in sorted(all_rulesets()))],
        required=False,
        help_text="TMG: the ruleset id (default: the newest in force on the event's date).",
    )
    game_modes = serializers.ListField(
        child=StrictCharField(min_length=1, max_length=64), required=False, max_length=20
    )
    deadline = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the lists lock (ISO 8601)."
    )
    team_size = StrictIntegerField(
        min_value=1, max_value=10, required=False, help_text="Players per team; 1: individual."
    )
    visibility = serializers.ChoiceField(choices=EventVisibility.choices, required=False)


class EventSerializer(serializers.Serializer):
    """Documents `event_json`."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    place = serializers.CharField()
    game = serializers.ChoiceField(choices=ListGame.choices)
    points = serializers.IntegerField(allow_null=True)
    budget = serializers.CharField(help_text='Tactics: "gold-silver-copper"; "" for TMG.')
    scenario = serializers.CharField(allow_null=True, help_text="Tactics: the scenario's slug.")
    ruleset = serializers.CharField()
    game_modes = serializers.ListField(child=serializers.CharField())
    deadline = serializers.DateTimeField(allow_null=True)
    team_size = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=EventVisibility.choices)
    organisers = serializers.ListField(child=serializers.CharField())
    locked = serializers.BooleanField()
    locked_at = serializers.DateTimeField(allow_null=True)
    published = serializers.BooleanField()
    players = serializers.IntegerField()
    url = serializers.URLField(help_text="The event's page.")
    join_url = serializers.URLField(
        required=False, help_text="Organisers only: the link players join with."
    )


def event_json(event: Event, *, request: Any, organiser: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": event.pk,
        "name": event.name,
        "date": event.date.isoformat(),
        "place": event.place,
        "game": event.game,
        "points": event.points,
        "budget": event.budget_label,
        "scenario": event.scenario.slug if event.scenario_id else None,
        "ruleset": event.ruleset,
        "game_modes": list(event.game_modes),
        "deadline": event.deadline.isoformat() if event.deadline else None,
        "team_size": event.team_size,
        "visibility": event.visibility,
        "organisers": [user.get_username() for user in event.organisers.all()],
        "locked": event.is_locked,
        "locked_at": lock.isoformat() if (lock := event.lock_time()) and event.is_locked else None,
        "published": event.is_published,
        "players": event.players.count(),
        "url": request.build_absolute_uri(reverse("events:detail", args=[event.pk])),
    }
    if organiser:
        data["join_url"] = request.build_absolute_uri(
            reverse("events:join", args=[event.join_token])
        )
    return data


# --- lists -------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="EventListSchema")
class EventListSerializer(serializers.Serializer):
    """Documents `list_json`: a list as it was judged and stored."""

    id = serializers.IntegerField()
    player = serializers.CharField()
    team = serializers.CharField()
    status = serializers.ChoiceField(choices=ListStatus.choices)
    legal = serializers.BooleanField()
    points = serializers.IntegerField(allow_null=True, help_text="TMG: points spent.")
    spent = serializers.CharField(help_text='Points ("38") or coins ("3-5-12") spent.')
    fingerprint = serializers.CharField(
        help_text="A short hash of the canonical list, its card versions, ruleset and size."
    )
    revision = serializers.IntegerField()
    source = serializers.ChoiceField(choices=ListSource.choices)
    submitted_at = serializers.DateTimeField()
    judged_at = serializers.DateTimeField()
    data_date = serializers.DateTimeField(
        allow_null=True, help_text="When the card data it was judged with was recorded."
    )
    ruleset = serializers.CharField()
    locked = serializers.BooleanField()
    approved = serializers.BooleanField()
    note = serializers.CharField(required=False, help_text="Organisers only.")
    where = serializers.CharField(required=False, help_text="Intake: where the list started.")
    text = serializers.CharField(help_text="The list exactly as submitted.")
    canonical = serializers.CharField(help_text="The list in canonical text.")
    faction = serializers.CharField(allow_null=True)
    entries = serializers.ListField(child=serializers.DictField())
    findings = FindingSerializer(many=True)
    lines = LineReadingSerializer(many=True)


def list_json(
    stored: EventList, *, lang: str, organiser: bool, where: str | None = None
) -> dict[str, Any]:
    result = stored.result_in(lang)
    player = stored.player
    data: dict[str, Any] = {
        "id": stored.pk,
        "player": player.name,
        "team": player.team.name if player.team_id else "",
        "status": stored.status,
        "legal": stored.legal,
        "points": stored.points,
        "spent": stored.spent,
        "fingerprint": stored.fingerprint,
        "revision": stored.revision,
        "source": stored.source,
        "submitted_at": stored.submitted_at.isoformat(),
        "judged_at": stored.judged_at.isoformat(),
        "data_date": stored.data_date.isoformat() if stored.data_date else None,
        "ruleset": stored.ruleset,
        "locked": player.event.is_locked,
        "approved": stored.approved,
        "text": stored.text,
        "canonical": stored.canonical,
        "faction": result.get("faction"),
        "entries": result.get("entries", []),
        "findings": result.get("findings", []),
        "lines": result.get("lines", []),
    }
    if "coins" in result:
        data["coins"] = result["coins"]
    if organiser:
        data["note"] = stored.note
    if where is not None:
        data["where"] = where
    return data


class SubmitListSerializer(serializers.Serializer):
    """A player's list: pasted text (or a War Council share code), or one of their saved
    lists. Organisers may submit for a player (`player_id`). Validates; the schema shows
    its two shapes (SUBMIT_SHAPES)."""

    text = StrictCharField(
        required=False, trim_whitespace=False, min_length=1, max_length=MAX_LIST_CHARS
    )
    list_id = StrictIntegerField(required=False, min_value=1, help_text="A saved list of yours.")
    player_id = StrictIntegerField(
        required=False, min_value=1, help_text="Organisers: the player to submit for."
    )

    def validate(self, attrs: dict) -> dict:
        if ("text" in attrs) == ("list_id" in attrs):
            raise serializers.ValidationError(
                {"text": gettext_lazy("Give text (a pasted list) or list_id (a saved list).")}
            )
        return attrs


def _shape(name: str, fields: dict) -> type[serializers.Serializer]:
    """One request shape, for the schema only (a validating serializer checks)."""
    return type(name, (serializers.Serializer,), fields)


_PLAYER_ID = StrictIntegerField(
    required=False, min_value=1, help_text="Organisers: the player to submit for."
)
SUBMIT_SHAPES = [
    _shape(
        "EventListAsText",
        {
            "text": StrictCharField(min_length=1, max_length=MAX_LIST_CHARS),
            "player_id": _PLAYER_ID,
        },
    ),
    _shape(
        "EventListFromSavedList",
        {"list_id": StrictIntegerField(min_value=1), "player_id": _PLAYER_ID},
    ),
]


class ReviewSerializer(serializers.Serializer):
    note = StrictCharField(required=False, allow_blank=True, max_length=2000)
    approved = StrictBooleanField(required=False)


class JoinSerializer(serializers.Serializer):
    token = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The join link's token (unlisted events).",
    )
    team = StrictCharField(required=False, allow_blank=True, max_length=80)


class PlayerWriteSerializer(serializers.Serializer):
    name = StrictCharField(min_length=1, max_length=120)
    username = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=150,
        help_text="The player's account, when they have one.",
    )
    team = StrictCharField(required=False, allow_blank=True, max_length=80)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    has_list = serializers.BooleanField()


# --- intake ------------------------------------------------------------------------------------


class IntakeItemSerializer(serializers.Serializer):
    player = StrictCharField(required=False, allow_blank=True, max_length=120)
    text = StrictCharField(trim_whitespace=False, allow_blank=True, max_length=MAX_LIST_CHARS)
    team = StrictCharField(required=False, allow_blank=True, max_length=80)


# The intake's JSON shapes (schema only; IntakeRequestSerializer validates): exactly one of.
INTAKE_SHAPES = [
    _shape("IntakeText", {"text": StrictCharField(min_length=1, trim_whitespace=False)}),
    _shape("IntakeCsv", {"csv": StrictCharField(min_length=1, trim_whitespace=False)}),
    _shape(
        "IntakeLists",
        {
            "lists": serializers.ListField(
                child=IntakeItemSerializer(),
                min_length=1,
                max_length=settings.CITADEL_MAX_INTAKE_LISTS,
            )
        },
    ),
]
IntakeFile = _shape("IntakeFile", {"file": serializers.FileField()})


class TextOrFileField(serializers.FileField):
    """An uploaded file, or its content sent as a plain multipart value."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            return data
        return super().to_internal_value(data)


class IntakeRequestSerializer(serializers.Serializer):
    """Exactly one of: `text` (lists separated by a line of --- or by a heading naming the
    player), `csv` (a header row with player and list columns), `lists` (one object per
    list); or, as multipart, a `file` (text, CSV or JSON)."""

    text = StrictCharField(required=False, min_length=1, trim_whitespace=False)
    csv = StrictCharField(required=False, min_length=1, trim_whitespace=False)
    lists = serializers.ListField(
        child=IntakeItemSerializer(),
        required=False,
        min_length=1,
        max_length=settings.CITADEL_MAX_INTAKE_LISTS,
    )
    file = TextOrFileField(required=False)

    def validate(self, attrs: dict) -> dict:
        given = [key for key in ("text", "csv", "lists", "file") if key in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                {"text": gettext_lazy("Give exactly one of text, csv, lists or file.")}
            )
        upload = attrs.get("file")
        if isinstance(upload, str):
            attrs["text"], upload = attrs.pop("file"), None
        if upload is not None and upload.size > settings.CITADEL_MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(
                {
                    "file": gettext_lazy("The file is larger than %(size)d MB.")
                    % {"size": settings.CITADEL_MAX_UPLOAD_BYTES // (1024 * 1024)}
                }
            )
        for key in ("text", "csv"):
            if key in attrs and len(attrs[key]) > settings.CITADEL_MAX_UPLOAD_BYTES:
                raise serializers.ValidationError({key: gettext_lazy("This is too long.")})
        return attrs


@extend_schema_serializer(component_name="EventSummarySchema")
class SummarySerializer(serializers.Serializer):
    lists = serializers.IntegerField()
    legal = serializers.IntegerField()
    illegal = serializers.IntegerField()
    unreadable = serializers.IntegerField()
    approved = serializers.IntegerField()


class ReportSerializer(serializers.Serializer):
    """Documents `report_json` (and the intake's answer)."""

    event = serializers.DictField()
    lists = EventListSerializer(many=True)
    summary = SummarySerializer()


def summary_json(summary: Summary) -> dict[str, int]:
    return {
        "lists": summary.lists,
        "legal": summary.legal,
        "illegal": summary.illegal,
        "unreadable": summary.unreadable,
        "approved": summary.approved,
    }


def report_json(report: EventReport, *, organiser: bool, request: Any) -> dict[str, Any]:
    return {
        "event": {
            "id": report.event.pk,
            "name": report.event.name,
            "date": report.event.date.isoformat(),
            "game": report.event.game,
            "size": report.event.size_label,
            "url": request.build_absolute_uri(reverse("events:detail", args=[report.event.pk])),
        },
        "generated_at": report.generated_at.isoformat(),
        "lists": [
            list_json(
                row.event_list, lang=report.lang, organiser=organiser, where=row.where or None
            )
            for row in report.rows
        ],
        "summary": summary_json(report.summary),
    }


def _finding_text(finding: dict) -> str:
    text = f"{finding['code']}: {finding['message']}"
    return f"{text} — {finding['fix']}" if finding.get("fix") else text


def _line_problems(row: ReportRow) -> list[str]:
    return [
        f"{_('line')} {reading.number}: {reading.text.strip()} ({reading.label})"
        for reading in row.reading.rows
        if reading.unread
    ]


def report_csv(report: EventReport, *, organiser: bool) -> str:
    """One row per list: what an organiser sorts and filters in a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    header = [
        _("player"),
        _("team"),
        _("verdict"),
        _("points or coins"),
        _("fingerprint"),
        _("approved"),
        _("errors"),
        _("warnings"),
        _("lines not read"),
        _("source"),
        _("submitted"),
    ]
    if organiser:
        header.append(_("note"))
    writer.writerow(header)
    for row in report.rows:
        stored = row.event_list
        line = [
            row.player,
            row.team,
            stored.get_status_display(),
            stored.spent,
            stored.fingerprint,
            _("yes") if stored.approved else _("no"),
            "\n".join(_finding_text(f) for f in row.errors),
            "\n".join(_finding_text(f) for f in row.warnings),
            "\n".join(_line_problems(row)),
            stored.get_source_display(),
            stored.submitted_at.isoformat(timespec="seconds"),
        ]
        if organiser:
            line.append(stored.note)
        writer.writerow(line)
    return out.getvalue()


# Operations whose body is one of several shapes (oneOf): the body itself is required.
_BODY_REQUIRED = (
    ("/api/v1/events/{event_id}/lists/", "post"),
    ("/api/v1/events/{event_id}/intake/", "post"),
)


def require_event_bodies(result, generator, request, public):
    """drf-spectacular post-processing hook: a submission or an intake without a body is
    refused (400), so the schema says the body is required."""
    for path, method in _BODY_REQUIRED:
        body = result["paths"].get(path, {}).get(method, {}).get("requestBody")
        if body is not None:
            body["required"] = True
    return result
