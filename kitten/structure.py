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
the configured patterns (``menu`` by default, as the original system), unless such a
container holds more than ``menu_max_share`` of the page's letters (then it is kept
and logged: ``class="menu-container"`` wrapping a whole page is not a menu).
"""
from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from kitten.config import StructureConfig
from kitten.document import BR, AltText, Block, BlockKind, Document, Removal, locator_of
from kitten.language import blocks_sample, detect
from kitten.metadata import page_metadata
from kitten.log import PageLog
from kitten.normalizer.xhtml import SEMANTIC_PREFIX

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


def _letters(el) -> int:
    return sum(map(str.isalnum, "".join(el.itertext())))


@lru_cache(maxsize=32)
def _pattern(patterns: tuple[str, ...]) -> re.Pattern | None:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I) if patterns else None


def _original(cls: str, local: str) -> str:
    """The element's name before normalization (``div class="kitten-article"`` -> article)."""
    for token in cls.split():
        if token.startswith("kitten-"):
            return token[7:]
    return local


def _own_names(value: str) -> str:
    """An ``id`` or ``class`` as the page wrote it: without the ``kitten-`` of renamed
    elements and the ``kitten.`` tokens of semantic attributes (an ARIA ``role="menu"``
    is not a class the page gave)."""
    if "kitten." in value:
        value = " ".join(t for t in value.split() if not t.startswith(SEMANTIC_PREFIX))
    return value.replace("kitten-", "")


def build_document(root: etree._Element, config: StructureConfig, log: PageLog) -> Document:
    """Make the ``Document`` of a normalized XHTML tree (``root`` is its ``html`` element)."""
    declared = _language(root)
    title = ""
    head = root.find(_NS + "head")
    if head is not None:
        t = head.find(_NS + "title")
        if t is not None and t.text:
            title = " ".join(t.text.split())
    body = root.find(_NS + "body")
    doc = Document(blocks=[], lang=declared or config.default_language, title=title,
                   metadata=page_metadata(root))
    if body is not None:
        _Walker(doc, config).walk(body)
    if not declared:  # the detector reads the text just extracted (<q> marks keep the default's)
        doc.lang = detect(blocks_sample(doc.blocks, LANGUAGE_SAMPLE)) or config.default_language
    for r in doc.removals:
        log.add("structure", f"removed-{r.reason}", f"{r.locator}: {r.text!r}")
    for locator in doc.removals_kept:
        log.add("structure", "kept-menu-container", f"{locator}: matches remove_containers but holds most "
                f"of the page's text (over {config.menu_max_share:.0%})")
    for tag, text, expansion in doc.abbreviations:
        log.add("structure", tag, f"{text} ({expansion})")
    return doc


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: how much body text the language detector reads (characters)
LANGUAGE_SAMPLE = 2000


def _language(root) -> str:
    """The language of ``lang``/``xml:lang`` on ``html`` or ``body`` ("" when none); else
    ``build_document`` asks the detector (``kitten.language``) about the first 2,000
    characters of the extracted text, else takes the configured default."""
    for el in (root, root.find(_NS + "body")):
        if el is not None:
            lang = (el.get("lang") or el.get(_XML_LANG) or "").strip()
            if lang:
                return lang.split("-")[0].split("_")[0].lower()
    return ""


