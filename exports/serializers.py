"""The export request and answers (contracts §4). Types and required fields are checked here;
whether the list, section or book exists and may be read is the service's business."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.serializers import StrictCharField

from .documents import LANGUAGES
from .documents.army_list import LIST_LANGUAGES
from .models import ExportKind, ExportStatus

# Which field each kind needs; army-list takes list_id or text.
KIND_FIELDS = {
    ExportKind.ARMY_LIST: ("list_id", "text"),
    ExportKind.RULES_SECTION: ("section_id",),
    ExportKind.RULEBOOK: ("rulebook_id",),
    ExportKind.EVENT_LISTS: ("event_id", "event_list_id"),
}


class ExportRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ExportKind.choices)
    list_id = serializers.IntegerField(
        required=False, min_value=1, help_text="army-list: a saved list you may read."
    )
    token = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="army-list: the share token, for a list shared by link that is not yours.",
    )
    text = StrictCharField(
        required=False,
        trim_whitespace=False,
        max_length=MAX_LIST_CHARS,
        help_text="army-list: a list pasted as text (instead of list_id).",
    )
    game = serializers.ChoiceField(
        choices=[("tmg", "tmg"), ("tactics", "tactics")],
        required=False,
        help_text="army-list with text: the game (detected from the text when left out).",
    )
    section_id = serializers.IntegerField(
        required=False, min_value=1, help_text="rules-section: the section."
    )
    rulebook_id = serializers.IntegerField(
        required=False, min_value=1, help_text="rulebook: the book."
    )
    event_id = serializers.IntegerField(
        required=False, min_value=1, help_text="event-lists: every list of an event you organise."
    )
    event_list_id = serializers.IntegerField(
        required=False, min_value=1, help_text="event-lists: one list of an event you may read."
    )
    language = serializers.ChoiceField(
        choices=[(code, code) for code in LANGUAGES],
        required=False,
        help_text="The document's language (default: the request's language, en or fr).",
    )

    def validate(self, attrs: dict) -> dict:
        kind = attrs["kind"]
        needed = KIND_FIELDS[ExportKind(kind)]
        given = [name for name in needed if attrs.get(name) not in (None, "")]
        if kind == ExportKind.ARMY_LIST and len(given) == 2:
            raise serializers.ValidationError(
                {"list_id": _("Give either list_id or text for an army-list export, not both.")}
            )
        if kind == ExportKind.EVENT_LISTS and len(given) == 2:
            raise serializers.ValidationError(
                {"event_id": _("Give either event_id or event_list_id, not both.")}
            )
        if not given:
            if kind == ExportKind.ARMY_LIST:
                message = _("An army-list export needs list_id (a saved list) or text.")
            else:
                message = _("A %(kind)s export needs %(field)s.") % {
                    "kind": kind,
                    "field": needed[0],
                }
            raise serializers.ValidationError({needed[0]: message})
        # Refused here rather than by a failed job: the reader learns it before waiting.
        lists = (ExportKind.ARMY_LIST, ExportKind.EVENT_LISTS)
        if kind in lists and attrs.get("language") not in (None, *LIST_LANGUAGES):
            raise serializers.ValidationError(
                {"language": _("Army lists and warbands are printed in English or French.")}
            )
        return attrs


# The fields each request shape may carry (the API refuses others, so that its oneOf schema
# and the server agree): an army list by id or as text, a rules section, a rulebook, every
# list sheet of an event or one.
SHAPES = {
    "army-list-by-id": ("kind", "list_id", "token", "language"),
    "army-list-as-text": ("kind", "text", "game", "language"),
    ExportKind.RULES_SECTION: ("kind", "section_id", "language"),
    ExportKind.RULEBOOK: ("kind", "rulebook_id", "language"),
    "event-lists-of-event": ("kind", "event_id", "language"),
    "event-lists-one-list": ("kind", "event_list_id", "language"),
}


def unexpected_field(data: dict) -> str | None:
    """The first field this request's shape does not take (see SHAPES), if any."""
    kind = data.get("kind")
    if not isinstance(kind, str):
        return None  # the serializer reports the kind
    if kind == ExportKind.ARMY_LIST:
        if "list_id" in data and "text" in data:
            return None  # the serializer says: one or the other
        shape = "army-list-by-id" if "list_id" in data else "army-list-as-text"
    elif kind == ExportKind.EVENT_LISTS:
        if "event_id" in data and "event_list_id" in data:
            return None  # the serializer says: one or the other
        shape = "event-lists-one-list" if "event_list_id" in data else "event-lists-of-event"
    elif kind in SHAPES:
        shape = kind
    else:
        return None  # the serializer reports the kind
    return next((name for name in data if name not in SHAPES[shape]), None)


