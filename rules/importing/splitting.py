"""Cut the cleaned lines into a tree of sections: book → chapter → section → subsection.

Each heading opens a section that runs to the next heading; its outline level decides its
parent (the nearest open section of a lower level). Text before the first heading is the
front matter. No line is lost: the raw lines of a section are kept beside its clean body,
and the concatenated raws are the raw text. Where headings are missing, sections fall back
to pages: a book without any heading becomes one section per page, and a very long
section that spans pages is cut into page-sized children.

Novel quotes (`« … » - Stannis Baratheon`) are moved into `flavour` children, so rule
search can leave them out. Slugs are the slug of the heading, de-duplicated with `-2`,
`-3`…; they only change when the book's headings change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.text import slugify

from rules.cleaning.lines import Line
from rules.models import SectionKind

from .headings import CHAPTER, HeadingMark
from .kinds import classify

MAX_SLUG = 150
LONG_SECTION = 8000  # characters: longer sections spanning pages are cut per page
CHUNK_PARAGRAPHS = 30  # without headings or pages: paragraphs per section
_LIST_START = re.compile(
    r"^(?:[-–—•♦◆✓✗*]\s|\d{1,2}[.)]\s|[a-z]\)\s|[۰-۹]{1,2}[.)]\s|[IVX]+\.\s|\|)"
)
_QUOTE = re.compile(
    r"^[«\"“](?P<quote>.+?)[»\"”]\s*[-–—]\s*(?P<who>[^\W\d_][^«»\"“”]{2,60})$", re.DOTALL
)

FRONT_HEADING = {"fr": "Préliminaires", "en": "Front matter", "fa": "پیش‌درآمد"}
PAGE_HEADING = {"fr": "Page {n}", "en": "Page {n}", "fa": "صفحه {n}"}
PART_HEADING = {"fr": "Partie {n}", "en": "Part {n}", "fa": "بخش {n}"}


@dataclass
class SectionDraft:
    heading: str
    depth: int
    kind: str
    body: str = ""
    raw: str = ""
    slug: str = ""
    rule_key: str = ""
    page_start: int | None = None
    page_end: int | None = None
    source_line: int | None = None
    parent: int | None = None  # index of the parent draft
    children: list[int] = field(default_factory=list)


def build_sections(
    lines: list[Line], marks: list[HeadingMark], raw_lines: list[str], *, lang: str
) -> list[SectionDraft]:
    """The section tree, in reading order (drafts reference their parent by index)."""
    if not marks:
        drafts = _fallback_sections(lines, raw_lines, lang=lang)
    else:
        drafts = _heading_sections(lines, marks, raw_lines, lang=lang)
    drafts = _split_long_sections(drafts, lines, raw_lines, lang=lang)
    drafts = _extract_quotes(drafts)
    assign_slugs(drafts)
    return drafts


# --- sections from headings ------------------------------------------------------------------


def _heading_sections(
    lines: list[Line], marks: list[HeadingMark], raw_lines: list[str], *, lang: str
) -> list[SectionDraft]:
    drafts: list[SectionDraft] = []
    marks = sorted(marks, key=lambda m: m.index)
    first = marks[0].index
    if any(line.is_text for line in lines[:first]):
        drafts.append(
            _draft(
                FRONT_HEADING.get(lang, FRONT_HEADING["en"]),
                lines,
                raw_lines,
                start=0,
                body_start=0,
                end=first,
                depth=0,
                kind=SectionKind.FRONT,
            )
        )
    stack: list[tuple[int, int]] = []  # (level, draft index)
    for k, mark in enumerate(marks):
        end = marks[k + 1].index if k + 1 < len(marks) else len(lines)
        while stack and stack[-1][0] >= mark.level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        depth = drafts[parent].depth + 1 if parent is not None else 0
        start = 0 if (k == 0 and not drafts) else mark.index
        draft = _draft(
            mark.text,
            lines,
            raw_lines,
            start=start,
            body_start=mark.index + 1,
            end=end,
            depth=depth,
            kind="",
            heading_line=lines[mark.index],
        )
        draft.parent = parent
        draft.rule_key = mark.key
        if mark.page is not None:
            draft.page_start = mark.page
            draft.page_end = max(mark.page, draft.page_end or mark.page)
        draft.kind = classify(mark.text, depth=depth, hint=mark.hint, body=draft.body)
        drafts.append(draft)
        if parent is not None:
            drafts[parent].children.append(len(drafts) - 1)
        stack.append((mark.level, len(drafts) - 1))
    return drafts


def _draft(
    heading: str,
    lines: list[Line],
    raw_lines: list[str],
    *,
    start: int,
    body_start: int,
    end: int,
    depth: int,
    kind: str,
    heading_line: Line | None = None,
) -> SectionDraft:
    chunk = lines[body_start:end]
    pages = [line.page for line in lines[start:end] if line.page is not None and line.is_text]
    if heading_line is not None and heading_line.page is not None:
        pages.insert(0, heading_line.page)
    first_no = lines[start].no if start < len(lines) else None
    last_no = lines[end - 1].no if end - 1 < len(lines) and end > start else first_no
    raw = "\n".join(raw_lines[first_no - 1 : last_no]) if first_no else ""
    return SectionDraft(
        heading=" ".join(heading.split())[:300],
        depth=depth,
        kind=kind,
        body=paragraphs(chunk),
        raw=raw,
        page_start=pages[0] if pages else None,
        page_end=max(pages) if pages else None,
        source_line=heading_line.no if heading_line is not None else first_no,
    )


def paragraphs(lines: list[Line]) -> str:
    """Re-flow hard-wrapped lines: blank lines split paragraphs, list items and table rows
    start a line (and text after a table row starts its own)."""
    out: list[list[str]] = [[]]
    for line in lines:
        if line.noise:
            continue
        text = line.text.strip()
        if not text:
            if out[-1]:
                out.append([])
            continue
        current = out[-1]
        if current and not _LIST_START.match(text) and not current[-1].startswith("|"):
            current[-1] = f"{current[-1]} {text}"
        else:
            current.append(text)
    return "\n\n".join("\n".join(p) for p in out if p)


# --- fallbacks: pages ------------------------------------------------------------------------


def _fallback_sections(lines: list[Line], raw_lines: list[str], *, lang: str) -> list[SectionDraft]:
    """No heading at all: one section per page, or per run of paragraphs."""
    drafts = []
    for n, (start, end, page) in enumerate(_page_chunks(lines, 0, len(lines)), start=1):
        template = PAGE_HEADING if page is not None else PART_HEADING
        heading = template.get(lang, template["en"]).format(n=page if page is not None else n)
        draft = _draft(
            heading,
            lines,
            raw_lines,
            start=start,
            body_start=start,
            end=end,
            depth=0,
            kind=SectionKind.PAGE,
        )
        if draft.body or draft.raw:
            drafts.append(draft)
    return drafts


def _page_chunks(lines: list[Line], start: int, end: int) -> list[tuple[int, int, int | None]]:
    chunks, begin = [], start
    has_pages = any(line.page is not None for line in lines[start:end])
    if has_pages:
        for i in range(start + 1, end):
            if lines[i].page != lines[i - 1].page:
                chunks.append((begin, i, lines[begin].page))
                begin = i
        chunks.append((begin, end, lines[begin].page))
        return chunks
    count = 0
    for i in range(start, end):
        if lines[i].is_blank and i > start and lines[i - 1].is_text:
            count += 1
            if count >= CHUNK_PARAGRAPHS:
                chunks.append((begin, i + 1, None))
                begin, count = i + 1, 0
    if begin < end:
        chunks.append((begin, end, None))
    return chunks


def _split_long_sections(
    drafts: list[SectionDraft], lines: list[Line], raw_lines: list[str], *, lang: str
) -> list[SectionDraft]:
    """A long section over several pages keeps its first page; the others become children."""
    if not any(len(d.body) > LONG_SECTION and d.page_start != d.page_end for d in drafts):
        return drafts
    index_of = {line.no: i for i, line in enumerate(lines)}
    out: list[SectionDraft] = []
    remap: dict[int, int] = {}
    for k, draft in enumerate(drafts):
        remap[k] = len(out)
        draft.parent = remap.get(draft.parent) if draft.parent is not None else None
        draft.children = []
        out.append(draft)
        if draft.parent is not None:
            out[draft.parent].children.append(len(out) - 1)
        if len(draft.body) <= LONG_SECTION or draft.page_start == draft.page_end:
            continue
        start = index_of.get(draft.source_line or 0)
        if start is None:
            continue
        end = _section_end(lines, start, drafts, k, index_of)
        chunks = _page_chunks(lines, start, end)
        if len(chunks) < 2:
            continue
        first_start, first_end, _ = chunks[0]
        draft.body = paragraphs(lines[first_start + 1 : first_end])
        draft.raw = "\n".join(raw_lines[lines[first_start].no - 1 : lines[first_end - 1].no])
        draft.page_end = draft.page_start
        template = PAGE_HEADING.get(lang, PAGE_HEADING["en"])
        for begin, stop, page in chunks[1:]:
            child = _draft(
                template.format(n=page),
                lines,
                raw_lines,
                start=begin,
                body_start=begin,
                end=stop,
                depth=draft.depth + 1,
                kind=SectionKind.PAGE,
            )
            child.parent = remap[k]
            out.append(child)
            out[remap[k]].children.append(len(out) - 1)
    return out


def _section_end(lines, start, drafts, k, index_of) -> int:
    for later in drafts[k + 1 :]:
        found = index_of.get(later.source_line or 0)
        if found is not None and found > start:
            return found
    return len(lines)


# --- flavour quotes --------------------------------------------------------------------------


def _extract_quotes(drafts: list[SectionDraft]) -> list[SectionDraft]:
    """Move `« quote » - Name` paragraphs out of rule sections into flavour children."""
    out: list[SectionDraft] = []
    remap: dict[int, int] = {}
    for k, draft in enumerate(drafts):
        remap[k] = len(out)
        if draft.parent is not None:
            draft.parent = remap[draft.parent]
        draft.children = []
        out.append(draft)
        if draft.parent is not None:
            out[draft.parent].children.append(len(out) - 1)
        if draft.kind in (SectionKind.FLAVOUR, SectionKind.CREDITS):
            continue
        kept, quotes = [], []
        for paragraph in draft.body.split("\n\n"):
            found = _QUOTE.match(paragraph.strip())
            if found:
                quotes.append((paragraph.strip(), found.group("who").strip()))
            else:
                kept.append(paragraph)
        if not quotes:
            continue
        draft.body = "\n\n".join(p for p in kept if p)
        for text, who in quotes:
            child = SectionDraft(
                heading=who,
                depth=draft.depth + 1,
                kind=SectionKind.FLAVOUR,
                body=text,
                page_start=draft.page_start,
                page_end=draft.page_start,
                source_line=draft.source_line,
                parent=remap[k],
            )
            out.append(child)
            out[remap[k]].children.append(len(out) - 1)
    return out


# --- slugs -----------------------------------------------------------------------------------


_SLUG_GAPS = str.maketrans(
    {"’": " ", "'": " ", "/": " ", "™": "", "®": "", "©": "", "œ": "oe", "Œ": "OE", "æ": "ae"}
)


def slug_for(heading: str) -> str:
    """ASCII slug of the heading; a Persian heading keeps its letters."""
    text = heading.translate(_SLUG_GAPS)
    slug = slugify(text) or slugify(text, allow_unicode=True)
    return slug[:MAX_SLUG].strip("-") or "section"


def assign_slugs(drafts: list[SectionDraft]) -> None:
    """The slug of each heading, de-duplicated in reading order with -2, -3…"""
    used: set[str] = set()
    for draft in drafts:
        base = slug_for(draft.heading)
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used.add(slug)
        draft.slug = slug


def chapter_count(drafts: list[SectionDraft]) -> int:
    return sum(1 for d in drafts if d.depth == 0 and d.kind != SectionKind.FRONT)


__all__ = ["CHAPTER", "SectionDraft", "assign_slugs", "build_sections", "paragraphs", "slug_for"]