class _Walker:
    """One walk over ``body``: blocks, removals and abbreviation expansions."""

    def __init__(self, doc: Document, config: StructureConfig):
        self.doc = doc
        self.config = config
        self.menu = _pattern(tuple(config.remove_containers))
        self.quotes = _QUOTES.get(doc.lang, _DEFAULT_QUOTES)
        self.body_letters: int | None = None

    def _menu_or_page(self, el, body) -> str | None:
        """``"menu"``, or None (logged) when the matching container holds more than
        ``menu_max_share`` of the page's letters (``class="menu-container"`` around a
        whole page is not a menu)."""
        share = self.config.menu_max_share
        if share >= 1.0:
            return "menu"
        if self.body_letters is None:
            self.body_letters = _letters(body)
        inside = _letters(el)
        if self.body_letters and inside > share * self.body_letters:
            self.doc.removals_kept.append(locator_of(el))
            return None
        return "menu"

    def walk(self, body) -> None:
        doc, config = self.doc, self.config
        menu, quotes = self.menu, self.quotes
        # per open element: (is block, element, kind, original name, group, skipped);
        # run[0] is the block receiving inline content, made when content arrives
        contexts: list[tuple] = []
        run: list[Block | None] = [None]
        blocks = doc.blocks

        def add(item) -> None:
            block = run[0]
            if block is None:
                if item is not BR and item.isspace():
                    return  # white space before any content: nothing to start a block for
                for c in reversed(contexts):  # the innermost block context
                    if c[0]:
                        block = run[0] = Block(c[2], c[3], c[1], [], c[4])
                        break
                else:
                    return
            block.inlines.append(item)

        def flush() -> None:
            block = run[0]
            if block is not None:
                run[0] = None
                for x in block.inlines:
                    if x is not BR and not x.isspace():
                        blocks.append(block)
                        break

        walker = etree.iterwalk(body, events=("start", "end"))
        group: list = [None]
        for event, el in walker:
            tag = el.tag
            if not isinstance(tag, str):  # comments, processing instructions
                if event == "end" and el.tail:
                    add(el.tail)
                continue
            local = tag[_NS_LEN:] if tag.startswith(_NS) else tag
            if event == "start":
                cls = el.get("class")
                orig = _original(cls, local) if cls and "kitten-" in cls else local
                style = el.get("style")
                display = None
                if style and "display" in style:
                    m = _DISPLAY.search(style)
                    if m:
                        display = m.group(1).lower()
                reason = SKIPPED.get(local) if orig is local else (SKIPPED.get(local) or SKIPPED.get(orig))
                if reason is None:
                    if display == "none":
                        reason = "hidden"
                    elif menu is not None and (orig in CONTAINERS or local in CONTAINERS):
                        for value in (el.get("id"), cls):
                            if value and menu.search(_own_names(value)):
                                reason = self._menu_or_page(el, body)
                                break
                if reason is not None:
                    if reason not in _UNLOGGED:
                        text = " ".join("".join(el.itertext()).split())[:80]
                        if text or reason == "menu":
                            doc.removals.append(Removal(locator_of(el), reason, text))
                    contexts.append((False, el, "block", orig, group[-1], True))
                    walker.skip_subtree()
                    continue
                if display is None:
                    is_block = orig in BLOCKS
                else:
                    is_block = not (display.startswith("inline") or display == "contents")
                if is_block:
                    flush()
                    if orig in GROUPS:
                        group.append(el)
                    contexts.append((True, el, KINDS.get(orig, "block"), orig, group[-1], False))
                else:
                    contexts.append((False, el, "block", orig, group[-1], False))
                    if local == "br":
                        add(BR)
                    elif local == "q":
                        add(quotes[0])
                    elif local == "img" and config.img_alt:
                        alt = (el.get("alt") or "").strip()
                        if alt:
                            add(AltText(f" {alt} "))
                if el.text:
                    add(el.text)
            else:
                ctx = contexts.pop()
                if not ctx[5]:
                    if ctx[0]:
                        flush()
                        if ctx[3] in GROUPS:
                            group.pop()
                    elif local == "q":
                        add(quotes[1])
                    elif local in ("abbr", "acronym") and config.expand_abbreviations:
                        title = " ".join((el.get("title") or "").split())
                        text = " ".join("".join(el.itertext()).split())
                        if title and title.lower() != text.lower():
                            add(f" ({title})")
                            doc.abbreviations.append((local, text, title))
                if el.tail:
                    add(el.tail)
        flush()
