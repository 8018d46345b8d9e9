from rest_framework.pagination import PageNumberPagination


class CappedPageNumberPagination(PageNumberPagination):
    """Page size is the client's choice (`page_size`), capped so no request can ask for all."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
