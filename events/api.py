"""Tournament events over HTTP: thin views over events.services and events.selectors.

Session, token (`Authorization: Token …`, from POST /api/v1/auth/token/) and basic
authentication. Reading follows the event's visibility (events.selectors); every write is
refused by the service with a message (EN/FR) when the caller may not make it: 401 for no
credentials, 403 for a signed-in user who is not an organiser, 404 for an event or list the
caller may not see, 409 once the lists are locked.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api_parsers import JSONParser
from armybuilder.lists.models import ArmyList
from armybuilder.serializers import ErrorSerializer
from cards.api.pagination import CappedPageNumberPagination
from common.api_errors import invalid_request, validated
from common.i18n import current_language

from . import errata, intake, selectors, services
from .models import Event, EventList, Player
from .serializers import (
    INTAKE_SHAPES,
    SUBMIT_SHAPES,
    EventListSerializer,
    EventSerializer,
    EventWriteSerializer,
    IntakeFile,
    IntakeRequestSerializer,
    JoinSerializer,
    PlayerSerializer,
    PlayerWriteSerializer,
    ReportSerializer,
    ReviewSerializer,
    SubmitListSerializer,
    event_json,
    list_json,
    report_csv,
    report_json,
)

ERROR = ErrorSerializer  # {"detail", "code", "field"?}
NO_PAGE = OpenApiResponse(ERROR, description="No such page (past the last).")


class EventAPIView(APIView):
    # The site's authentication classes (settings.REST_FRAMEWORK): basic, token, session.
    # Bodies are JSON (the intake also takes a file, as multipart).
    parser_classes = [JSONParser]
    permission_classes = [AllowAny]  # who may do what is the service's and selectors' call

    def handle_exception(self, exc: Exception) -> Response:
        """A write the service refused answers with its message (and the field at fault);
        refused for want of credentials, 401."""
        if isinstance(exc, services.EventRefused):
            if exc.status == 403 and not self.request.user.is_authenticated:
                exc = NotAuthenticated(exc.message)
            else:
                body = {"detail": exc.message, "code": "refused"}
                if exc.field:
                    body["field"] = exc.field
                return Response(body, status=exc.status)
        return super().handle_exception(exc)

    def event(self, event_id: int) -> Event:
        token = self.request.query_params.get("token")
        found = selectors.event_for_viewer(event_id=event_id, user=self.request.user, token=token)
        if found is None:
            raise NotFound(_("No event you may see has this number."))
        return found

    def organiser(self, event: Event) -> bool:
        return selectors.is_organiser(event, self.request.user)

    def require_organiser(self, event: Event) -> None:
        if not self.organiser(event):
            raise services.EventRefused(_("Only the event's organisers may do this."), status=403)


def _event_response(view: EventAPIView, event: Event, code: int = 200) -> Response:
    data = event_json(event, request=view.request, organiser=view.organiser(event))
    return Response(data, status=code)


class EventsView(EventAPIView):
    pagination_class = CappedPageNumberPagination

    @extend_schema(
        operation_id="events_list",
        summary="Events you may see: public ones, and those you organise or play in",
        responses={200: EventSerializer(many=True), 400: ERROR, 404: NO_PAGE},
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.events_for(request.user), request, view=self)
        items = [
            event_json(event, request=request, organiser=self.organiser(event))
            for event in page or []
        ]
        return paginator.get_paginated_response(items)

    @extend_schema(
        operation_id="events_create",
        summary="Create an event (you become its organiser)",
        request=EventWriteSerializer,
        responses={201: EventSerializer, 400: ERROR, 401: ERROR},
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Sign in to create an event."))
        validated(EventWriteSerializer(data=request.data))
        event = services.create_event(creator=request.user, data=request.data)
        return _event_response(self, event, status.HTTP_201_CREATED)


class EventDetailView(EventAPIView):
    @extend_schema(
        operation_id="events_retrieve",
        summary="One event",
        responses={200: EventSerializer, 404: ERROR},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return _event_response(self, self.event(event_id))

    @extend_schema(
        operation_id="events_partial_update",
        summary="Change an event's settings (organisers)",
        request=EventWriteSerializer(partial=True),
        responses={200: EventSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        validated(EventWriteSerializer(data=request.data, partial=True))
        event = services.update_event(event=event, actor=request.user, data=request.data)
        return _event_response(self, event)


class EventJoinView(EventAPIView):
    @extend_schema(
        operation_id="events_join",
        summary="Join an event as a player (an unlisted event needs its join token)",
        request=JoinSerializer,
        responses={200: PlayerSerializer, 400: ERROR, 401: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, event_id: int) -> Response:
        data = validated(JoinSerializer(data=request.data))
        token = data.get("token")
        event = selectors.event_for_viewer(event_id=event_id, user=request.user, token=token)
        if event is None:
            raise NotFound(_("No event you may see has this number."))
        player = services.join_event(event=event, user=request.user, team=data.get("team", ""))
        return Response(_player_json(player))


def _player_json(player: Player) -> dict:
    return {
        "id": player.pk,
        "name": player.name,
        "team": player.team.name if player.team_id else "",
        "username": player.user.get_username() if player.user_id else None,
        "has_list": hasattr(player, "event_list"),
    }


class EventPlayersView(EventAPIView):
    @extend_schema(
        operation_id="events_players_list",
        summary="The event's players (organisers)",
        responses={200: PlayerSerializer(many=True), 403: ERROR, 404: ERROR},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        self.require_organiser(event)
        players = event.players.select_related("team", "user", "event_list")
        return Response([_player_json(p) for p in players])

    @extend_schema(
        operation_id="events_players_create",
        summary="Add a player by name (and account) (organisers)",
        request=PlayerWriteSerializer,
        responses={201: PlayerSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        data = validated(PlayerWriteSerializer(data=request.data))
        user = None
        if data.get("username"):
            user = get_user_model().objects.filter(username=data["username"]).first()
            if user is None:
                return invalid_request({"username": [_("No account has this name.")]})
        player = services.add_player(
            event=event,
            actor=request.user,
            name=data["name"],
            user=user,
            team=data.get("team", ""),
        )
        return Response(_player_json(player), status=status.HTTP_201_CREATED)


class EventListsView(EventAPIView):
    pagination_class = CappedPageNumberPagination

    @extend_schema(
        operation_id="events_lists_list",
        summary="The lists you may read: all for organisers or once published, else your own",
        parameters=[
            OpenApiParameter(
                "status", str, enum=list(selectors.FILTERS), description="Organisers' filter."
            )
        ],
        responses={200: EventListSerializer(many=True), 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        lists = selectors.lists_for_viewer(event, request.user)
        shown = request.query_params.get("status", "all")
        if shown not in selectors.FILTERS:
            return invalid_request({"status": [_("Unknown filter.")]})
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.filtered(lists, shown), request, view=self)
        organiser, lang = self.organiser(event), current_language()
        return paginator.get_paginated_response(
            [list_json(stored, lang=lang, organiser=organiser) for stored in page or []]
        )

    @extend_schema(
        operation_id="events_lists_submit",
        summary="Submit (or resubmit) your list: text, a share code or a saved list",
        request=PolymorphicProxySerializer(
            component_name="EventListSubmission",
            serializers=SUBMIT_SHAPES,
            resource_type_field_name=None,
        ),
        responses={
            201: EventListSerializer,
            200: EventListSerializer,
            400: ERROR,
            401: ERROR,
            403: ERROR,
            404: ERROR,
            409: OpenApiResponse(ERROR, description="The lists are locked."),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        data = validated(SubmitListSerializer(data=request.data))
        player = self._player(event, data.get("player_id"))
        saved = None
        if "list_id" in data:
            saved = ArmyList.objects.filter(pk=data["list_id"], owner=request.user.pk).first()
            if saved is None:
                raise services.EventRefused(
                    _("No saved list of yours has this number."), field="list_id", status=404
                )
        first = not hasattr(player, "event_list")
        stored = services.submit_list(
            event=event,
            player=player,
            actor=request.user,
            text=data.get("text"),
            saved_list=saved,
        )
        body = list_json(stored, lang=current_language(), organiser=self.organiser(event))
        return Response(body, status=status.HTTP_201_CREATED if first else status.HTTP_200_OK)

    def _player(self, event: Event, player_id: int | None) -> Player:
        if player_id is not None:
            player = event.players.filter(pk=player_id).first()
            if player is None:
                raise services.EventRefused(
                    _("This player does not play in this event."), status=404
                )
            return player
        player = selectors.player_of(event, self.request.user)
        if player is None:
            if not self.request.user.is_authenticated:
                raise services.EventRefused(_("Sign in to submit a list."), status=403)
            raise services.EventRefused(
                _("Join the event before submitting a list."), field="player_id", status=403
            )
        return player


class EventListDetailView(EventAPIView):
    def stored(self, event: Event, list_id: int) -> EventList:
        found = selectors.lists_for_viewer(event, self.request.user).filter(pk=list_id).first()
        if found is None:
            raise NotFound(_("No list you may see has this number."))
        return found

    @extend_schema(
        operation_id="events_lists_retrieve",
        summary="One list as it was judged",
        responses={200: EventListSerializer, 404: ERROR},
    )
    def get(self, request: Request, event_id: int, list_id: int) -> Response:
        event = self.event(event_id)
        stored = self.stored(event, list_id)
        return Response(list_json(stored, lang=current_language(), organiser=self.organiser(event)))

    @extend_schema(
        operation_id="events_lists_review",
        summary="Approve a list or leave a note (organisers)",
        request=ReviewSerializer,
        responses={200: EventListSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, event_id: int, list_id: int) -> Response:
        event = self.event(event_id)
        stored = self.stored(event, list_id)
        data = validated(ReviewSerializer(data=request.data))
        stored = services.review_list(
            event_list=stored,
            actor=request.user,
            approved=data.get("approved"),
            note=data.get("note"),
        )
        return Response(list_json(stored, lang=current_language(), organiser=True))

    @extend_schema(
        operation_id="events_lists_withdraw",
        summary="Withdraw a list before the deadline (its player, or organisers)",
        responses={204: None, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def delete(self, request: Request, event_id: int, list_id: int) -> Response:
        event = self.event(event_id)
        stored = self.stored(event, list_id)
        services.withdraw_list(event=event, player=stored.player, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventIntakeView(EventAPIView):
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        operation_id="events_intake",
        summary="Bulk intake: many lists at once, judged, with one report (organisers)",
        request={
            "application/json": PolymorphicProxySerializer(
                component_name="IntakeRequest",
                serializers=INTAKE_SHAPES,
                resource_type_field_name=None,
            ),
            "multipart/form-data": IntakeFile,
        },
        responses={
            200: ReportSerializer,
            400: ERROR,
            401: ERROR,
            403: ERROR,
            404: ERROR,
            409: ERROR,
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        data = validated(IntakeRequestSerializer(data=request.data))
        try:
            self.require_organiser(event)
            if "lists" in data:
                pieces = intake.read_items([dict(item) for item in data["lists"]])
            else:
                upload = data.get("file")
                read = intake.read_intake(
                    upload.read() if upload is not None else data.get("text", data.get("csv", "")),
                    filename=upload.name if upload is not None else "",
                    format="csv" if "csv" in data else None,
                    is_list_line=services.list_line_test(event),
                )
                pieces = list(read.pieces)
            outcome = services.intake_lists(event=event, pieces=pieces, actor=request.user)
        except intake.IntakeError as exc:
            return invalid_request({"text": [exc.message.in_language(current_language())]})
        report = selectors.intake_report(
            event,
            outcome.lists,
            pieces=outcome.pieces,
            lang=current_language(),
            now=timezone.now(),
        )
        return Response(report_json(report, organiser=True, request=request))


class EventLockView(EventAPIView):
    @extend_schema(
        operation_id="events_lock",
        summary="Lock every list now, before the deadline (organisers)",
        request=None,
        responses={200: EventSerializer, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        event = services.lock_event(event=event, actor=request.user)
        return _event_response(self, event)


class EventPublishView(EventAPIView):
    @extend_schema(
        operation_id="events_publish",
        summary="Publish every list to whoever may see the event (locks them) (organisers)",
        request=None,
        responses={200: EventSerializer, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        event = services.publish_lists(event=event, actor=request.user)
        return _event_response(self, event)


class EventReportView(EventAPIView):
    @extend_schema(
        operation_id="events_report",
        summary="The organisers' report of every list: JSON (report.json) or CSV (report.csv)",
        responses={
            (200, "application/json"): ReportSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
            401: ERROR,
            403: ERROR,
            404: ERROR,
        },
    )
    def get(self, request: Request, event_id: int, fmt: str) -> Response | HttpResponse:
        event = self.event(event_id)
        self.require_organiser(event)
        lang = current_language()
        report = selectors.event_report(
            event, selectors.lists_for_viewer(event, request.user), lang=lang, now=timezone.now()
        )
        if fmt == "csv":
            response = HttpResponse(
                report_csv(report, organiser=True), content_type="text/csv; charset=utf-8"
            )
            response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-lists.csv"'
            return response
        return Response(report_json(report, organiser=True, request=request))


class EventErrataView(EventAPIView):
    @extend_schema(
        operation_id="events_errata",
        summary="What new card data changed in this event's lists (organisers)",
        responses={200: OpenApiTypes.OBJECT, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.event(event_id)
        self.require_organiser(event)
        lang = current_language()
        return Response(
            {
                "impacts": [
                    errata.impact_json(impact, lang=lang)
                    for impact in errata.impacts_of_event(event)
                ]
            }
        )
