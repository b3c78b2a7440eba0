"""Render a normalized XHTML document as text.

This first renderer writes the visible text with every block element on its own
line; the structure and segmentation steps replace it with sentence-level output.
"""
from __future__ import annotations

import re

from lxml import etree

_NS = "{http://www.w3.org/1999/xhtml}"
_SKIP = frozenset(_NS + t for t in ("head", "script", "style", "select", "textarea", "map"))
_BLOCKS = frozenset(
    _NS + t
    for t in (
        "address blockquote body br caption center dd div dir dl dt fieldset form h1 h2 h3 h4 h5 h6 "
        "hr li menu noframes noscript ol p pre table tbody td tfoot th thead tr ul legend iframe"
    ).split()
)
_SPACES = re.compile(r"[ \t\n\r]+")
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def parse_xhtml(xhtml: str) -> etree._Element:
    """Parse Kitten's own XHTML output (strict XML)."""
    return etree.fromstring(xhtml.encode("utf-8"), _XML_PARSER)


def render_text(xhtml: str) -> str:
    """Visible text of ``xhtml``, one line per block, white space collapsed."""
    root = parse_xhtml(xhtml)
    lines: list[str] = []
    current: list[str] = []
    skipping = 0

    def flush() -> None:
        line = _SPACES.sub(" ", "".join(current)).strip()
        if line:
            lines.append(line)
        current.clear()

    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if event == "start":
            if skipping or tag in _SKIP or "display:none" in (el.get("style") or "").replace(" ", ""):
                skipping += 1
                continue
            if tag in _BLOCKS:
                flush()
            if el.text:
                current.append(el.text)
        else:
            if skipping:
                skipping -= 1
                if skipping:
                    continue
            elif tag in _BLOCKS:
                flush()
            if el.tail and not skipping:
                current.append(el.tail)
    flush()
    return "\n".join(lines) + ("\n" if lines else "")
