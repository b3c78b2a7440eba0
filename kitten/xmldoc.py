"""Pre-converted XML documents (``<document>``, ``<page>``, ``<textfield>`` ...).

Their text is extracted directly: every element that holds text of its own becomes
a paragraph of a small XHTML document, so that the rest of the pipeline (and the
``.xhtml`` output) treats them like any page.
"""
from __future__ import annotations

from lxml import etree

from kitten.log import PageLog
from kitten.normalize.xhtml import DOCTYPE, XHTML_NS, XML_DECLARATION, _escape_text, class_token

_PARSER_ARGS = dict(recover=True, resolve_entities=False, no_network=True, huge_tree=True,
                    remove_comments=True, remove_pis=True)


def xml_to_xhtml(text: str, log: PageLog) -> str:
    """Turn a pre-converted XML document into XHTML paragraphs, one per text-bearing element."""
    body = text.lstrip("\ufeff")
    if body.startswith("<?xml"):  # the declaration names the original encoding; text is str now
        body = body[body.find("?>") + 2:]
    root = etree.fromstring(body.encode("utf-8"), etree.XMLParser(**_PARSER_ARGS))
    if root is None:
        raise ValueError("XML document has no root element")
    paragraphs = []
    title = ""
    for el in root.iter(tag=etree.Element):
        own = [el.text or ""]
        own.extend(child.tail or "" for child in el)
        chunk = " ".join(s.strip() for s in own if s and s.strip())
        if not chunk:
            continue
        name = etree.QName(el).localname
        if not title and name.lower() in ("title", "header"):
            title = chunk
        paragraphs.append(f'<p class="{class_token("xml-" + name)}">{_escape_text(chunk)}</p>')
    log.add("triage", "xml-extracted", f"{len(paragraphs)} text elements from <{etree.QName(root).localname}>")
    return (
        f'{XML_DECLARATION}{DOCTYPE}<html xmlns="{XHTML_NS}"><head><title>{_escape_text(title)}</title>'
        f'</head><body>{"".join(paragraphs)}</body></html>'
    )
