"""Pre-converted XML documents (``<document>``, ``<page>``, ``<textfield>`` ...).

Their text is extracted directly: every element that holds text of its own (text or
the tail of a child) becomes one paragraph, with the text of its descendants in
reading order, in a small XHTML document, so that the rest of the pipeline (and the
``.xhtml`` output) treats them like any page. HTML named references, which XML does
not define (``&eacute;``, ``&nbsp;``), and bare ``&`` are resolved first.
"""
from __future__ import annotations

import re
from html.entities import html5

from lxml import etree

from kitten.log import PageLog
from kitten.normalizer.xhtml import DOCTYPE, XHTML_NS, XML_DECLARATION, escape_text, class_token

_PARSER_ARGS = dict(recover=True, resolve_entities=False, no_network=True, huge_tree=True,
                    remove_comments=True, remove_pis=True)
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_REFERENCE = re.compile(r"&(#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;?)?")
_SPACES = re.compile(r"\s+")


def _resolve_reference(m: re.Match) -> str:
    ref = m.group(1)
    if ref is None:
        return "&amp;"  # a bare ampersand
    if ref[0] == "#" or (ref.endswith(";") and ref[:-1] in _XML_ENTITIES):
        return m.group()  # numeric or predefined in XML
    char = html5.get(ref) if ref.endswith(";") else (html5.get(ref) or html5.get(ref + ";"))
    return escape_text(char) if char else "&amp;" + ref


def xml_to_xhtml(text: str, log: PageLog) -> str:
    """Turn a pre-converted XML document into XHTML paragraphs, one per text-bearing element."""
    body = text.lstrip("\ufeff")
    if body.startswith("<?xml"):  # the declaration names the original encoding; text is str now
        body = body[body.find("?>") + 2:]
    body = _REFERENCE.sub(_resolve_reference, body)
    root = etree.fromstring(body.encode("utf-8"), etree.XMLParser(**_PARSER_ARGS))
    if root is None:
        raise ValueError("XML document has no root element")
    paragraphs: list[str] = []
    title = ""
    pending = [root]
    while pending:  # depth first, in document order, without recursion
        el = pending.pop()
        if not isinstance(el.tag, str):
            continue
        own = (el.text or "").strip() or any((child.tail or "").strip() for child in el)
        if not own:
            pending.extend(reversed([c for c in el if isinstance(c.tag, str)]))
            continue
        chunk = _SPACES.sub(" ", "".join(el.itertext())).strip()
        name = etree.QName(el).localname
        if not title and name.lower() in ("title", "header"):
            title = chunk
        paragraphs.append(f'<p class="{class_token("xml-" + name)}">{escape_text(chunk)}</p>')
    log.add("triage", "xml-extracted", f"{len(paragraphs)} text elements from <{etree.QName(root).localname}>")
    return (
        f'{XML_DECLARATION}{DOCTYPE}<html xmlns="{XHTML_NS}"><head><title>{escape_text(title)}</title>'
        f'</head><body>{"".join(paragraphs)}</body></html>'
    )
