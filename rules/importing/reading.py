"""Reading a rulebook file: extracted text (.txt), Markdown (.md) or a PDF.

PDF text is extracted with pypdf, page by page; each page after the first starts with a
form feed, which the cleaning reads as a page break (so page numbers come from the PDF).
Every failure becomes a `RulebookImportError` with a one-line message.
"""

from __future__ import annotations

import hashlib
import io
import logging
from dataclasses import dataclass
from pathlib import Path

from common.logs import quiet

TEXT, MARKDOWN, PDF = "text", "markdown", "pdf"
MARKDOWN_SUFFIXES = (".md", ".markdown")
MAX_BYTES = 64 * 1024 * 1024


class RulebookImportError(Exception):
    """A rulebook cannot be imported; the message is one line, fit for a user."""


@dataclass(frozen=True)
class Source:
    name: str
    text: str
    fmt: str  # TEXT or MARKDOWN: how to read the text (a PDF's text is TEXT)
    sha1: str
    from_pdf: bool = False


def read_source(path: str | Path) -> Source:
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise RulebookImportError(f"{path}: no such file") from exc
    except IsADirectoryError as exc:
        raise RulebookImportError(f"{path}: is a directory, not a file") from exc
    except OSError as exc:
        raise RulebookImportError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if len(data) > MAX_BYTES:
        raise RulebookImportError(f"{path}: too large ({len(data)} bytes)")
    sha1 = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    if path.suffix.lower() == ".pdf" or data.startswith(b"%PDF-"):
        text = pdf_text(data, name=str(path))
        return Source(name=path.name, text=text, fmt=TEXT, sha1=sha1, from_pdf=True)
    text = decode_text(data, name=str(path))
    fmt = MARKDOWN if path.suffix.lower() in MARKDOWN_SUFFIXES else TEXT
    return Source(name=path.name, text=text, fmt=fmt, sha1=sha1)


def decode_text(data: bytes, *, name: str) -> str:
    if b"\x00" in data[:4096]:
        raise RulebookImportError(f"{name}: binary data, not text (expected .txt, .md or .pdf)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RulebookImportError(
            f"{name}: not UTF-8 text (byte {exc.start}); convert it to UTF-8 first"
        ) from exc
    if not text.strip():
        raise RulebookImportError(f"{name}: holds no text")
    return text


def pdf_text(data: bytes, *, name: str) -> str:
    """The text layer of a PDF, pages separated by form feeds."""
    # pypdf logs what it repairs; a broken file is reported by our one-line error.
    with quiet("pypdf", level=logging.CRITICAL):
        return _pdf_pages(data, name=name)


def _pdf_pages(data: bytes, *, name: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise RulebookImportError(f"{name}: the PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
    except RulebookImportError:
        raise
    except (PyPdfError, Exception) as exc:  # a broken file can raise almost anything
        raise RulebookImportError(f"{name}: not a readable PDF ({type(exc).__name__})") from exc
    if not any(page.strip() for page in pages):
        raise RulebookImportError(f"{name}: the PDF has no text layer (scanned images?)")
    return "\n".join(
        "\f" + page.strip("\n") if k else page.strip("\n") for k, page in enumerate(pages)
    )
