"""The export request and answers (contracts §4). Types and required fields are checked here;
whether the list, section or book exists and may be read is the service's business."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armybuilder.checking import MAX_LIST_CHARS

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
    token = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="army-list: the share token, for a list shared by link that is not yours.",
    )
    text = serializers.CharField(
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
