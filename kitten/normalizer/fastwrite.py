"""The writer's common case in C (``_fastwrite.c``): its tables, and the check that it may be used.

Most of a page is subtrees the XHTML writer copies as they are. ``_fastwrite`` marks
them in lexbor's tree in one pass and writes each in C, byte for byte as
:func:`kitten.normalizer.xhtml.walk` does in Python (about three times faster over
the whole normalize step), and runs of such siblings in one call; it also writes
an element the writer has placed, with its content, when that needs no more than
renaming or leaving out elements where they may not stand (:meth:`FastWriter.placer`). It reads the tree through lexbor's struct layout, so
before it is used, :func:`fast_writer` checks on a probe page that it reads what
selectolax reads and writes what the Python writer writes; if the extension is not
built (no C compiler at install time) or the check fails, the Python writer does the
whole job, with a warning. ``[normalize] fast_writer = false`` turns it off.
"""
from __future__ import annotations

import ctypes
import logging
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Callable

from kitten.log import PageLog
from kitten.normalizer import xhtml

log = logging.getLogger(__name__)

# kinds and flags as _fastwrite.c numbers them
_K_CDATA, _K_ENUM, _K_CLASS, _K_STYLE, _K_ID, _K_NMTOKEN, _K_IDREF = 1, 2, 3, 4, 5, 6, 7
_F_EMPTY, _F_PCDATA, _F_TRACKED, _F_EXCLUDED, _F_META, _F_CLASS, _F_STYLE, _F_DROP = 1, 2, 4, 8, 16, 32, 64, 128
_F_BLOCK, _F_DROP_MISPLACED, _F_VOID, _F_SPLIT = 256, 512, 1024, 2048
_DROPPED = -2  # the element index of an element left out with its content (xhtml.DROP_ALWAYS)
_KIND = {xhtml.KIND_CDATA: _K_CDATA, xhtml.KIND_ENUM: _K_ENUM, xhtml.KIND_CLASS: _K_CLASS,
         xhtml.KIND_STYLE: _K_STYLE, xhtml.KIND_ID: _K_ID, xhtml.KIND_NMTOKEN: _K_NMTOKEN,
         xhtml.KIND_IDREF: _K_IDREF}

# Contexts in which the parser keeps each XHTML element (found by its name afterwards).
_CONTEXTS = ("<body><{0}>x</{0}>", "<table><{0}>", "<table><tr><{0}>", "<select><{0}>",
             "<frameset><{0}>", "<head><{0}>")

#: A page with what the C writer must read as selectolax does: attributes of each
#: kind, valueless and unknown ones, entities, comments, lists, tables, forms, SVG,
#: metas, semantic attributes, elements left out, blocks in a link and in a span.
PROBE_PAGE = """<!DOCTYPE html><html lang="en"><head><title>t</title>
<meta charset="latin1"><style>p{}</style><meta http-equiv="Content-Type" content="text/html">
<meta property="og:title" content="a &amp; b"><meta name="d" content="e"><link rel=icon href=i>
</head><body class="b" onload="x()"><div role="Main x" class="c" itemprop="articleBody"
itemtype="https://schema.org/NewsArticle" aria-hidden="true"><p hidden style="color:red">h</p>
<picture><source srcset="s"><img src="p"></picture><span hidden>s</span></div>
<a href="l"><div class="d"><h3>h</h3><meta name="m"><p></p></div></a><p><span><div>s</div></span></p>
<!-- c --><div class=" wide  a&amp;b " style="color:red" data-x="1" hidden>
<p align=" CENTER " title='a "q" &lt;b&gt;' dir="RTL">Text &amp; more <b>bold</b><br>
<img src="a.png"><img src="b.png" alt="B" ismap border=0></p>
<ul type=DISC><li value=3>one<li>two <a href="/x?a=1&amp;b=2" target=_top>link</a></ul>
<ul></ul><dl><dt>t<dd>d</dl><table border=1><tr valign=TOP><td nowrap>c<td><p>p</table>
<form action="/f"><select name=s><option selected>o</select><input type=checkbox checked>
<textarea>x</textarea></form><svg viewBox="0 0 1 1"><a xlink:href="#x"><title>s</title></a></svg>
<span id="i1" class="">x</span><label for="i1">l</label><font size=+1 COLOR=red>f</font>
<pre>  a
 b</pre><blockquote cite="u"><p>q</blockquote><h1 onclick="">H</h1><article>A</article>
<script>if (a < b) x();</script><table><caption>c</caption><tr><th>h</table>
<div>&#128; &#0; x\u00a0y</div><div align="\u00a0left">z</div><ol><li>a<ol><li>b</ol></ol>
</div></body></html>"""


