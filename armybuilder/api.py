"""List checking over HTTP (contracts §4): thin views over armybuilder.checking."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.checking import (
    GAMES,
    MAX_LIST_CHARS,
    CheckError,
    CheckOptions,
    check_list_text,
    check_many,
)
from armybuilder.serializers import BatchResultSerializer, CheckResultSerializer
from common.i18n import CARD_LANGUAGES, current_language

MAX_BATCH = 2000


class CheckOptionsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), required=False, allow_null=True)
    ruleset = serializers.CharField(required=False, allow_blank=True, max_length=64)
    lang = serializers.ChoiceField(choices=list(CARD_LANGUAGES), required=False)

    def options(self) -> CheckOptions:
        data = self.validated_data
        lang = data.get("lang") or current_language()
        return CheckOptions(game=data.get("game"), ruleset=data.get("ruleset") or None, lang=lang)


class CheckRequestSerializer(CheckOptionsSerializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class BatchItemSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=200)
    team = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Lists with the same team name are allies (team games: each character once).",
    )
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class CheckBatchRequestSerializer(CheckOptionsSerializer):
    lists = BatchItemSerializer(many=True, max_length=MAX_BATCH, allow_empty=False)


def _usage_error(exc: CheckError) -> Response:
    return Response({"detail": str(exc), "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)


class CheckListView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=CheckRequestSerializer,
        responses={200: CheckResultSerializer, 400: OpenApiTypes.OBJECT},
        summary="Check one army list or warband given as text",
    )
    def post(self, request):
        serializer = CheckRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result = check_list_text(serializer.validated_data["text"], serializer.options())
        except CheckError as exc:
            return _usage_error(exc)
        return Response(CheckResultSerializer(result).data)


class CheckBatchView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=CheckBatchRequestSerializer,
        responses={200: BatchResultSerializer, 400: OpenApiTypes.OBJECT},
        summary="Check many lists at once (tournament registration)",
    )
    def post(self, request):
        serializer = CheckBatchRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        items = serializer.validated_data["lists"]
        lists = [(item["id"], item["text"]) for item in items]
        teams = [item.get("team") or None for item in items]
        try:
            batch = check_many(lists, serializer.options(), teams=teams)
        except CheckError as exc:
            return _usage_error(exc)
        return Response(BatchResultSerializer(batch).data)
