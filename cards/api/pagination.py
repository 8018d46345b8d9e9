from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import APIException
from rest_framework.pagination import PageNumberPagination


class InvalidPageSize(APIException):
    status_code = 400
    default_code = "invalid_page_size"
    default_detail = _("page_size must be a whole number of at least 1 (at most 200 are given).")


class CappedPageNumberPagination(PageNumberPagination):
    """Page size is the client's choice (`page_size`), capped so no request can ask for all;
    a page_size that is not a whole number of at least 1 is a 400, a page past the last a
    404 (both in the schema)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if size < 1:
            raise InvalidPageSize()
        return min(size, self.max_page_size)

    def get_schema_operation_parameters(self, view) -> list[dict]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = "Results per page (default 50, at most 200 given)."
        return parameters
