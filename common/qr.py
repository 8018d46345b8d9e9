"""QR codes as inline SVG (segno: pure Python, no image library), for list sheets on
screen, on paper and in PDFs. Pure: importable without Django."""

from __future__ import annotations

import io

import segno


def qr_svg(data: str, *, title: str = "", scale: int = 4) -> str:
    """An <svg> element encoding `data` (error correction M, black on white, a quiet zone
    of two modules); `title` is what a screen reader says for it. Markup only: no XML
    declaration, no namespace prefix, sized by the viewBox so CSS can scale it."""
    code = segno.make(data, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=scale,
        border=2,
        xmldecl=False,
        svgns=True,
        nl=False,
        title=title or None,
        svgclass="qr-code",
        lineclass=None,
        omitsize=True,
        dark="#000",
        light="#fff",
    )
    svg = out.getvalue().decode("utf-8")
    return svg.replace("<svg ", '<svg role="img" ', 1) if title else svg
