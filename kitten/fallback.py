"""The last resort: a plain-text dump of a page's visible text that cannot fail.

Used when a step of the normal path raises. It does not parse: it removes
``script``/``style`` blocks, comments and tags with regular expressions, resolves
character references and puts block-level tags on their own lines, like a text
browser's dump. Quality is lower than the normal path, but no page yields nothing.
"""
from __future__ import annotations

import html
import re

_INVISIBLE = re.compile(
    r"<(script|style|template|title|head)\b[^>]*>.*?</\1\s*>|<!--.*?(?:-->|\Z)", re.S | re.I
)
_BLOCK_TAG = re.compile(
    r"</?(?:p|div|br|h[1-6]|li|ul|ol|dl|dt|dd|tr|table|blockquote|pre|section|article|"
    r"header|footer|nav|aside|form|hr|td|th|caption|address|center|main|figure)\b[^>]*>",
    re.I,
)
_TAG = re.compile(r"<[^>]*>")
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def plain_text_dump(source: str | bytes) -> str:
    """Visible text of ``source`` (bytes are decoded as UTF-8 with replacement)."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    text = _INVISIBLE.sub(" ", text)
    text = _BLOCK_TAG.sub("\n", text)
    text = _TAG.sub("", text)
    text = html.unescape(text)
    text = _ILLEGAL.sub(" ", text)
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line) + "\n"
