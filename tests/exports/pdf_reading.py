"""Reading back the PDFs the documents write: text (pypdf), embedded fonts, and a
normalisation that compares extracted text with its source honestly.

pypdf gives Persian text back in logical order with the letters' base code points (the
ToUnicode maps WeasyPrint writes map each shaped glyph to the characters it came from).
What it cannot give back, and the normalisation therefore ignores:
- where lines were wrapped and how blank lines separated paragraphs (whitespace);
- zero-width non-joiners and other invisible format characters (ZWNJ, bidi marks), which
  shape the text but draw no glyph of their own;
- list bullets, which the PDF draws as markers instead of the source's "- ";
- in right-to-left text, punctuation next to a change of direction: pypdf reorders each
  line itself, and puts a period that follows "(… ۱)" or a Latin word on the other side
  of the run (the PDF shows it where the source has it). `normalise(..., rtl=True)`
  therefore compares letters and digits only.
NFKC folds any presentation form (e.g. a lam-alef ligature) back to its letters.
"""

from __future__ import annotations

import io
import re
import unicodedata

from pypdf import PdfReader

_BULLET_LINE = re.compile(r"^\s*(?:[-–—•♦◆*])\s+", re.MULTILINE)
_LIST_MARKER = re.compile(r"[•◦▪]")


def pdf_reader(content: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(content))


def page_texts(content: bytes, *, first: int = 0, last: int | None = None) -> list[str]:
    """The text of pages first..last (0-based, inclusive; default: every page)."""
    pages = pdf_reader(content).pages
    chosen = pages[first:] if last is None else pages[first : last + 1]
    return [page.extract_text() or "" for page in chosen]


def pdf_text(content: bytes) -> str:
    return "\n".join(page_texts(content))


def embedded_fonts(content: bytes) -> set[str]:
    """The base names of the fonts whose program is embedded (subset prefix removed)."""
    names = set()
    for page in pdf_reader(content).pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in fonts.values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            described = descendants[0].get_object() if descendants else font
            descriptor = described.get("/FontDescriptor")
            if descriptor is None:
                continue
            descriptor = descriptor.get_object()
            if any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                names.add(str(font["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


def normalise(text: str, *, source: bool = False, rtl: bool = False) -> str:
    """Text reduced to what a PDF must keep: NFKC letters in reading order, no whitespace,
    no invisible format characters; bullets dropped (source "- " lines, PDF markers);
    with `rtl`, no punctuation either (see the module's docstring)."""
    if source:
        text = _BULLET_LINE.sub("", text)
    text = _LIST_MARKER.sub("", unicodedata.normalize("NFKC", text))
    dropped = ("Cf", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po") if rtl else ("Cf",)
    return "".join(
        char for char in text if not char.isspace() and unicodedata.category(char) not in dropped
    )
