"""API error handling: every error is JSON with a readable message and a code."""

from django.http import Http404
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def invalid_request(errors: dict) -> Response:
    """A 400 whose detail names the first field at fault (all of them are under errors)."""
    field, messages = next(iter(errors.items()))
    message = messages[0] if isinstance(messages, list) else str(messages)
    if isinstance(message, dict):  # a nested serializer's errors (a list of objects)
        message = str(next(iter(message.values()), ""))
    detail = message if field == "non_field_errors" else f"{field}: {message}"
    return Response(
        {"detail": detail, "code": "invalid", "field": field, "errors": errors},
        status=status.HTTP_400_BAD_REQUEST,
    )


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        default = "not_found" if isinstance(exc, Http404) else "error"
        response.data.setdefault("code", getattr(exc, "default_code", default))
    return response
