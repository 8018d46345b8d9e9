"""What every document shares: the error and result types, progress reports, the print
stylesheet and fonts, and turning a template into PDF bytes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from .fonts import body_font_css, font_face_css

ProgressCallback = Callable[[int], None]

STYLESHEET_DIR = Path(settings.BASE_DIR) / "static" / "css"
# print.css for every document, then the document language's own additions.
LANGUAGE_STYLESHEETS = {"fa": "print-fa.css"}
RTL_LANGUAGES = frozenset({"fa"})


class DocumentError(Exception):
    """The parameters cannot give a document (unknown list, section or book, bad kind).
    Permanent: a job that meets it fails at once with this message instead of retrying."""


@dataclass(frozen=True, slots=True)
class RenderedDocument:
    filename: str
    content: bytes
    pages: int


class Progress:
    """Reports 0..100 to the caller's callback, never going backwards and never twice the
    same number (each report may be a database write)."""

    def __init__(self, callback: ProgressCallback | None):
        self._callback = callback
        self._last = -1

    def __call__(self, percent: float) -> None:
        percent = max(0, min(100, int(percent)))
        if self._callback is not None and percent > self._last:
            self._last = percent
            self._callback(percent)


def text_direction(language: str) -> str:
    return "rtl" if language in RTL_LANGUAGES else "ltr"


def render_html(template: str, context: dict, *, language: str) -> str:
    """The template rendered with the document's language active, so {% translate %} and
    the card filters (`loc`, `full_name`) speak it."""
    with translation.override(language):
        return render_to_string(template, context)


@cache
def _stylesheet_text(name: str) -> str:
    return (STYLESHEET_DIR / name).read_text(encoding="utf-8")


def print_css(language: str) -> str:
    names = ["print.css"]
    if language in LANGUAGE_STYLESHEETS:
        names.append(LANGUAGE_STYLESHEETS[language])
    return "\n".join(_stylesheet_text(name) for name in names)


def write_pdf(html: str, *, language: str, progress: Progress, start: int, end: int):
    """Lay out and write the PDF; progress goes from `start` to `end`, most of it for the
    layout. Returns (bytes, page count)."""
    # Imported here: WeasyPrint loads Pango when imported, which only workers need.
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    stylesheets = [
        CSS(string=font_face_css(), font_config=fonts),
        CSS(string=print_css(language), font_config=fonts),
        CSS(string=body_font_css(language), font_config=fonts),
    ]
    document = HTML(string=html, base_url=str(settings.BASE_DIR)).render(
        stylesheets=stylesheets, font_config=fonts
    )
    progress(start + (end - start) * 0.8)
    content = document.write_pdf()
    progress(end)
    return content, len(document.pages)
