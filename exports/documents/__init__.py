"""PDF documents: army lists, warbands, rules sections and whole rulebooks.

The one entry point the export jobs call is `render_pdf`. It reads the database but never
writes to it, so a job can be re-run safely. One module per kind of document
(`army_list`, `rules`); `base` holds what they share (fonts, print stylesheet, writing).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from . import army_list, event_lists, rules
from .base import DocumentError, Progress, ProgressCallback, RenderedDocument

__all__ = ["LANGUAGES", "DocumentError", "ProgressCallback", "RenderedDocument", "render_pdf"]

LANGUAGES = ("en", "fr", "fa")

_RENDERERS = {
    "army-list": army_list.render_army_list,
    "rules-section": rules.render_rules_section,
    "rulebook": rules.render_rulebook,
    "event-lists": event_lists.render_event_lists,
}


def render_pdf(
    *,
    kind: str,
    params: dict,
    language: str,
    on_progress: ProgressCallback | None = None,
) -> RenderedDocument:
    """Render one document. `on_progress(percent)` is called with 0..100 as work advances.

    params by kind: army-list {"list_id": int} or {"text": str, "game": "tmg"|"tactics"};
    rules-section {"section_id": int}; rulebook {"rulebook_id": int}; event-lists
    {"event_id": int} (every list of the event) or {"event_list_id": int} (one).
    `language` is the language of the document's own words (headings, labels, card names);
    a rules section or book is printed in its own language, with the labels in `language`.
    """
    renderer = _RENDERERS.get(kind)
    if renderer is None:
        raise DocumentError(_("Unknown export kind: %(kind)s") % {"kind": kind})
    if language not in LANGUAGES:
        raise DocumentError(
            _("Documents are written in English, French or Persian, not %(language)s.")
            % {"language": language}
        )
    if not isinstance(params, dict):
        raise DocumentError(_("The export parameters are missing."))
    progress = Progress(on_progress)
    progress(0)
    return renderer(params=params, language=language, progress=progress)
