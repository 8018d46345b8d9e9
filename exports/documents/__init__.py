"""PDF documents: army lists, warbands, rules sections and whole rulebooks.

The one entry point the export jobs call is `render_pdf`. It reads the database but never
writes to it, so a job can be re-run safely.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

KINDS = ("army-list", "rules-section", "rulebook")
LANGUAGES = ("en", "fr", "fa")


class DocumentError(Exception):
    """The parameters cannot give a document (unknown list, section or book, bad kind).
    Permanent: a job that meets it fails at once with this message instead of retrying."""


@dataclass(frozen=True, slots=True)
class RenderedDocument:
    filename: str
    content: bytes
    pages: int


ProgressCallback = Callable[[int], None]


def render_pdf(
    *,
    kind: str,
    params: dict,
    language: str,
    on_progress: ProgressCallback | None = None,
) -> RenderedDocument:
    """Render one document. `on_progress(percent)` is called with 0..100 as work advances.

    params by kind: army-list {"list_id": int} or {"text": str, "game": "tmg"|"tactics"};
    rules-section {"section_id": int}; rulebook {"rulebook_id": int}.
    """
    if kind not in KINDS:
        raise DocumentError(_("Unknown export kind: %(kind)s") % {"kind": kind})
    # Placeholder until the real documents land: a one-page PDF naming the request.
    from weasyprint import HTML

    if on_progress:
        on_progress(50)
    document = HTML(string=f"<h1>{kind}</h1><p>{params!r} ({language})</p>").render()
    content = document.write_pdf()
    if on_progress:
        on_progress(100)
    return RenderedDocument(filename=f"{kind}.pdf", content=content, pages=len(document.pages))
