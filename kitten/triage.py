"""Triage: is a page HTML, a pre-converted XML document, a sitemap, binary or empty?

Works on the raw bytes (before decoding), looking only at the first few KB, so it
costs nothing on ordinary pages.
"""
from __future__ import annotations

import re

from kitten.config import TriageConfig
from kitten.page import Triage

_SNIFF = 4096
# Magic numbers of formats that are not text.
_MAGIC = (
    (b"%PDF-", "PDF document"), (b"\x89PNG\r\n\x1a\n", "PNG image"), (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"), (b"\xff\xd8\xff", "JPEG image"), (b"\x1f\x8b", "gzip data"),
    (b"PK\x03\x04", "ZIP archive"), (b"BZh", "bzip2 data"), (b"\xfd7zXZ\x00", "xz data"),
    (b"RIFF", "RIFF media"), (b"\x00\x00\x01\x00", "icon"), (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"), (b"\x7fELF", "executable"), (b"MZ", "executable"),
    (b"\xd0\xcf\x11\xe0", "MS Office document"), (b"wOFF", "web font"), (b"wOF2", "web font"),
    (b"\x00\x00\x00\x18ftyp", "MP4 media"), (b"\x00\x00\x00\x20ftyp", "MP4 media"),
)
# Signatures made of letters only: a text page may start with them ("MZ Wallace bags ..."),
# so they count only when the first KB also holds a NUL byte.
_WEAK_MAGIC = frozenset({b"MZ", b"ID3", b"BZh", b"RIFF", b"OggS", b"wOFF", b"wOF2"})
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
# First element of an XML document, after the declaration, comments, PIs and doctype.
_XML_PROLOG = re.compile(
    rb"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)\s*)*<([A-Za-z_][\w.:-]*)",
    re.S,
)
_URL_LINE = re.compile(rb"^(?:https?|ftp)://\S+$")
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def triage(data: bytes, config: TriageConfig) -> Triage:
    """Classify a page from its first bytes."""
    head = data[:_SNIFF]
    if not data or data.isspace():  # (no copy of the page, as strip() would make)
        return Triage("empty", "the page is empty or white space only")
    for magic, what in _MAGIC:
        if head.startswith(magic) and (magic not in _WEAK_MAGIC or b"\x00" in head[:1024]):
            return Triage("binary", f"binary content ({what})")
    sniff = _ascii_view(head)
    if _looks_binary(sniff, head):
        return Triage("binary", "binary content (control bytes, not text)")
    m = _XML_PROLOG.match(sniff)
    if m:
        root = m.group(1).decode("ascii").lower()
        local = root.rsplit(":", 1)[-1]
        if config.exclude_sitemaps and local in ("urlset", "sitemapindex"):
            return Triage("sitemap", f"XML sitemap (<{root}>)", root)
        if local in config.xml_containers and sniff.lstrip().startswith(b"<?xml"):
            return Triage("xml", f"pre-converted XML document (<{root}>)", root)
        if local in config.xml_containers and local not in _HTML_NAMES:
            return Triage("xml", f"pre-converted XML document (<{root}>)", root)
    if config.exclude_sitemaps and b"<" not in sniff and _is_url_list(data, config.url_list_ratio):
        return Triage("sitemap", "plain-text list of URLs")
    return Triage("html", "HTML")


# Container names that are also HTML elements: only taken as XML with a declaration.
_HTML_NAMES = frozenset({"header"})


def _ascii_view(head: bytes) -> bytes:
    """The sniffed bytes as ASCII-compatible bytes (UTF-16 is narrowed; BOMs dropped)."""
    if head.startswith(b"\xff\xfe") or head.startswith(b"\xfe\xff"):
        enc = "utf-16-le" if head.startswith(b"\xff\xfe") else "utf-16-be"
        return head[2:].decode(enc, "ignore").encode("ascii", "ignore")
    if head.startswith(b"\xef\xbb\xbf"):
        return head[3:]
    # UTF-16 without BOM: every other byte NUL
    if len(head) >= 64 and (head[1::2].count(0) > len(head) // 4 or head[0::2].count(0) > len(head) // 4):
        enc = "utf-16-le" if head[1::2].count(0) > head[0::2].count(0) else "utf-16-be"
        return head[: len(head) // 2 * 2].decode(enc, "ignore").encode("ascii", "ignore")
    return head


def _looks_binary(sniff: bytes, head: bytes) -> bool:
    if sniff is not head:  # UTF-16 narrowed: judge the narrowed text
        head = sniff
    n = len(head)
    if n == 0:
        return False
    controls = len(_CONTROL.findall(head))
    return controls > max(8, n // 10)


def _is_url_list(data: bytes, ratio: float) -> bool:
    lines = [ln.strip() for ln in data[:65536].splitlines() if ln.strip()]
    if len(lines) < 2:
        return False
    urls = sum(1 for ln in lines if _URL_LINE.match(ln))
    return urls / len(lines) >= ratio
