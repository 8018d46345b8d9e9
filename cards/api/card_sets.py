"""/api/v1/card-sets/: players' card sets over HTTP (thin views over cards.card_sets).

Reading follows the set's visibility (another user's private or hidden set is a 404, a
set shared by link needs `?token=`); writing is its owner's (404 for anyone else). Bad
input answers a JSON 400 naming the field, or the row of an import, and writes nothing.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from cards.card_sets import selectors, services
from cards.card_sets.document import export_set_document, import_set_document
from cards.card_sets.services import CardSetError
from cards.models import CardSet, Faction, Game, SetVisibility
from common.api_errors import validated

from .pagination import CappedPageNumberPagination

ERROR = inline_serializer(
    "CardSetError",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
        "field": serializers.CharField(required=False),
        "row": serializers.IntegerField(required=False, help_text="Import: the bad row (from 1)."),
    },
)
MINE = OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your own sets (signed in).")
TOKEN = OpenApiParameter(
    "token", OpenApiTypes.STR, description="The share token of a set shared by link."
)


class StrictText(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class CardSetSerializer(serializers.Serializer):
    slug = serializers.CharField(read_only=True)
    name = StrictText(max_length=120)
    game = serializers.CharField(read_only=True)
    factions = serializers.ListField(child=StrictText(max_length=40), required=False)
    description = StrictText(max_length=5000, required=False, allow_blank=True)
    licence_note = StrictText(max_length=1000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=SetVisibility.values, required=False)
    author = serializers.CharField(read_only=True, allow_null=True)
    example = serializers.BooleanField(read_only=True)
    hidden_by_admin = serializers.BooleanField(read_only=True)
    cards = serializers.IntegerField(read_only=True, help_text="How many cards it holds.")
    url = serializers.CharField(read_only=True)

    def validate_factions(self, slugs: list[str]) -> list[Faction]:
        found = list(Faction.objects.filter(game=Game.TACTICS, slug__in=slugs))
        missing = sorted(set(slugs) - {f.slug for f in found})
        if missing:
            raise serializers.ValidationError(
                _("Unknown Tactics faction: %(slugs)s") % {"slugs": ", ".join(missing)}
            )
        return found


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    scenarios = serializers.IntegerField()
    overrides = serializers.IntegerField()


class DocumentSerializer(serializers.Serializer):
    """A citadel-cards/1 document (docs/card-sets.md); rows are checked by the importer."""

    format = serializers.ChoiceField(choices=["citadel-cards/1"], required=False)
    game = serializers.ChoiceField(choices=["tactics"], required=False)
    cards = serializers.ListField(child=serializers.DictField(), max_length=2000)
    scenarios = serializers.ListField(child=serializers.DictField(), required=False, max_length=200)
    overrides = serializers.ListField(
        child=serializers.DictField(), required=False, max_length=2000
    )


DOCUMENT = DocumentSerializer


def set_json(card_set: CardSet, request: Request) -> dict[str, Any]:
    return {
        "slug": card_set.slug,
        "name": card_set.name,
        "game": card_set.game,
        "factions": sorted(f.slug for f in card_set.factions.all()),
        "description": card_set.description,
        "licence_note": card_set.licence_note,
        "visibility": card_set.visibility,
        "author": card_set.owner.get_username() if card_set.owner else None,
        "example": card_set.is_example,
        "hidden_by_admin": card_set.hidden_by_admin,
        "cards": card_set.cards.count(),
        "url": request.build_absolute_uri(f"/api/v1/card-sets/{card_set.slug}/"),
    }


def _error(exc: CardSetError) -> Response:
    body: dict[str, Any] = {"detail": exc.messages[0], "code": exc.code or "invalid"}
    if exc.rows:
        body["row"] = exc.rows[0].row
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


class CardSetAPIView(APIView):
    permission_classes = [AllowAny]  # who may do what is the selectors' call
    # JSON bodies only: the site's JSON parser (a body nested too deeply is a 400).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES[:1]

    def handle_exception(self, exc: Exception) -> Response:
        """A change the service refused (CardSetError) answers 400 with its message."""
        if isinstance(exc, CardSetError):
            return _error(exc)
        return super().handle_exception(exc)

    def viewable(self, slug: str) -> CardSet:
        token = self.request.query_params.get("token")
        card_set = selectors.viewable_set(slug, self.request.user, token=token)
        if card_set is None:
            raise NotFound(_("No card set you may see has this name."))
        return card_set

    def editable(self, slug: str) -> CardSet:
        if not self.request.user.is_authenticated:
            raise NotAuthenticated(_("Sign in to change your card sets."))
        card_set = selectors.editable_set(slug, self.request.user)
        if card_set is None:
            raise NotFound(_("No card set of yours has this name."))
        return card_set


class CardSetsView(CardSetAPIView):
    pagination_class = CappedPageNumberPagination

    @extend_schema(
        operation_id="card_sets_list",
        summary="Card sets you may list: yours and the published ones (?mine=true: yours)",
        parameters=[MINE],
        responses={200: CardSetSerializer(many=True), 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        mine = request.query_params.get("mine", "false")
        if mine not in ("true", "false"):
            body = {"detail": _("mine: true or false."), "code": "invalid", "field": "mine"}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        rows = (
            selectors.sets_of(request.user)
            if mine == "true"
            else selectors.listed_sets(request.user)
        )
        rows = rows.prefetch_related("factions").order_by("pk")
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([set_json(s, request) for s in page or []])

    @extend_schema(
        operation_id="card_sets_create",
        summary="Create a card set (yours)",
        request=CardSetSerializer,
        responses={201: CardSetSerializer, 400: ERROR, 401: ERROR},
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Sign in to create a card set."))
        data = validated(CardSetSerializer(data=request.data))
        card_set = services.create_card_set(owner=request.user, **data)
        return Response(set_json(card_set, request), status=status.HTTP_201_CREATED)


class CardSetDetailView(CardSetAPIView):
    @extend_schema(
        operation_id="card_sets_retrieve",
        parameters=[TOKEN],
        responses={200: CardSetSerializer, 404: ERROR},
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(set_json(self.viewable(slug), request))

    @extend_schema(
        operation_id="card_sets_partial_update",
        summary="Change your set (name, description, licence note, factions, visibility)",
        request=CardSetSerializer,
        responses={200: CardSetSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, slug: str) -> Response:
        card_set = self.editable(slug)
        data = validated(CardSetSerializer(data=request.data, partial=True))
        services.update_card_set(
            card_set=card_set,
            name=data.get("name", card_set.name),
            factions=data.get("factions", list(card_set.factions.all())),
            description=data.get("description", card_set.description),
            licence_note=data.get("licence_note", card_set.licence_note),
            visibility=data.get("visibility"),
        )
        return Response(set_json(card_set, request))

    @extend_schema(
        operation_id="card_sets_destroy",
        responses={204: None, 400: ERROR, 401: ERROR, 404: ERROR},
    )
    def delete(self, request: Request, slug: str) -> Response:
        card_set = self.editable(slug)
        services.delete_card_set(card_set=card_set)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CardSetDocumentView(CardSetAPIView):
    @extend_schema(
        operation_id="card_sets_export",
        summary="The set as a citadel-cards/1 document",
        parameters=[TOKEN],
        responses={200: DOCUMENT, 404: ERROR},
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(export_set_document(self.viewable(slug)))

    @extend_schema(
        operation_id="card_sets_import",
        summary="Add or update cards from a citadel-cards/1 document (all or nothing)",
        request=DOCUMENT,
        responses={200: ImportResultSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
    )
    def post(self, request: Request, slug: str) -> Response:
        card_set = self.editable(slug)
        if not isinstance(request.data, dict):
            body = {"detail": _("The body must be a JSON object."), "code": "invalid"}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        validated(DocumentSerializer(data=request.data))
        result = import_set_document(card_set=card_set, document=request.data)
        return Response(ImportResultSerializer(result).data)
