"""From a rulebook's text to section drafts and an import report (pure: no database)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rules.cleaning.lines import Line, to_lines

from .clean import CleanedBook, clean_book
from .coverage import coverage, missing_lines, word_coverage
from .headings import HeadingMark, detect_headings
from .markdown import markdown_headings, title_line_index
from .outline import SectionMap, TableOfContents
from .profiles import MARKDOWN, profile_for
from .splitting import SectionDraft, build_sections

StepProgress = Callable[[str], None]
MAX_WARNINGS = 50


@dataclass
class ParsedBook:
    title: str
    sections: list[SectionDraft]
    raw_text: str
    page_count: int | None
    edition: str = ""
    report: dict = field(default_factory=dict)


def parse_rulebook(
    text: str,
    *,
    fmt: str,
    lang: str,
    game: str,
    title: str = "",
    progress: StepProgress | None = None,
) -> ParsedBook:
    """Clean, split and describe one rulebook. `fmt` is "text" or "markdown"."""
    profile = profile_for(game, lang, fmt)
    section_map = SectionMap.load(profile.outline_path, lang) if profile.outline_path else None
    known = tuple(section_map.words()) if section_map else ()
    cleaned = clean_book(text, profile, known_words=known, progress=progress)
    lines = cleaned.lines
    if progress:
        progress("headings")
    found_title = ""
    toc_pages = False
    if profile.heading_style == MARKDOWN:
        marks, found_title = markdown_headings(lines)
        if (index := title_line_index(lines)) is not None and found_title:
            lines = _blank(lines, index)
    else:
        toc, toc_lines = (None, set())
        if profile.read_toc:
            toc, toc_lines = TableOfContents.find([line.text for line in lines])
        marks = detect_headings(
            lines,
            profile,
            section_map=section_map,
            toc=toc,
            toc_lines=frozenset(toc_lines),
        )
        if toc is not None:
            lines, toc_pages = _pages_from_toc(lines, marks), True
    if progress:
        progress("sections")
    raw_lines = [line.text for line in to_lines(text)]
    drafts = build_sections(lines, marks, raw_lines, lang=lang)
    book_title = title or found_title or profile.title or _guess_title(game, lang)
    report = _report(
        cleaned,
        lines,
        marks,
        drafts,
        raw_lines,
        profile_name=profile.name,
        toc_pages=toc_pages,
        title=book_title,
    )
    pages = (
        cleaned.metadata.get("pages") if isinstance(cleaned.metadata.get("pages"), int) else None
    )
    return ParsedBook(
        title=book_title,
        sections=drafts,
        raw_text=text,
        page_count=pages or _page_count(lines),
        edition=section_map.edition if section_map else "",
        report=report,
    )


def _blank(lines: list[Line], index: int) -> list[Line]:
    out = list(lines)
    out[index] = replace(out[index], text="")
    return out


def _pages_from_toc(lines: list[Line], marks: list[HeadingMark]) -> list[Line]:
    """Printed pages of listed headings, carried forward to the lines that follow them."""
    page_at = {mark.index: mark.page for mark in marks if mark.page is not None}
    out, page = [], None
    for i, line in enumerate(lines):
        page = page_at.get(i, page)
        out.append(replace(line, page=page) if page is not None else line)
    return out


def _page_count(lines: list[Line]) -> int | None:
    numbers = {line.page for line in lines if line.page is not None}
    return max(numbers) if len(numbers) > 1 else None


def _guess_title(game: str, lang: str) -> str:
    from cards.models import Game

    return f"{Game(game).label} ({lang})" if game in Game.values else game


def _report(
    cleaned: CleanedBook,
    lines: list[Line],
    marks: list[HeadingMark],
    drafts: list[SectionDraft],
    raw_lines: list[str],
    *,
    profile_name: str,
    toc_pages: bool,
    title: str,
) -> dict:
    texts = [title, *(part for d in drafts for part in (d.heading, d.body))]
    share = coverage(raw_lines, lines, texts)
    words = word_coverage(raw_lines, lines, texts)
    warnings = list(cleaned.warnings)
    if not marks:
        warnings.append("no heading found: sections are pages (or runs of paragraphs)")
    missing = missing_lines(raw_lines, lines, texts) if share < 1 else []
    if missing:
        shown = ", ".join(f"L{no}" for no, _ in missing[:20])
        warnings.append(
            f"{len(missing)} raw line(s) changed beyond spacing and punctuation "
            f"(glued labels, stray letters removed…): {shown}"
        )
    pages = {line.page for line in lines if line.page is not None}
    return {
        "profile": profile_name,
        "lines": len(raw_lines),
        "pages": len(pages) if len(pages) > 1 else 0,
        "page_numbers": "table of contents" if toc_pages else ("running text" if pages else ""),
        "page_markers": cleaned.markers,
        "sections": len(drafts),
        "chapters": sum(1 for d in drafts if d.depth == 0),
        "by_kind": dict(Counter(d.kind for d in drafts)),
        "by_depth": {str(k): v for k, v in sorted(Counter(d.depth for d in drafts).items())},
        "headings_repaired": sum(1 for line in lines if line.spaced),
        "rule_keys": sum(1 for d in drafts if d.rule_key),
        "noise_lines": cleaned.noise,
        "source_metadata": cleaned.metadata,
        "coverage": round(words, 4),
        "lines_verbatim": round(share, 4),
        "warnings": warnings[:MAX_WARNINGS],
    }