def _shape(name: str, kind: str, fields: dict) -> type[serializers.Serializer]:
    """One request shape, for the schema only (ExportRequestSerializer validates)."""
    body = {"kind": serializers.ChoiceField(choices=[(kind, kind)]), **fields}
    return type(name, (serializers.Serializer,), body)


_LIST_LANGUAGE = serializers.ChoiceField(choices=[(c, c) for c in LIST_LANGUAGES], required=False)
_ANY_LANGUAGE = serializers.ChoiceField(choices=[(c, c) for c in LANGUAGES], required=False)
# The schema closes these shapes (additionalProperties: false, see close_request_shapes).
REQUEST_SHAPES = [
    _shape(
        "ArmyListByIdExport",
        ExportKind.ARMY_LIST,
        {
            "list_id": serializers.IntegerField(min_value=1),
            "token": serializers.CharField(required=False, allow_blank=True, max_length=64),
            "language": _LIST_LANGUAGE,
        },
    ),
    _shape(
        "ArmyListTextExport",
        ExportKind.ARMY_LIST,
        {
            "text": serializers.CharField(min_length=1, max_length=MAX_LIST_CHARS),
            "game": serializers.ChoiceField(
                choices=[("tmg", "tmg"), ("tactics", "tactics")], required=False
            ),
            "language": _LIST_LANGUAGE,
        },
    ),
    _shape(
        "RulesSectionExport",
        ExportKind.RULES_SECTION,
        {"section_id": serializers.IntegerField(min_value=1), "language": _ANY_LANGUAGE},
    ),
    _shape(
        "RulebookExport",
        ExportKind.RULEBOOK,
        {"rulebook_id": serializers.IntegerField(min_value=1), "language": _ANY_LANGUAGE},
    ),
    _shape(
        "EventListsExport",
        ExportKind.EVENT_LISTS,
        {"event_id": serializers.IntegerField(min_value=1), "language": _LIST_LANGUAGE},
    ),
    _shape(
        "EventListExport",
        ExportKind.EVENT_LISTS,
        {"event_list_id": serializers.IntegerField(min_value=1), "language": _LIST_LANGUAGE},
    ),
]


class ExportCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=ExportStatus.choices)
    url = serializers.URLField(help_text="Where to follow the job: GET it for its status.")
    page = serializers.URLField(help_text="The job's page for people (progress, download link).")


class ExportStatusSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=ExportKind.choices)
    status = serializers.ChoiceField(choices=ExportStatus.choices)
    progress = serializers.IntegerField(min_value=0, max_value=100)
    error = serializers.CharField(allow_null=True, help_text="Why the job failed, when it did.")
    download = serializers.URLField(allow_null=True, help_text="The PDF, once status is done.")
    pages = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(help_text="The file and the job are deleted after.")


class ExportErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    field = serializers.CharField(required=False, help_text="The request field at fault.")


def close_request_shapes(result, generator, request, public):
    """drf-spectacular post-processing hook: an export request takes only its shape's
    fields (the API answers 400 to any other), so the schema says so."""
    schemas = result.get("components", {}).get("schemas", {})
    body = result["paths"].get("/api/v1/exports/", {}).get("post", {}).get("requestBody")
    if body is not None:
        body["required"] = True
    for shape in REQUEST_SHAPES:
        if shape.__name__ in schemas:
            schemas[shape.__name__]["additionalProperties"] = False
    return result
