"""The page of a report: Kitten's XHTML of the page with every decision drawn on it.

``draw`` takes the normalized XHTML and the JSON of the page (what ``--format json``
writes: blocks, sentences, removals, abbreviations, gate, tables, lists) and returns
the page's body as HTML to put in the report:

- nothing is fetched: ``script``, ``style``, ``link``, ``meta``, ``base`` and frames'
  documents go, and so do every attribute that loads something (``src``, ``srcset``,
  ``href``, ``poster``, ``background``, ``action`` ...), event handlers and ``style``
  attributes (the page is drawn with the report's style only); an image becomes its
  ``alt`` text in a box;
- every element the JSON names by its locator carries ``data-b`` (a block number the
  output text links to), and classes for what was decided: ``kg-<label>`` with
  ``data-p`` (the gate's label and content probability), ``kt-data``/``kt-layout``
  (tables, with a badge of the score) and ``kc-<type>`` (cell types), ``kl`` (lists,
  with a badge of the type and the rule) and ``kl-removed`` (link items removed),
  ``kx`` with ``data-why`` (containers the structure step left out), ``ka-yes``/
  ``ka-no`` (abbreviations expanded or not, and why), ``k-out`` (blocks with output
  sentences) or ``k-none`` (blocks without).
"""
from __future__ import annotations

from collections import defaultdict, deque
from typing import Any

from lxml import etree

from kitten.document import Locators
from kitten.structure import parse_xhtml
from kitten.tables.grid import row_elements

_NS = "{http://www.w3.org/1999/xhtml}"
#: elements dropped from the drawing (they fetch, run or carry nothing visible)
_DROPPED = frozenset(_NS + t for t in ("script", "style", "link", "meta", "base", "head"))
#: attributes that make a browser fetch or run something (by local name)
_FETCHING = frozenset({"src", "srcset", "href", "poster", "background", "action", "formaction", "data",
                       "codebase", "archive", "lowsrc", "dynsrc", "longdesc", "manifest", "ping", "srcdoc",
                       "style", "profile", "usemap", "http-equiv"})
_CELLS = frozenset({_NS + "td", _NS + "th"})
_ITEMS = frozenset({_NS + "li", _NS + "dt", _NS + "dd"})
_ABBR = frozenset({_NS + "abbr", _NS + "acronym"})


def collapse(text: str) -> str:
    return " ".join(text.split())


class Drawing:
    """The annotated tree of one page and the block number of each locator."""

    def __init__(self, xhtml: str) -> None:
        self.root = parse_xhtml(xhtml)
        locate = Locators()
        self.elements: dict[str, Any] = {locate(el): el for el in self.root.iter() if isinstance(el.tag, str)}
        self.blocks: dict[str, int] = {}  # locator -> block number (data-b)

    def block(self, locator: str) -> int | None:
        """The block number of ``locator`` (given to its element on first use), None when
        the locator names no element of the page."""
        number = self.blocks.get(locator)
        if number is None:
            el = self.elements.get(locator)
            if el is None:
                return None
            number = self.blocks[locator] = len(self.blocks)
            el.set("data-b", str(number))
        return number

    def mark(self, locator: str | None, cls: str, **attrs: str) -> Any:
        el = self.elements.get(locator or "")
        if el is not None:
            add_class(el, cls)
            for k, v in attrs.items():
                el.set(k.replace("_", "-"), v)
        return el


def add_class(el, cls: str) -> None:
    old = el.get("class")
    el.set("class", f"{old} {cls}" if old else cls)


def badge(el, text: str, cls: str) -> None:
    """A label drawn just before ``el`` (a table, a list)."""
    b = etree.Element(_NS + "div", {"class": f"k-badge {cls}"})
    b.text = text
    el.addprevious(b)


