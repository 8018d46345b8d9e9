"""The cleaning pipeline: the steps of rules.cleaning, in order, as the profile asks.

Order matters: page markers and wrappers first (they are not book text); running headers
before heading repair (a header is not a heading); split headings are joined while trailing
spaces still tell where a capitals heading wraps; letter spacing is repaired before map
labels are dropped (`M I S E EN P L AC E` would look like map debris); pages are numbered
once map labels are known (the closing page number hides among them); text-level steps last.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.cleaning import (
    apostrophes,
    furniture,
    hosting,
    hyphenation,
    icons,
    letterspacing,
    map_labels,
    markers,
    markup,
    paragraphs,
    split_headings,
    whitespace,
)
from rules.cleaning.lines import Line, map_text, to_lines

from .profiles import BookProfile

#: progress(stage): called before each step.
StepProgress = Callable[[str], None]

MAX_LISTED = 30  # line numbers listed per warning


@dataclass
class CleanedBook:
    lines: list[Line]
    warnings: list[str] = field(default_factory=list)
    metadata: dict[str, str | int] = field(default_factory=dict)
    markers: int = 0

    @property
    def noise(self) -> dict[str, int]:
        return dict(Counter(line.noise for line in self.lines if line.noise))

    @property
    def pages(self) -> int | None:
        numbers = {line.page for line in self.lines if line.page is not None}
        return len(numbers) if len(numbers) > 1 else None

    @property
    def last_page(self) -> int | None:
        numbers = [line.page for line in self.lines if line.page is not None]
        return max(numbers) if numbers and self.pages else None


STEP_NAMES = (
    "page markers",
    "hosting pages and adverts",
    "running headers",
    "letter spacing",
    "split headings",
    "whitespace",
    "map labels",
    "page numbers",
    "hyphenation",
    "broken paragraphs",
    "apostrophes, markup and icons",
)


def clean_book(
    text: str,
    profile: BookProfile,
    *,
    known_words: tuple[str, ...] = (),
    progress: StepProgress | None = None,
) -> CleanedBook:
    def step(name: str) -> None:
        if progress:
            progress(name)

    step("page markers")
    lines = markers.split_page_markers(to_lines(text))
    book = CleanedBook(lines=lines, markers=markers.count_markers(text))

    step("hosting pages and adverts")
    if profile.strip_wrappers:
        lines = hosting.strip_advert(hosting.strip_hosting_wrapper(lines))
        book.metadata = hosting.hosting_metadata(lines)

    step("running headers")
    lines = furniture.mark_running_headers(lines, profile.running_headers)

    words = (*profile.known_words, *known_words)
    step("letter spacing")
    if profile.repair_letter_spacing:
        lines = letterspacing.repair_letter_spaced_lines(lines, known_words=words)

    step("split headings")
    if profile.heading_style != "markdown":
        lines = split_headings.join_split_headings(lines)

    step("whitespace")
    lines = map_text(lines, whitespace.normalise_whitespace)
    if profile.repair_letter_spacing:  # again, for the headings joined with their tail
        lines = letterspacing.repair_letter_spaced_lines(lines, known_words=words)

    step("map labels")
    if profile.gazetteer_path:
        gazetteer = map_labels.Gazetteer.load(profile.gazetteer_path)
        lines = map_labels.drop_map_labels(lines, gazetteer)
        lines = map_text(lines, lambda t: map_labels.strip_glued_map_labels(t, gazetteer))
        counts = map_labels.word_counts(line.text for line in lines if line.is_text)
        lines = map_text(lines, lambda t: map_labels.strip_stray_capitals(t, counts))

    step("page numbers")
    if any(line.page_break for line in lines):
        lines = furniture.number_pages(lines, profile.running_headers)

    step("hyphenation")
    if profile.join_hyphens:
        lines = hyphenation.join_hyphenated_words(lines, _hyphen_vocabulary(lines))
        left = hyphenation.unjoined_fragments(lines)
        if left:
            book.warnings.append(
                f"{len(left)} hyphenated word(s) left unjoined (continuation not on the next "
                f"line): L{_list(left)}"
            )

    step("broken paragraphs")
    lines = paragraphs.join_broken_paragraphs(lines)

    step("apostrophes, markup and icons")
    lines = map_text(lines, apostrophes.normalise_apostrophes)
    lines = map_text(lines, markup.strip_markup)
    if profile.mark_icons:
        lines = map_text(lines, icons.mark_missing_icons)
        flagged = [line.no for line in lines if line.is_text and icons.ICON in line.text]
        if flagged:
            book.warnings.append(
                f"{len(flagged)} line(s) with a missing icon (marked {icons.ICON}): "
                f"L{_list(flagged)}"
            )
    lines = map_text(lines, whitespace.normalise_whitespace)
    book.lines = lines
    return book


def _hyphen_vocabulary(lines: list[Line]) -> frozenset[str]:
    """Words of the book, hyphenated compounds included (`port-réal`)."""
    found: set[str] = set()
    for line in lines:
        if line.is_text:
            found.update(w.lower() for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", line.text))
    return frozenset(found)


def _list(numbers: list[int]) -> str:
    shown = ", L".join(str(n) for n in numbers[:MAX_LISTED])
    return shown + (f" … (+{len(numbers) - MAX_LISTED})" if len(numbers) > MAX_LISTED else "")
