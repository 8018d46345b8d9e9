"""Rendering a section's clean body: paragraphs, bullet lists and pipe tables."""

from __future__ import annotations

import re
from itertools import groupby

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_BULLET = re.compile(r"^(?:[-–—•♦◆*])\s+")
_RULE_ROW = re.compile(r"^\|?\s*:?-{2,}")


@register.filter
def rules_body(text: str) -> SafeString:
    """Blank-line paragraphs; `- ` / `• ` lines as a list; `| a | b |` lines as a table."""
    blocks = []
    for paragraph in (text or "").split("\n\n"):
        lines = [line for line in paragraph.split("\n") if line.strip()]
        # A table's rows may follow a line of text without a blank line between them.
        for is_table, group in groupby(lines, key=lambda line: line.lstrip().startswith("|")):
            block = list(group)
            if is_table:
                blocks.append(_table(block))
            elif all(_BULLET.match(line) for line in block):
                items = "".join(f"<li>{escape(_BULLET.sub('', line))}</li>" for line in block)
                blocks.append(f"<ul>{items}</ul>")
            else:
                blocks.append("<p>" + "<br>".join(escape(line) for line in block) + "</p>")
    return mark_safe("\n".join(blocks))


def _table(lines: list[str]) -> str:
    rows = [_cells(line) for line in lines if not _RULE_ROW.match(line.strip().strip("|").strip())]
    if not rows:
        return ""
    head, body = rows[0], rows[1:]
    thead = "".join(f'<th scope="col">{escape(cell)}</th>' for cell in head)
    tbody = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in body
    )
    table = f"<table><thead><tr>{thead}</tr></thead><tbody>{tbody}</tbody></table>"
    return f'<div class="table-wrap">{table}</div>'


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
