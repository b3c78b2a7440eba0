"""Provenance: where an element of the normalized XHTML stood in the original page.

The original is the tree the HTML5 parser (lexbor) builds from the decoded page, the
one the writer walks. An element's *original path* is written like the XHTML locators
(``/html/body/div[2]/p``: element names as parsed, ``[n]`` counting the siblings of
the same name, left out for an only child of its name; ``tbody`` where the parser
inserts it).

How (only when asked: ``--format json``), without touching either writer: before the
walk, every element of the parse tree gets one more class token, :data:`MARK` and its
number (:func:`mark_tree`), after its own classes. Both writers keep an element's
classes as they are, between the class naming a renamed element and the tokens of
its semantic attributes (``role`` ...), and whatever copies it (an
inline element re-opened after a block split out of it) copies them, so each element
of the XHTML carries the number of the parse-tree element it was written from, and
elements the writer adds (wrappers, fillers) carry none. The marks are then taken out
of the XHTML text (:func:`strip_marks`), which leaves it exactly as an unmarked run
writes it (``tests/test_provenance.py`` checks it on corpus pages: the text, the log
and so the tree the later steps read are those of a run without provenance), and read
in document order (:func:`origins_of`): the n-th start tag of the marked text is the
n-th element of the tree. Elements whose XHTML element has no ``class`` attribute
(``html``, ``head``, ``title``, ``meta``, ``script``, ``style`` ...: :data:`NO_CLASS`)
are not marked, so the writer drops no attribute it would not drop anyway, nor are
elements with an empty ``class`` (the writers join it with the other tokens so that a
mark taken out would leave a space too many). A page whose text already holds the
mark's name is not marked (no provenance).
"""
from __future__ import annotations

import re

from lxml import etree

#: class token prefix of the marks (``kitten.origin-12``)
MARK = "kitten.origin-"
#: XHTML 1.0 elements without a ``class`` attribute (``xhtml.element_specs``)
NO_CLASS = frozenset({"base", "basefont", "head", "html", "meta", "param", "script", "style", "title"})
#: the marks in the XHTML text: a whole class attribute, a first token before others,
#: a later token (each pattern starts with a literal: fast to find)
_WHOLE = re.compile(r' class="kitten\.origin-\d+"')
_FIRST = re.compile(r'class="kitten\.origin-\d+ ')
_LATER = re.compile(r' kitten\.origin-\d+')


def mark_tree(root, names: frozenset[str] | None = None) -> list[str]:
    """Give the elements under lexbor node ``root`` (itself included) their mark: every
    one, or with ``names`` those of these names and those with a ``style`` (the only
    elements the structure step makes blocks of: ``structure.BLOCKS``, or a
    ``display`` of their own); return the original path of each mark number."""
    counts: dict[tuple[int, str], int] = {}  # (parent, name) -> children of that name
    entries = []  # (node id, parent id, name, n-th of its name, marked?) in document order
    marks = 0
    for node in root.traverse():
        tag = node.tag
        if not tag or tag[0] == "-":  # a comment, a doctype, a node lexbor does not name
            continue
        parent = node.parent
        key = (parent.mem_id if parent is not None else 0, tag)
        n = counts[key] = counts.get(key, 0) + 1
        marked = False
        if tag not in NO_CLASS:
            attrs = node.attributes
            if names is not None and tag not in names and "style" not in attrs:
                pass
            elif "class" not in attrs:
                node.attrs["class"] = f"{MARK}{marks}"
                marked = True
            else:
                cls = attrs["class"]
                if cls and not cls.isspace():  # an empty class: the writers join it with other
                    node.attrs["class"] = f"{cls} {MARK}{marks}"  # tokens so that a mark taken
                    marked = True  # out would leave a space too many
            marks += marked
        entries.append((node.mem_id, key, n, marked))
    paths: list[str] = []
    path_of: dict[int, str] = {}
    for node_id, key, n, marked in entries:  # a parent before its children
        parent_id, tag = key
        path = f"{path_of.get(parent_id, '')}/{tag}" if counts[key] == 1 else f"{path_of.get(parent_id, '')}/{tag}[{n}]"
        path_of[node_id] = path
        if marked:
            paths.append(path)
    return paths


def strip_marks(xhtml: str) -> str:
    """The XHTML written from a marked tree without its marks: the unmarked output."""
    return _LATER.sub("", _FIRST.sub('class="', _WHOLE.sub("", xhtml)))


#: a start tag and its mark number, if any (Kitten's XHTML escapes every "<" and ">" of
#: text and attribute values, writes no comment, and names every element in lower case)
_START_TAG = re.compile(r"<[a-z][^>]*?(?:kitten\.origin-(\d+)|>)")


def origins_of(root, marked: str, paths: list[str]) -> dict | None:
    """Each element of ``root`` (the lxml tree of the *unmarked* XHTML) that has a mark
    in ``marked`` -> its original path: the n-th start tag of ``marked`` is the n-th
    element of the tree. None if the counts disagree (never seen; no provenance then
    rather than a wrong one)."""
    numbers = _START_TAG.findall(marked)  # each start tag's mark number, "" when none
    elements = list(root.iter(etree.Element))
    if len(elements) != len(numbers):
        return None
    return {el: paths[int(n)] for el, n in zip(elements, numbers) if n}