def draw(xhtml: str, data: dict) -> tuple[str, dict[str, int]]:
    """The page's body (an HTML ``div.k-page``) with the decisions of ``data`` drawn on it,
    and the block number of each locator that names an element."""
    d = Drawing(xhtml)
    sentence_blocks = set()
    for s in data.get("sentences", ()):
        if d.block(s.get("locator", "")) is not None:
            sentence_blocks.add(s["locator"])
    for b in data.get("blocks", ()):
        if d.block(b.get("locator", "")) is not None and b["locator"] not in sentence_blocks:
            d.mark(b["locator"], "k-none")
    for loc in sentence_blocks:
        d.mark(loc, "k-out")
    _gate(d, data.get("gate", ()))
    _tables(d, data.get("tables", ()))
    _lists(d, data.get("lists", ()))
    for r in data.get("removals", ()):
        d.mark(r.get("locator"), "kx", data_why=r.get("reason", ""))
    _abbreviations(d, data.get("abbreviations", ()))
    return _html(d.root), d.blocks


def _gate(d: Drawing, units) -> None:
    best: dict[str, dict] = {}
    for u in units:
        loc = u.get("locator", "")
        if loc not in best or u["probability"] > best[loc]["probability"]:
            best[loc] = u
    for loc, u in best.items():
        if d.block(loc) is not None:
            p = u["probability"]
            d.mark(loc, f"kg kg-{u['label']}", data_g=u["label"], data_p=f"{p:.2f}",
                   title=f"gate: {u['label']}, p(content) = {p:.2f}")


def _tables(d: Drawing, tables) -> None:
    for t in tables:
        el = d.mark(t.get("locator"), f"kt kt-{t['class']}")
        if el is None:
            continue
        fixes = ", ".join(t.get("heuristics") or ())
        badge(el, f"table {t['index']}: {t['class']} (score {t['score']:.2f})" + (f"; {fixes}" if fixes else ""),
              f"kt-{t['class']}")
        cells = t.get("cells")
        if not cells:
            continue
        elements = [td for _, tr in row_elements(el) for td in tr if td.tag in _CELLS]
        for td, cell in zip(elements, cells):
            add_class(td, f"kc kc-{cell['type']}")
            td.set("data-c", cell["type"])


def _lists(d: Drawing, lists) -> None:
    for lst in lists:
        el = d.mark(lst.get("locator"), f"kl kl-{lst['type']}")
        if el is None:
            continue
        clause = f" clause: \u201c{lst['clause']}\u201d" if lst.get("clause") else ""
        badge(el, f"list {lst['type']}: {lst['rule']}{clause}", "kl-badge")
        removed = defaultdict(int)
        for text in lst.get("removed") or ():
            removed[collapse(text)] += 1
        for item in el:
            if item.tag in _ITEMS:
                text = collapse("".join(item.itertext()))
                if removed.get(text):
                    removed[text] -= 1
                    add_class(item, "kl-removed")
                    item.set("title", "link item removed")


def _abbreviations(d: Drawing, abbreviations) -> None:
    todo: dict[tuple[str, str], deque] = defaultdict(deque)
    for a in abbreviations:
        todo[(a.get("text", ""), a.get("title", ""))].append(a)
    if not todo:
        return
    for el in d.root.iter(*_ABBR):
        key = (collapse("".join(el.itertext())), collapse(el.get("title") or ""))
        if todo.get(key):
            a = todo[key].popleft()
            add_class(el, "ka-yes" if a["expanded"] else "ka-no")
            if not a["expanded"]:
                el.set("data-why", a.get("reason", ""))


def _html(root) -> str:
    """The annotated body as HTML that fetches and runs nothing."""
    for el in list(root.iter(*_DROPPED)):
        parent = el.getparent()
        if parent is not None:
            _drop_keeping_tail(el)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for name in list(el.attrib):
            local = etree.QName(name).localname
            if local in _FETCHING or local.startswith("on"):
                del el.attrib[name]
        if el.tag.startswith("{"):
            local = etree.QName(el).localname
            if local == "img":
                el.attrib.pop("width", None)
                el.attrib.pop("height", None)
                local = "span"
                add_class(el, "k-img")
                el.text = f"[{el.get('alt') or 'image'}]"
            elif local == "noscript":
                local = "div"
            el.tag = local
    etree.cleanup_namespaces(root)
    body = root.find("body")
    if body is None:
        return '<div class="k-page"></div>'
    body.tag = "div"
    add_class(body, "k-page")
    body.tail = None
    return etree.tostring(body, method="html", encoding="unicode")


def _drop_keeping_tail(el) -> None:
    parent = el.getparent()
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
