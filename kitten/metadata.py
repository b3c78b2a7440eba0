"""What a page declares about itself: description, author, published date, site name,
canonical URL, from ``<meta>`` (``name``; Open Graph's ``property`` is kept as ``name`` by
the normalizer), ``<link rel="canonical">`` and JSON-LD (schema.org) in the normalized
XHTML. The first non-empty source in each field's list wins."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Iterator

_NS = "{http://www.w3.org/1999/xhtml}"

#: meta names read for each field, in order of preference (lower case)
META_NAMES: dict[str, tuple[str, ...]] = {
    "description": ("description", "og:description", "twitter:description", "dc.description"),
    "author": ("author", "article:author", "dc.creator", "byl", "parsely-author", "sailthru.author"),
    "published": ("article:published_time", "datepublished", "pubdate", "publishdate", "date",
                  "dc.date", "dc.date.issued", "parsely-pub-date", "sailthru.date", "og:published_time"),
    "site_name": ("og:site_name", "application-name", "twitter:site"),
    "canonical": ("og:url",),
}
#: JSON-LD keys read for each field
LD_KEYS: dict[str, tuple[str, ...]] = {
    "description": ("description",),
    "author": ("author", "creator"),
    "published": ("datePublished", "dateCreated"),
    "site_name": ("publisher",),
    "canonical": ("url", "mainEntityOfPage"),
}
#: schema.org types whose fields describe the page's main content
_LD_CONTENT_TYPES = ("Article", "NewsArticle", "BlogPosting", "Report", "WebPage", "ScholarlyArticle",
                     "TechArticle", "Review", "Recipe", "Product", "Event", "QAPage", "Question")


@dataclass(frozen=True, slots=True)
class PageMetadata:
    description: str = ""
    author: str = ""
    published: str = ""
    site_name: str = ""
    canonical: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def is_json_ld(script) -> bool:
    """A ``script`` element of JSON-LD (its ``type`` says ``ld+json``)."""
    return "ld+json" in (script.get("type") or "")


def json_ld_scripts(root) -> Iterator:
    """The JSON-LD ``script`` elements of ``root`` (itself included), in document order."""
    return (script for script in root.iter(_NS + "script") if is_json_ld(script))


def json_ld_objects(root, scripts: Iterable | None = None) -> Iterator[dict]:
    """Every JSON object of the page's JSON-LD scripts (``scripts``, default
    ``json_ld_scripts(root)``), nested ones included (``@graph``), outer before inner;
    scripts that do not parse are skipped."""
    if scripts is None:
        if root is None:
            return
        scripts = json_ld_scripts(root)
    for script in scripts:
        if not script.text:
            continue
        try:
            data = json.loads(script.text)
        except ValueError:
            continue
        stack = [data]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                yield x
                stack.extend(reversed([v for v in x.values() if isinstance(v, (dict, list))]))
            elif isinstance(x, list):
                stack.extend(reversed(x))


def _text(value: Any) -> str:
    """A JSON-LD value as a string: a name of a Person/Organization, the ``@id`` or
    ``url`` of a page, names of a list joined by commas."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        for key in ("name", "@id", "url"):
            if isinstance(value.get(key), str):
                return _text(value[key])
        return ""
    if isinstance(value, list):
        return ", ".join(t for t in map(_text, value) if t)
    return ""


def page_metadata(root, json_ld: Iterable | None = None) -> PageMetadata:
    """The metadata of a normalized XHTML tree (``root``: its ``html`` element; ``json_ld``:
    its JSON-LD scripts in document order when they are known, see ``json_ld_objects``)."""
    found: dict[str, str] = {}
    head = root.find(_NS + "head") if root is not None else None
    if head is not None:
        metas: dict[str, str] = {}
        for meta in head.iter(_NS + "meta"):
            name = (meta.get("name") or "").strip().lower()
            content = " ".join((meta.get("content") or "").split())
            if name and content and name not in metas:
                metas[name] = content
        for field, names in META_NAMES.items():
            value = next((metas[n] for n in names if n in metas), "")
            if value:
                found[field] = value
        for link in head.iter(_NS + "link"):
            if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
                found["canonical"] = link.get("href").strip()
                break
    for obj in json_ld_objects(root, json_ld):
        types = obj.get("@type")
        types = types if isinstance(types, list) else [types]
        if not any(isinstance(t, str) and t in _LD_CONTENT_TYPES for t in types):
            continue
        for field, keys in LD_KEYS.items():
            if field in found:
                continue
            value = next((t for t in (_text(obj.get(k)) for k in keys) if t), "")
            if value:
                found[field] = value
    return PageMetadata(**found)
