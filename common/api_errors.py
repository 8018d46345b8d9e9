"""A request body its serializer refused, answered alike by every app's API: a 400 whose
detail names the first field at fault (`invalid_request`), raised from a view or a service
as `InvalidRequest` (`validated(serializer)`), which armybuilder.api_errors' exception
handler answers. In the lowest layer, so that the card sets' API (cards) answers as the
lists', events' and exports' do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework import status
from rest_framework.response import Response

if TYPE_CHECKING:
    from rest_framework.serializers import Serializer


class InvalidRequest(Exception):
    """A request body its serializer refused; the exception handler answers it with
    `invalid_request(errors)`."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__(errors)
        self.errors = errors


def validated(serializer: Serializer) -> Any:
    """The serializer's validated data; InvalidRequest (a 400 naming the first field at
    fault) when the body does not pass."""
    if not serializer.is_valid():
        raise InvalidRequest(serializer.errors)
    return serializer.validated_data


def invalid_request(errors: dict[str, Any]) -> Response:
    """A 400 whose detail names the first field at fault (all of them are under errors)."""
    field, messages = next(iter(errors.items()))
    while True:
        if isinstance(messages, list) and messages and isinstance(messages[0], dict):
            # many=True: one dict per item, empty for the items without an error
            index = next((i for i, item in enumerate(messages) if item), 0)
            field, messages = f"{field}.{index}", messages[index]
        elif isinstance(messages, dict) and messages:  # a nested field: lists.0.id
            key, messages = next(iter(messages.items()))
            field = f"{field}.{key}"
        else:
            break
    message = messages[0] if isinstance(messages, list) and messages else str(messages)
    detail = message if field == "non_field_errors" else f"{field}: {message}"
    return Response(
        {"detail": detail, "code": "invalid", "field": field, "errors": errors},
        status=status.HTTP_400_BAD_REQUEST,
    )
