"""Errors, in one place: every API error is JSON with a readable message (EN/FR) and a code,
and no request, however malformed, answers 500.

- `exception_handler` (DRF): adds `code` to DRF's errors; a service that cannot be reached
  (`ServiceUnavailable`) answers 503 with Retry-After; a body its serializer refused
  (`common.api_errors.validated(serializer)` raises `InvalidRequest`) answers
  `invalid_request`'s 400.
- `armybuilder.api_parsers.JSONParser` (DRF): a body nested too deeply for Python's parser
  is a 400, not a RecursionError (a module of its own: DRF's settings import it while
  rest_framework.views, which this module imports, is still loading).
- `DatabaseUnavailableMiddleware`: the database gone for a moment (a restart, a failover)
  answers 503 with Retry-After, in JSON under /api/, instead of a 500.
- `bad_request`, `permission_denied`, `not_found`, `server_error` (Django's handler400/403/
  404/500, wired in armybuilder.urls): JSON under /api/, the site's HTML pages elsewhere; a
  body over CITADEL_MAX_BODY_BYTES answers 413.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError, connections
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.views import exception_handler as drf_exception_handler

from common.api_errors import InvalidRequest, invalid_request

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
DATABASE_GONE = (OperationalError, InterfaceError)


class ServiceUnavailable(APIException):
    """A service the request needs (the export queue) cannot be reached right now."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = gettext_lazy("This service is unavailable for a moment. Try again shortly.")


def exception_handler(exc, context):
    if isinstance(exc, InvalidRequest):
        return invalid_request(exc.errors)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        default = "not_found" if isinstance(exc, Http404) else "error"
        response.data.setdefault("code", getattr(exc, "default_code", default))
    if response is not None and isinstance(exc, ServiceUnavailable):
        response["Retry-After"] = str(settings.CITADEL_RETRY_AFTER)
    return response


# --- the database gone for a moment ------------------------------------------------------------


def unavailable_message() -> str:
    return _("The site is busy for a moment (its database is restarting). Try again shortly.")


class DatabaseUnavailableMiddleware:
    """A request that met a database that cannot be reached (OperationalError,
    InterfaceError: a restart, a failover, too many connections) answers 503 with
    Retry-After; Django drops the broken connection, so the next request reconnects."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, DATABASE_GONE):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        for connection in connections.all(initialized_only=True):
            connection.close_if_unusable_or_obsolete()
        if is_api(request):
            response = _json(unavailable_message(), "unavailable", 503)
        else:
            response = HttpResponse(
                f"<!doctype html><title>503</title><h1>503</h1><p>{unavailable_message()}</p>",
                status=503,
            )
        response["Retry-After"] = str(settings.CITADEL_RETRY_AFTER)
        return response


# --- Django's error handlers -------------------------------------------------------------------


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _json(detail: str, code: str, status_code: int) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status_code)


def _page(request: HttpRequest, title: str, status_code: int, message: str = "") -> HttpResponse:
    """The site's own error page (templates/error.html); a bare one if the template cannot
    render (a 500 page must not fail in turn)."""
    try:
        context = {"title": title, "message": message}
        body = loader.render_to_string("error.html", context, request)
    except Exception:
        body = f"<!doctype html><title>{status_code}</title><h1>{status_code}</h1>"
    return HttpResponse(body, status=status_code)


def too_large_message() -> str:
    return _("The request is too large: at most %(size)s bytes are accepted.") % {
        "size": f"{settings.CITADEL_MAX_BODY_BYTES:,}"
    }


def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        message, code, status_code = too_large_message(), "too_large", 413
    elif isinstance(exception, TooManyFieldsSent):
        message, code, status_code = _("The form has too many fields."), "too_many_fields", 400
    else:
        message, code, status_code = _("The request could not be understood."), "bad_request", 400
    if is_api(request):
        return _json(message, code, status_code)
    return _page(request, _("Bad request"), status_code, message)


def permission_denied(request: HttpRequest, exception=None) -> HttpResponse:
    message = _("You may not do this.")
    if is_api(request):
        return _json(message, "permission_denied", 403)
    return _page(request, _("Not allowed"), 403, message)


def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    if is_api(request):
        return _json(_("Nothing here: check the address (see /api/docs/)."), "not_found", 404)
    return _page(request, _("Page not found"), 404)


def server_error(request: HttpRequest) -> HttpResponse:
    message = _("Something went wrong on our side. It has been logged.")
    if is_api(request):
        return _json(message, "server_error", 500)
    return _page(request, _("Server error"), 500, message)
