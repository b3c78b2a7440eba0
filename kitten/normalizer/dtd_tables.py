"""Derive the XHTML 1.0 Transitional content models and attribute lists from the DTD.

The normalizer needs, for each element, the child elements it may contain, whether
it may contain text, and the attributes it accepts (with their types and required
defaults). Rather than typing those tables by hand, this module reads them from the
W3C DTD (Debian package ``w3c-sgml-lib``) and writes them as JSON next to it, so
the runtime needs neither the DTD nor lxml's DTD support::

    python -m kitten.normalizer.dtd_tables \
        /usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd

Order and cardinality constraints of the content models (``head``, ``table``,
``ul`` ...) are not representable as plain sets; the writer handles those few
elements explicitly (see ``kitten/normalizer/xhtml.py``).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

TABLES_PATH = Path(__file__).with_name("xhtml1-transitional.json")
DEFAULT_DTD = Path(
    "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd"
)


def _collect(content, names: set[str]) -> bool:
    """Add the element names of a content model to ``names``; return True if it has #PCDATA."""
    if content is None:
        return False
    pcdata = content.type == "pcdata"
    if content.type == "element":
        names.add(content.name)
    pcdata |= _collect(content.left, names)
    pcdata |= _collect(content.right, names)
    return pcdata


def build_tables(dtd_path: Path) -> dict:
    from lxml import etree  # build-time only

    dtd = etree.DTD(str(dtd_path))
    elements = {}
    for decl in dtd.iterelements():
        children: set[str] = set()
        pcdata = _collect(decl.content, children) or decl.type == "mixed"
        attributes = {}
        for attr in decl.iterattributes():
            qname = f"{attr.prefix}:{attr.name}" if attr.prefix else attr.name
            attributes[qname] = {
                "type": attr.type,
                "values": list(attr.values()),
                "default": attr.default,
                "value": attr.default_value,
            }
        elements[decl.name] = {
            "empty": decl.type == "empty",
            "pcdata": pcdata,
            "children": sorted(children),
            "attributes": dict(sorted(attributes.items())),
        }
    return {"source": dtd_path.name, "elements": dict(sorted(elements.items()))}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    dtd_path = Path(args[0]) if args else DEFAULT_DTD
    tables = build_tables(dtd_path)
    TABLES_PATH.write_text(json.dumps(tables, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {TABLES_PATH} ({len(tables['elements'])} elements)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
