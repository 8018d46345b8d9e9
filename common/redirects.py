"""Where a form may send its user back to: the `next` it carries, if it names this site."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest) -> str:
    """The request's `next` (POST, else GET) when it stays on this host (and on HTTPS when
    the request came over HTTPS); "" for anything else, so that no form is an open redirect."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else ""
