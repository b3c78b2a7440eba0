"""Structure step: normalized XHTML -> ``Document`` of blocks, in one walk of the tree.

Block vs inline follows HTML (the original name is used for elements the normalizer
renamed, from their ``kitten-<name>`` class), with ``display`` from an inline
``style`` honoured where it is explicit. Each block-level element ends the run of
inline content before it and starts its own; the text after it continues its parent
as a new block. Inline content keeps ``<br>`` as a break marker, adds ``<abbr>``/
``<acronym>`` titles in brackets, quotation marks around ``<q>``, and (if asked) the
``alt`` of images.

Left out, each removal recorded in ``Document.removals`` (and so in the page log):
``script``, ``style``, ``select``/``option``, ``input``, ``textarea``, elements hidden
with ``hidden`` or ``display:none``, and containers whose ``id`` or ``class`` matches
the configured patterns (``menu`` by default, as the original system).
"""
from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from kitten.config import StructureConfig
from kitten.document import BR, Block, BlockKind, Document, Removal
from kitten.log import PageLog

_NS = "{http://www.w3.org/1999/xhtml}"
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def parse_xhtml(xhtml: str) -> etree._Element:
    """Parse Kitten's own XHTML output (strict XML)."""
    return etree.fromstring(xhtml.encode("utf-8"), _XML_PARSER)

_NS_LEN = len(_NS)

BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr "
    "iframe legend li listing main menu nav noframes noscript ol p plaintext pre search "
    "section summary table tbody td tfoot th thead tr ul xmp".split()
)
KINDS: dict[str, BlockKind] = {
    **{h: "heading" for h in ("h1", "h2", "h3", "h4", "h5", "h6")},
    "p": "paragraph", "li": "list_item", "dt": "term", "dd": "definition", "td": "table_cell",
    "th": "table_cell", "caption": "caption", "figcaption": "caption", "pre": "preformatted",
    "listing": "preformatted", "xmp": "preformatted", "plaintext": "preformatted",
    "blockquote": "quote",
}
# Not text a reader of the page sees as content.
SKIPPED = {"script": "script", "style": "style", "select": "form-control", "option": "form-control",
           "input": "form-control", "textarea": "form-control", "head": "head", "map": "image-map",
           "object": "object", "applet": "object", "title": "title"}
# Never text, so not worth a log line each.
_UNLOGGED = frozenset({"script", "style", "head", "title"})
CONTAINERS = frozenset({"div", "ul", "ol", "dl", "table", "td", "form", "center", "blockquote",
                        "nav", "aside", "section", "header", "footer", "menu", "dir"})
GROUPS = frozenset({"ul", "ol", "dl", "table", "menu", "dir"})
_DISPLAY = re.compile(r"display\s*:\s*([a-z-]+)", re.I)
_QUOTES = {"fr": ("« ", " »"), "de": ("„", "“")}
_DEFAULT_QUOTES = ("“", "”")


@lru_cache(maxsize=32)
def _pattern(patterns: tuple[str, ...]) -> re.Pattern | None:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I) if patterns else None


def _original(el, local: str) -> str:
    """The element's name before normalization (``div class="kitten-article"`` -> article)."""
    cls = el.get("class")
    if cls and "kitten-" in cls:
        for token in cls.split():
            if token.startswith("kitten-"):
                return token[7:]
    return local


def build_document(root: etree._Element, config: StructureConfig, log: PageLog) -> Document:
    """Make the ``Document`` of a normalized XHTML tree (``root`` is its ``html`` element)."""
    lang = _language(root, config.default_language)
    title = ""
    head = root.find(_NS + "head")
    if head is not None:
        t = head.find(_NS + "title")
        if t is not None and t.text:
            title = " ".join(t.text.split())
    body = root.find(_NS + "body")
    doc = Document(blocks=[], lang=lang, title=title)
    if body is not None:
        _Walker(doc, config).walk(body)
    for r in doc.removals:
        log.add("structure", f"removed-{r.reason}", f"{r.locator}: {r.text!r}")
    for tag, text, expansion in doc.abbreviations:
        log.add("structure", tag, f"{text} ({expansion})")
    return doc


def _language(root, default: str) -> str:
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or ""
    return lang.split("-")[0].lower() or default


