"""API error handling: every error is JSON with a readable message and a code."""

from django.http import Http404
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        default = "not_found" if isinstance(exc, Http404) else "error"
        response.data.setdefault("code", getattr(exc, "default_code", default))
    return response
