"""The fonts the PDFs embed, shipped under exports/fonts/ with their open licences.

Source Serif 4 sets English and French; Vazirmatn sets Persian (its shaping — joined
letters, lam-alef — is done by Pango/HarfBuzz) and any Persian word in a Latin document.
Fonts are loaded from files with @font-face, never from the system, so every machine
produces the same PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
# No trailing number in a family name: Pango would read it as a size.
LATIN_FAMILY = "Source Serif"
PERSIAN_FAMILY = "Vazirmatn"


@dataclass(frozen=True, slots=True)
class FontFace:
    family: str
    path: Path
    weight: str = "normal"
    style: str = "normal"


FACES = (
    FontFace(LATIN_FAMILY, FONT_DIR / "source-serif-4" / "SourceSerif4-Regular.ttf"),
    FontFace(LATIN_FAMILY, FONT_DIR / "source-serif-4" / "SourceSerif4-Bold.ttf", weight="bold"),
    FontFace(LATIN_FAMILY, FONT_DIR / "source-serif-4" / "SourceSerif4-It.ttf", style="italic"),
    FontFace(PERSIAN_FAMILY, FONT_DIR / "vazirmatn" / "Vazirmatn-Regular.ttf"),
    FontFace(PERSIAN_FAMILY, FONT_DIR / "vazirmatn" / "Vazirmatn-Bold.ttf", weight="bold"),
)


def font_face_css() -> str:
    return "\n".join(
        f"@font-face {{ font-family: '{face.family}'; src: url('{face.path.as_uri()}'); "
        f"font-weight: {face.weight}; font-style: {face.style}; }}"
        for face in FACES
    )


def body_font_css(language: str) -> str:
    """The document's font stack: the language's own face first, the other as fallback
    (a French list may quote a Persian term, a Persian book prints Latin card names)."""
    first, second = (
        (PERSIAN_FAMILY, LATIN_FAMILY) if language == "fa" else (LATIN_FAMILY, PERSIAN_FAMILY)
    )
    return f"html {{ font-family: '{first}', '{second}', serif; }}"
