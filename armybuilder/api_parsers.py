"""DRF parsers (settings.REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]). Imports nothing of DRF's
views: DRF's settings import this module while rest_framework.views is loading."""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser


class JSONParser(DRFJSONParser):
    """DRF's JSON parser, with a body nested deeper than Python's recursion limit (e.g.
    100,000 brackets) refused as a parse error instead of crashing the request."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error: the body is nested too deeply.")) from exc