@dataclass(frozen=True)
class FastWriter:
    tables: object  # the capsule made by _fastwrite.make_tables
    module: object
    #: element names in the C tables' order, and their indexes
    names: tuple[str, ...]
    index: dict[str, int]

    def start(self, root) -> Callable[[int, int, int, set, list], tuple | None]:
        """Mark the tree under ``root``; return ``subtree(node address, index of the
        open output element, depth budget, ids, idrefs)`` -> ``(xhtml, dropped
        attributes, comments, index of the element written, {element left out: count}
        or None)`` or None (the writer's ids and IDREFs are updated as the writer does)."""
        self.module.prepare(self.tables, root.mem_id)
        return partial(self.module.subtree, self.tables)

    def placer(self) -> Callable[[int, int, bool, list, int, set, list], tuple | None]:
        """After :meth:`start`: ``place_subtree(node address, index of the element it is
        written as, whether renamed (with the class naming the original), the indexes of
        the open elements place() may look at from the one it goes in down (-1: one not
        to judge here, -2: the bottom), depth budget, ids, idrefs)`` writes an element the
        writer has placed, and its content as the writer places it (renaming elements
        where they may not stand, leaving out misplaced ones) -> ``(xhtml, dropped
        attributes, comments, {element left out: count} or None, {"orig>new": count} or
        None)``, or None (nothing changed) when that needs a split, a wrapper or more."""
        return partial(self.module.place_subtree, self.tables)

    def runs(self) -> Callable[[int, int, int, bool, set, list], tuple | None]:
        """After :meth:`start`: ``run(node address, index of the open output element,
        depth budget, whether it is a wrapper, ids, idrefs)`` writes the node and the
        siblings after it as long as the writer would write each as it is there, without
        changing the open elements (text where it may stand, comments, elements left
        out, subtrees ``subtree`` writes) -> ``(xhtml, dropped attributes, comments,
        nodes written or -1 for all of them, indexes of the elements written where
        children are counted or None, {element left out: count} or None)``, or None
        when not even the first one is."""
        return partial(self.module.run, self.tables)

    def xml_clean(self, doc: str) -> str:
        """:func:`kitten.normalizer.xhtml.xml_clean`, in C."""
        return self.module.xml_clean(doc)

    def finish(self, doc: str, idrefs: list[str]) -> str | None:
        """``doc`` with each IDREF marker ``"\0<n>\0"`` replaced by ``idrefs[n]``, then
        :meth:`xml_clean` (as ``xhtml._Writer.finish`` does), in one pass; None when a
        marker is not one it reads (the Python writer then does it)."""
        return self.module.finish(doc, idrefs)


@lru_cache(maxsize=1)
def fast_writer() -> FastWriter | None:
    """The C writer, or None when it is not built or fails its check (logged once)."""
    try:
        from kitten.normalizer import _fastwrite
    except ImportError:
        log.warning("kitten.normalizer._fastwrite is not built (no C compiler at install?): "
                    "the Python writer does the whole job, about three times slower")
        return None
    try:
        names = tuple(sorted(xhtml.element_specs()))
        index = {n: i for i, n in enumerate(names)}
        writer = FastWriter(_make_tables(_fastwrite, names, index), _fastwrite, names, index)
        problem = _check(writer)
    except Exception as e:  # a selectolax whose layout or symbols differ
        problem = f"{type(e).__name__}: {e}"
    if problem:
        log.warning("the C XHTML writer is not used (%s): the Python writer does the whole job", problem)
        return None
    return writer


