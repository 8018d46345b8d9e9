"""PDF export API (contracts §4): start a job, follow it, download its file. Thin views over
exports.services and exports.selectors; only the job's owner (or session) can see a job."""

from __future__ import annotations

from django.http import FileResponse, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api_errors import ServiceUnavailable
from armybuilder.api_parsers import JSONParser
from common.api_errors import invalid_request, validated

from . import services
from .models import ExportJob, ExportStatus
from .serializers import (
    REQUEST_SHAPES,
    ExportCreatedSerializer,
    ExportErrorSerializer,
    ExportRequestSerializer,
    ExportStatusSerializer,
    unexpected_field,
)
from .web import ExportRateThrottle, requested_job, start_requested_export


def job_status(job: ExportJob, request: HttpRequest) -> dict:
    download = None
    if job.status == ExportStatus.DONE:
        download = request.build_absolute_uri(reverse("api-exports-download", args=[job.pk]))
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "progress": job.progress,
        "error": job.error or None,
        "download": download,
        "pages": job.pages,
        "created_at": job.created_at,
        "finished_at": job.finished_at,
        "expires_at": job.expires_at,
    }


def viewer_job(request: HttpRequest, job_id) -> ExportJob:
    job = requested_job(request, job_id)
    if job is None:
        raise NotFound(_("No export of yours has this id."))
    return job


class ExportCreateView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ExportRateThrottle]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="exports_create",
        summary="Start a PDF export",
        description=(
            "Queues a PDF of an army list (list_id, or text and game), a rules section "
            "(section_id) or a whole rulebook (rulebook_id). Anonymous visitors follow their "
            "job through the session cookie set by this answer. Throttled per user "
            "(CITADEL_EXPORT_RATE)."
        ),
        request=PolymorphicProxySerializer(
            component_name="ExportRequest",
            serializers=REQUEST_SHAPES,
            resource_type_field_name=None,
        ),
        responses={
            202: ExportCreatedSerializer,
            400: ExportErrorSerializer,
            404: OpenApiResponse(
                ExportErrorSerializer, description="No list, section or book you may read."
            ),
            429: OpenApiResponse(ExportErrorSerializer, description="Too many exports."),
            503: OpenApiResponse(
                ExportErrorSerializer,
                description="The export queue cannot be reached; Retry-After says when to retry.",
            ),
        },
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            return invalid_request({"non_field_errors": [_("The body must be a JSON object.")]})
        extra = unexpected_field(request.data)
        if extra is not None:
            return invalid_request({extra: [_("This field does not belong to this export.")]})
        data = validated(ExportRequestSerializer(data=request.data))
        try:
            job = start_requested_export(request, data)
        except services.ExportTargetNotFound as exc:
            raise NotFound(str(exc)) from exc
        except services.ExportQueueUnavailable as exc:
            raise ServiceUnavailable(str(exc)) from exc
        except services.ExportRequestInvalid as exc:
            return invalid_request({exc.field: [exc.message]})
        return Response(
            {
                "id": job.pk,
                "status": ExportStatus.QUEUED,
                "url": request.build_absolute_uri(reverse("api-exports-detail", args=[job.pk])),
                "page": request.build_absolute_uri(reverse("exports:detail", args=[job.pk])),
            },
            status=status.HTTP_202_ACCEPTED,
        )


class ExportDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="exports_retrieve",
        summary="An export job's status",
        responses={200: ExportStatusSerializer, 404: ExportErrorSerializer},
    )
    def get(self, request, job_id):
        return Response(
            ExportStatusSerializer(job_status(viewer_job(request, job_id), request)).data
        )


class PDFRenderer(BaseRenderer):
    """Lets a client ask for application/pdf; the file itself is a FileResponse, so only
    the error answers are rendered, as JSON."""

    media_type = "application/pdf"
    format = "pdf"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return JSONRenderer().render(data)


class ExportDownloadView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        operation_id="exports_download",
        summary="Download an export's PDF",
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            404: ExportErrorSerializer,
            409: OpenApiResponse(ExportErrorSerializer, description="Not finished yet."),
            410: OpenApiResponse(ExportErrorSerializer, description="The file has expired."),
        },
    )
    def get(self, request, job_id):
        job = viewer_job(request, job_id)
        if job.status != ExportStatus.DONE:
            return Response(
                {
                    "detail": _("This export has no file: it is %(status)s.")
                    % {"status": job.get_status_display().lower()},
                    "code": "not_ready",
                },
                status=status.HTTP_409_CONFLICT,
            )
        if not job.file or not job.file.storage.exists(job.file.name):
            return Response(
                {
                    "detail": _("This export's file has expired. Start the export again."),
                    "code": "expired",
                },
                status=status.HTTP_410_GONE,
            )
        return FileResponse(
            job.file.open("rb"),
            as_attachment=True,
            filename=job.filename,
            content_type="application/pdf",
        )