class _Walker:
    """One walk over ``body``: blocks, removals and abbreviation expansions."""

    def __init__(self, doc: Document, config: StructureConfig):
        self.doc = doc
        self.config = config
        self.menu = _pattern(tuple(config.remove_containers))
        self.quotes = _QUOTES.get(doc.lang, _DEFAULT_QUOTES)

    def walk(self, body) -> None:
        doc, config = self.doc, self.config
        tree = body.getroottree()

        def locator(el) -> str:  # computed only for what is kept or removed
            return "/html/" + tree.getelementpath(el).replace(_NS, "")

        # per open element: (is block, element, kind, original name, container, marker);
        # run[0] is the block receiving inline content, made when content arrives
        contexts: list[tuple] = []
        run: list[Block | None] = [None]
        owner: list = [None]  # the element of run[0]

        def add(item) -> None:
            block = run[0]
            if block is None:
                for c in reversed(contexts):  # the innermost block context
                    if c[0]:
                        block = run[0] = Block(c[2], c[3], "", [], c[4])
                        owner[0] = c[1]
                        break
                else:
                    return
            block.inlines.append(item)

        def flush() -> None:
            block = run[0]
            run[0] = None
            if block is not None and any(x is not BR and x.strip() for x in block.inlines):
                block.locator = locator(owner[0])
                doc.blocks.append(block)

        walker = etree.iterwalk(body, events=("start", "end"))
        container: list[str | None] = [None]
        for event, el in walker:
            tag = el.tag
            if not isinstance(tag, str):  # comments, processing instructions
                if event == "end" and el.tail:
                    add(el.tail)
                continue
            local = tag[_NS_LEN:] if tag.startswith(_NS) else tag
            if event == "start":
                orig = _original(el, local)
                reason = self._removal(el, local, orig)
                if reason is not None:
                    if reason not in _UNLOGGED:
                        text = " ".join("".join(el.itertext()).split())[:80]
                        if text or reason == "menu":
                            doc.removals.append(Removal(locator(el), reason, text))
                    contexts.append((False, el, "block", orig, container[-1], "skip"))
                    walker.skip_subtree()
                    continue
                if self._is_block(el, orig):
                    flush()
                    if orig in GROUPS:
                        container.append(locator(el))
                    contexts.append((True, el, KINDS.get(orig, "block"), orig, container[-1], orig))
                else:
                    contexts.append((False, el, "block", orig, container[-1], orig))
                    if local == "br":
                        add(BR)
                    elif local == "q":
                        add(self.quotes[0])
                    elif local == "img" and config.img_alt:
                        alt = (el.get("alt") or "").strip()
                        if alt:
                            add(f" {alt} ")
                if el.text:
                    add(el.text)
            else:
                ctx = contexts.pop()
                if ctx[5] != "skip":
                    if ctx[0]:
                        flush()
                        if ctx[5] in GROUPS:
                            container.pop()
                    elif local == "q":
                        add(self.quotes[1])
                    elif local in ("abbr", "acronym") and config.expand_abbreviations:
                        title = " ".join((el.get("title") or "").split())
                        text = " ".join("".join(el.itertext()).split())
                        if title and title.lower() != text.lower():
                            add(f" ({title})")
                            doc.abbreviations.append((local, text, title))
                if el.tail:
                    add(el.tail)
        flush()

    def _is_block(self, el, orig: str) -> bool:
        style = el.get("style")
        if style and "display" in style:
            m = _DISPLAY.search(style)
            if m:
                value = m.group(1).lower()
                if value.startswith("inline") or value == "contents":
                    return False
                if value != "none":
                    return True
        return orig in BLOCKS

    def _removal(self, el, local: str, orig: str) -> str | None:
        """Why ``el`` and its content are left out, or None."""
        reason = SKIPPED.get(local) or SKIPPED.get(orig)
        if reason is not None:
            return reason
        style = el.get("style")
        if style and "display" in style:
            m = _DISPLAY.search(style)
            if m and m.group(1).lower() == "none":
                return "hidden"
        if self.menu is not None and (local in CONTAINERS or orig in CONTAINERS):
            for attr in ("id", "class"):
                value = el.get(attr)
                if value and self.menu.search(value.replace("kitten-", "")):
                    return "menu"
        return None