def _make_tables(module, names: tuple[str, ...], index: dict[str, int]) -> object:
    import selectolax.lexbor
    from selectolax.lexbor import LexborHTMLParser

    specs = xhtml.element_specs()
    tag_ids: dict[int, int] = {}
    for name in names:
        for context in _CONTEXTS:
            tree = LexborHTMLParser(context.format(name))
            found = [n for n in tree.root.traverse(include_text=False) if n.tag == name]
            if found:
                tag_ids[found[0].tag_id] = index[name]
                break
    needs_attrs = xhtml.tags_with_required_attrs()
    elements = []
    for name in names:
        spec = specs[name]
        flags = ((_F_EMPTY if spec.empty else 0) | (_F_PCDATA if spec.pcdata else 0)
                 | (_F_TRACKED if spec.tracked else 0) | (_F_META if name == "meta" else 0)
                 | (_F_CLASS if "class" in spec.attr_kinds else 0) | (_F_STYLE if "style" in spec.attr_kinds else 0))
        for names, flag in ((xhtml.BLOCK_ORIGINALS, _F_BLOCK), (xhtml.DROP_MISPLACED, _F_DROP_MISPLACED),
                            (xhtml.CONTENT_VOIDS, _F_VOID), (xhtml.SPLITTABLE, _F_SPLIT)):
            if name in names:
                flags |= flag
        if name in xhtml.DROP_ALWAYS:
            flags |= _F_DROP
        elif name in xhtml.ORDERED or spec.required is None:
            flags |= _F_EXCLUDED
        attrs = []
        for attr, kind in spec.attr_kinds.items():
            values = b"".join(b"\0" + v.encode() for v in sorted(spec.attrs[attr].values)) + b"\0"
            attrs.append((attr.encode(), _KIND[kind], values))
        defaults = []
        if name in needs_attrs:
            for attr, a in spec.attrs.items():
                if a.required:
                    if a.type == "id":
                        flags |= _F_EXCLUDED
                    else:
                        defaults.append((attr.encode(), 0, xhtml.fixed_default(name, attr, a).encode()))
        required = spec.required if isinstance(spec.required, frozenset) else ()
        # a meta too, where one may stand (head): not on the Python writer's fast path,
        # which leaves it to start() (xhtml._meta_attributes); here with what that does
        fast = spec.fast_children | ({"meta"} & spec.children if spec.fast_children else set())
        elements.append((name.encode(), flags, [index[c] for c in fast if c in index],
                         [index[c] for c in required if c in index],
                         [index[c] for c in spec.children if c in index], attrs, defaults))
    # unknown elements the writer renames to another than span, and the ones it leaves out
    renames = [(n.encode(), index["div"], b"") for n in sorted(xhtml.HTML5_BLOCKS) if n not in xhtml.RENAMES]
    renames += [(n.encode(), index.get(t, -1) if t != "img" else index["span"], b"")
                for n, t in sorted(xhtml.RENAMES.items())]
    renames += [(n.encode(), _DROPPED, b"") for n in sorted(xhtml.DROP_ALWAYS) if n not in specs]
    lib = ctypes.CDLL(selectolax.lexbor.__file__)
    attr_name, element_name = (ctypes.cast(f, ctypes.c_void_p).value
                               for f in (lib.lxb_dom_attr_qualified_name, lib.lxb_dom_element_qualified_name))
    return module.make_tables(attr_name, element_name, tag_ids, elements, renames, index["span"], index["div"])


def _check(writer: FastWriter) -> str | None:
    """What differs between the C writer and selectolax / the Python writer on the
    probe page (None: nothing)."""
    from selectolax.lexbor import LexborHTMLParser

    names = writer.names
    tree = LexborHTMLParser(PROBE_PAGE)
    writer.start(tree.root)
    for node in tree.root.traverse(include_text=True):
        ix, _, _, attrs, text = writer.module.probe(writer.tables, node.mem_id)
        tag = node.tag
        if tag == "-text":
            if text != node.text_content:
                return f"text read as {text!r}, not {node.text_content!r}"
        elif tag and tag[0] != "-":
            if tag in xhtml.element_specs():
                expected = tag
            elif tag in xhtml.DROP_ALWAYS or not tag.isascii():
                expected = None
            else:
                expected = xhtml.renamed_to(tag)
            if (names[ix] if ix >= 0 else None) != expected:
                return f"<{tag}> read as element {ix}"
            if attrs != [(k, v or "") for k, v in node.attributes.items()]:
                return f"attributes of <{tag}> read as {attrs}"
    slow = xhtml.walk(LexborHTMLParser(PROBE_PAGE).root).finish(PageLog())
    fast = xhtml.walk(LexborHTMLParser(PROBE_PAGE).root, fast=writer).finish(PageLog())
    if fast != slow:
        return "its output differs from the Python writer's on the probe page"
    dirty = "a\x00b\x0bc\x0c\ud800\ufffe\uffff\x1f\u00e9\U0001f600\t\n\r"
    if writer.xml_clean(dirty) != xhtml.xml_clean(dirty) or writer.xml_clean("a\x01") != "a":
        return "it removes other characters than the Python writer"
    if writer.finish("<a\x001\x00 x\x000\x00>\x0b\x00", [' for="i"', ""]) != '<a x for="i"> ':
        return "it resolves IDREFs otherwise than the Python writer"
    return None
