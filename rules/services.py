"""Writes to the rules reference: importing a rulebook.

`import_rulebook` reads a file, `import_rulebook_text` takes text; both clean and split it
(rules.importing, no database) and write the book and its sections in one transaction.
Sections are matched by slug and updated in place, so their ids and URLs survive a
re-import; only sections whose heading disappeared are deleted. Values are compared
before writing: importing the same file twice changes no section the second time.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from django.db import transaction

from cards.models import Game

from .importing.naming import (
    SUFFIXES,
    BookOptions,
    options_from_filename,
    quick_reference_options,
)
from .importing.parse import ParsedBook, parse_rulebook
from .importing.reading import MARKDOWN, TEXT, RulebookImportError, read_source
from .models import Language, Rulebook, Section

#: progress(stage): called before each stage of an import.
ImportProgress = Callable[[str], None]

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_LANG_SUFFIX = re.compile(r"-(?:en|fr|fa)$")
_SECTION_FIELDS = (
    "parent_id",
    "position",
    "depth",
    "kind",
    "heading",
    "body",
    "raw",
    "page_start",
    "page_end",
    "source_line",
    "rule_key",
    "search_heading",
    "search_body",
)
STAGES = ("read", "clean", "write", "index")
RESERVED_SLUGS = frozenset({"search"})  # /rules/search/ is a page

__all__ = [
    "ImportResult",
    "RulebookImportError",
    "import_rulebook",
    "import_rulebook_text",
    "validate_options",
]


@dataclass(frozen=True)
class ImportResult:
    book: Rulebook
    created: int
    updated: int
    unchanged: int
    deleted: int
    seconds: float

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.deleted)

    @property
    def report(self) -> dict:
        return self.book.report


def validate_options(*, slug: str, lang: str, game: str) -> None:
    """One-line errors for options a command line or a caller got wrong."""
    if not _SLUG.match(slug or "") or len(slug) > 80:
        raise RulebookImportError(
            f"invalid --slug {slug!r}: use lower-case letters, digits and hyphens (max 80)"
        )
    if slug in RESERVED_SLUGS:
        raise RulebookImportError(f"invalid --slug {slug!r}: reserved for a page of the site")
    if lang not in Language.values:
        choices = ", ".join(Language.values)
        raise RulebookImportError(f"unknown --lang {lang!r} (choose {choices})")
    if game not in Game.values:
        choices = ", ".join(Game.values)
        raise RulebookImportError(f"unknown --game {game!r} (choose {choices})")


def import_rulebook(
    *,
    path: str | Path,
    slug: str,
    lang: str,
    game: str,
    title: str = "",
    edition: str = "",
    is_quick_reference: bool = False,
    progress: ImportProgress | None = None,
) -> ImportResult:
    """Import one rulebook file (.txt, .md or .pdf) under `slug`."""
    validate_options(slug=slug, lang=lang, game=game)
    _step(progress, "read")
    source = read_source(path)
    return import_rulebook_text(
        text=source.text,
        fmt=source.fmt,
        source_name=source.name,
        source_sha1=source.sha1,
        slug=slug,
        lang=lang,
        game=game,
        title=title,
        edition=edition,
        is_quick_reference=is_quick_reference,
        progress=progress,
        from_pdf=source.from_pdf,
    )


def import_rulebook_text(
    *,
    text: str,
    slug: str,
    lang: str,
    game: str,
    fmt: str = TEXT,
    source_name: str = "",
    source_sha1: str = "",
    title: str = "",
    edition: str = "",
    is_quick_reference: bool = False,
    progress: ImportProgress | None = None,
    from_pdf: bool = False,
) -> ImportResult:
    validate_options(slug=slug, lang=lang, game=game)
    if fmt not in (TEXT, MARKDOWN):
        raise RulebookImportError(f"unknown format {fmt!r}")
    if not (text or "").strip():
        raise RulebookImportError(f"{source_name or slug}: holds no text")
    started = time.perf_counter()
    _step(progress, "clean")
    parsed = parse_rulebook(
        text,
        fmt=fmt,
        lang=lang,
        game=game,
        title=title,
        progress=(lambda stage: _step(progress, "clean")) if progress else None,
    )
    if not parsed.sections:
        raise RulebookImportError(f"{source_name or slug}: no text left after cleaning")
    _step(progress, "write")
    with transaction.atomic():
        book = _write_book(
            parsed,
            slug=slug,
            lang=lang,
            game=game,
            edition=edition or _LANG_SUFFIX.sub("", slug),
            source_name=source_name,
            source_sha1=source_sha1,
            is_quick_reference=is_quick_reference,
        )
        counts = _write_sections(book, parsed, lang=lang)
        _step(progress, "index")
        _index(book)
        seconds = time.perf_counter() - started
        book.report = {
            **parsed.report,
            "format": "pdf" if from_pdf else fmt,
            "source": source_name,
            "changes": dict(
                zip(("created", "updated", "unchanged", "deleted"), counts, strict=True)
            ),
            "seconds": round(seconds, 3),
        }
        book.save(update_fields=["report", "imported_at"])
    return ImportResult(book, *counts, seconds=seconds)


def _step(progress: ImportProgress | None, stage: str) -> None:
    if progress is not None:
        progress(stage)


def _write_book(
    parsed: ParsedBook,
    *,
    slug: str,
    lang: str,
    game: str,
    edition: str,
    source_name: str,
    source_sha1: str,
    is_quick_reference: bool,
) -> Rulebook:
    values = {
        "game": game,
        "lang": lang,
        "title": parsed.title[:200] or slug,
        "edition_key": edition[:80],
        "source_name": source_name[:200],
        "source_sha1": source_sha1,
        "raw_text": parsed.raw_text,
        "page_count": parsed.page_count,
        "is_quick_reference": is_quick_reference,
    }
    book, _ = Rulebook.objects.select_for_update().get_or_create(slug=slug, defaults=values)
    changed = [name for name, value in values.items() if getattr(book, name) != value]
    for name in changed:
        setattr(book, name, values[name])
    if changed:
        book.save(update_fields=[*changed, "imported_at"])
    return book


def _write_sections(book: Rulebook, parsed: ParsedBook, *, lang: str) -> tuple[int, int, int, int]:
    from .search.normalise import normalise

    existing = {section.slug: section for section in book.sections.all()}
    drafts = parsed.sections
    wanted = {draft.slug for draft in drafts}
    # First the sections themselves (parents are linked once every section has an id).
    to_create, to_update, by_slug = [], [], {}
    created = updated = unchanged = 0
    rows = []
    for position, draft in enumerate(drafts):
        values = {
            "position": position,
            "depth": draft.depth,
            "kind": draft.kind,
            "heading": draft.heading,
            "body": draft.body,
            "raw": draft.raw,
            "page_start": draft.page_start,
            "page_end": draft.page_end,
            "source_line": draft.source_line,
            "rule_key": draft.rule_key,
            "search_heading": normalise(draft.heading, lang),
            "search_body": normalise(draft.body, lang),
        }
        section = existing.get(draft.slug)
        if section is None:
            section = Section(book=book, slug=draft.slug, **values)
            to_create.append(section)
        else:
            for name, value in values.items():
                setattr(section, name, value)
        by_slug[draft.slug] = section
        rows.append((draft, section))
    Section.objects.bulk_create(to_create)
    created = len(to_create)
    # Now the parents, then compare with what was stored.
    for draft, section in rows:
        parent = by_slug[drafts[draft.parent].slug] if draft.parent is not None else None
        section.parent_id = parent.pk if parent is not None else None
    originals = {s.slug: s for s in Section.objects.filter(book=book, slug__in=list(existing))}
    for draft, section in rows:
        original = originals.get(draft.slug)
        if original is None or section in to_create:
            continue
        if any(getattr(original, name) != getattr(section, name) for name in _SECTION_FIELDS):
            to_update.append(section)
        else:
            unchanged += 1
    created_parents = [s for s in to_create if s.parent_id is not None]
    Section.objects.bulk_update([*to_update, *created_parents], _SECTION_FIELDS, batch_size=200)
    updated = len(to_update)
    gone = [section.pk for slug, section in existing.items() if slug not in wanted]
    deleted = Section.objects.filter(pk__in=gone).delete()[1].get("rules.Section", 0) if gone else 0
    return created, updated, unchanged, deleted


def _index(book: Rulebook) -> None:
    from .search import index_book

    index_book(book)


# --- bulk imports (demo data) ----------------------------------------------------------------

QUICKREF_DIR = Path(__file__).resolve().parent / "data" / "quickref"


def import_quick_references(directory: str | Path = QUICKREF_DIR) -> list[ImportResult]:
    """Import the quick references we ship (rules/data/quickref/<game>.<lang>.md)."""
    found = (quick_reference_options(path) for path in sorted(Path(directory).glob("*.md")))
    return [_import_options(options) for options in found if options is not None]


def import_rulebook_dir(directory: str | Path) -> tuple[list[ImportResult], list[str]]:
    """Import every rulebook file named `<name>.<lang>.<ext>` in a folder.

    Returns the results and one line per file that was skipped or failed, so one bad file
    does not stop the others."""
    results, problems = [], []
    for path in sorted(Path(directory).iterdir()):
        if not path.is_file() or path.suffix.lower() not in SUFFIXES:
            continue
        options = options_from_filename(path)
        if options is None:
            problems.append(f"{path.name}: skipped (name is not <game-prefix…>.<lang>.<ext>)")
            continue
        try:
            results.append(_import_options(options))
        except RulebookImportError as exc:
            problems.append(str(exc))
    return results, problems


def _import_options(options: BookOptions) -> ImportResult:
    # BookOptions' fields are import_rulebook's keyword arguments, by design.
    return import_rulebook(**asdict(options))
