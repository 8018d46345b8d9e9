"""Export pages: the Export PDF button's target, a job's page and its polled progress.

Thin: read the request, call a service or selector, render. With htmx the button swaps the
progress partial in place and the partial polls itself until the job is finished; without
JavaScript the form redirects to the job's page, which refreshes itself.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import services
from .models import ExportJob
from .serializers import ExportRequestSerializer
from .web import ExportRateThrottle, requested_job, start_requested_export


def _viewer_job(request: HttpRequest, job_id) -> ExportJob:
    job = requested_job(request, job_id)
    if job is None:
        raise Http404(_("No export of yours has this id."))
    return job


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "exports/_refused.html", {"message": message}, status=status)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    if not ExportRateThrottle().allow_request(request, None):
        return _refused(
            request, _("You have started many exports lately: please wait a little."), 429
        )
    form = ExportRequestSerializer(data=request.POST)
    if not form.is_valid():
        field, messages = next(iter(form.errors.items()))
        return _refused(request, f"{field}: {messages[0]}", 400)
    try:
        job = start_requested_export(request, form.validated_data)
    except services.ExportTargetNotFound as exc:
        raise Http404(str(exc)) from exc
    except services.ExportRequestInvalid as exc:
        return _refused(request, f"{exc.field}: {exc.message}", 400)
    except services.ExportQueueUnavailable as exc:
        refused = _refused(request, str(exc), 503)
        refused["Retry-After"] = str(settings.CITADEL_RETRY_AFTER)
        return refused
    if not request.htmx:
        return redirect("exports:detail", job.pk)
    # Re-read: without a broker (the demo) the job already ran while it was dispatched.
    job.refresh_from_db()
    return render(request, "exports/_job.html", {"job": job})


@require_GET
def detail(request: HttpRequest, job_id) -> HttpResponse:
    return render(request, "exports/detail.html", {"job": _viewer_job(request, job_id)})


@require_GET
def progress(request: HttpRequest, job_id) -> HttpResponse:
    return render(request, "exports/_job.html", {"job": _viewer_job(request, job_id)})
