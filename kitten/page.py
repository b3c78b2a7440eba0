"""Typed values that flow between the pipeline steps."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping


@dataclass(frozen=True, slots=True)
class Page:
    """An input record: the bytes as crawled, with what the caller knows about them."""

    data: bytes
    name: str = "<bytes>"
    url: str | None = None
    headers: Mapping[str, str] | None = None


TriageKind = Literal["html", "xml", "sitemap", "binary", "empty"]


@dataclass(frozen=True, slots=True)
class Triage:
    """What kind of document a page is, and why."""

    kind: TriageKind
    reason: str
    root: str | None = None  # root element name for XML documents


EncodingSource = Literal["bom", "http", "meta", "xml-declaration", "detected", "default", "sniffed-utf16"]


@dataclass(frozen=True, slots=True)
class Decoded:
    """Bytes decoded to text, with the encoding chosen and where that choice came from."""

    text: str
    encoding: str  # WHATWG name, e.g. "windows-1252", "UTF-8"
    source: EncodingSource
    declared: str | None = None  # what the page (or HTTP header) declared, if anything
    overridden: bool = False  # True when a declared charset was found wrong and replaced
