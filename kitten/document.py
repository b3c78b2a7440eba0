"""The document model: a page as a sequence of typed blocks.

A ``Document`` is what the structure step makes of the normalized XHTML and what the
later steps (tables, lists, boilerplate, segmentation) read. Every block keeps its
source element, whose locator (an XPath, ``Document.locate``) dumps and JSON show so
that each sentence can be traced to where it came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Literal

from kitten.metadata import PageMetadata
from kitten.native import checked

BlockKind = Literal[
    "heading", "paragraph", "list_item", "term", "definition", "table_cell", "caption",
    "preformatted", "quote", "block",
    "table_row",  # a clause written by the tables step for one data row
    "list",  # a sentence written by the lists step (a flattened list, an item with its clause)
]


class Break:
    """A line break (``<br>``) inside a block's inline content."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "BR"


BR = Break()


class AltText(str):
    """An image's ``alt`` text inside a block's inline content (``[structure] img_alt``):
    a string like any other, marked so the boilerplate step can label it as a unit of
    its own (``kitten/boilerplate/units.py``)."""

    __slots__ = ()


class Expansion(str):
    """What the structure step adds after an ``<abbr>``/``<acronym>``: its title in
    brackets (``" (World Health Organization)"``, ``[structure] expand_abbreviations``);
    a string like any other, marked so that the faithful style leaves it out
    (``kitten/faithful.py``)."""

    __slots__ = ()


Inline = str | Break


_XHTML = "{http://www.w3.org/1999/xhtml}"


class Locators:
    """Locators of the elements of one XHTML tree: ``/html/body/div[2]/p`` (``[n]`` counts
    the siblings of the same name, as lxml's ``getelementpath``, and is left out for an
    only child of its name).

    Computed when asked, each parent's children counted once, the first time one of them
    is asked for: the locators of every block of a page cost time linear in the page
    (``getelementpath`` counts the siblings again for each element, quadratic on a page of
    thousands of sibling blocks). One instance per tree (``Document.locate``); the tree
    must not change after the first question.
    """

    __slots__ = ("_paths", "_steps")

    def __init__(self) -> None:
        self._paths: dict[Any, str] = {}  # element -> its locator
        self._steps: dict[Any, str] = {}  # element -> its last step ("div[2]")

    def __call__(self, element) -> str | None:
        if element is None:
            return None
        path = self._paths.get(element)
        if path is None:
            parent = element.getparent()
            if parent is None:
                path = "/html/."
            else:
                step = self._steps.get(element)
                if step is None:
                    self._index(parent)
                    step = self._steps[element]
                path = ("/html" if parent.getparent() is None else self(parent)) + "/" + step
            self._paths[element] = path
        return path

    def _index(self, parent) -> None:
        c = _c_child_steps()
        self._steps.update(c(parent) if c is not None else child_steps_python(parent))


def child_steps_python(parent) -> list[tuple[Any, str]]:
    """``(child, its last locator step)`` for each child element of ``parent``
    (``kitten._structure.child_steps`` in C)."""
    children = [c for c in parent if isinstance(c.tag, str)]  # elements, not comments
    total: dict[str, int] = {}
    for c in children:
        total[c.tag] = total.get(c.tag, 0) + 1
    seen: dict[str, int] = {}
    steps = []
    for c in children:
        tag = c.tag
        name = tag.replace(_XHTML, "")
        if total[tag] > 1:
            seen[tag] = n = seen.get(tag, 0) + 1
            name = f"{name}[{n}]"
        steps.append((c, name))
    return steps


#: children the C steps must name as Python does: repeated and single names, another
#: namespace, no namespace, comments and processing instructions between them
PROBE_CHILDREN = (f'<div xmlns="{_XHTML[1:-1]}" xmlns:s="http://www.w3.org/2000/svg"><p/><!-- c --><p/><a/>'
                  '<s:a/><s:a/><s:b/><?pi x?><b xmlns=""/><p/><b/></div>')


@lru_cache(maxsize=1)
def _c_child_steps():
    """``kitten._structure.child_steps``, or None when the module is not built or names the
    probe children otherwise than :func:`child_steps_python` (logged; :func:`kitten.native.checked`)."""
    from lxml import etree

    parent = etree.fromstring(PROBE_CHILDREN)
    return checked("kitten._structure", "child_steps", lambda c: c(parent) == child_steps_python(parent))


def locator_of(element) -> str | None:
    """The locator of one element (``Locators``; for many elements of a tree, keep one
    ``Locators``: ``Document.locate``)."""
    return Locators()(element)


@dataclass(slots=True)
class Block:
    """A run of inline content that stands on its own: a heading, a paragraph, a list
    item, a table cell read linearly, the text directly inside a ``div`` ..."""

    kind: BlockKind
    tag: str  # the source element's original name (``kitten-article`` class resolved)
    source: Any = field(repr=False, compare=False)  # the element of the XHTML tree
    inlines: list[Inline] = field(default_factory=list)
    #: the innermost list or table element the block belongs to (None outside them),
    #: for the list and table steps
    group: Any = field(default=None, repr=False, compare=False)

    def text(self) -> str:
        """The block's text with line breaks as newlines (white space not collapsed)."""
        inlines = self.inlines
        if BR not in inlines:  # most blocks: no line break
            return "".join(inlines)  # type: ignore[arg-type]
        return "".join("\n" if x is BR else x for x in inlines)


@dataclass(frozen=True, slots=True)
class Abbreviation:
    """An ``<abbr>`` or ``<acronym>`` with a title, and what the structure step did with it."""

    tag: str  # "abbr" or "acronym"
    text: str
    title: str
    expanded: bool  # the title was added in brackets after the text
    reason: str = ""  # why not: "repeated", "date or number", "url", "no letters", "same as text"

    def as_dict(self) -> dict:
        d = {"tag": self.tag, "text": self.text, "title": self.title, "expanded": self.expanded}
        if self.reason:
            d["reason"] = self.reason
        return d


@dataclass(frozen=True, slots=True)
class Removal:
    """Something the structure step left out, and why (shown in dumps and logs)."""

    element: Any = field(repr=False)  # the removed element of the XHTML tree
    reason: str  # "menu", "hidden", "form-control", "script" ...
    text: str  # the first characters of what was removed
    locate: Locators = field(repr=False, compare=False)  # the document's

    @property
    def locator(self) -> str:
        """The removed element's locator, computed when asked (a text output shows none,
        and a page removes hundreds of elements)."""
        return self.locate(self.element)

    def message(self) -> str:
        """The log line of the removal (``PageLog.add`` calls it when the log is read)."""
        return f"{self.locator}: {self.text!r}"


@dataclass(slots=True)
class Document:
    blocks: list[Block]
    lang: str  # "en", "fr" ... the language of the rules (declared, guessed from function words, or the default)
    title: str = ""
    #: what the page declares about itself (``kitten.metadata``)
    metadata: PageMetadata = field(default_factory=PageMetadata)
    removals: list[Removal] = field(default_factory=list)
    #: every ``<abbr>``/``<acronym>`` with a title, expanded or not (and why not)
    abbreviations: list[Abbreviation] = field(default_factory=list)
    #: containers a removal rule matched but that were kept (a "menu" that reads like an
    #: article, a visibility:hidden wrapper holding the page's text), with why
    removals_kept: list[tuple[str, str, str]] = field(default_factory=list)  # (locator, log kind, why)
    #: what the tables and lists steps found and did, one reading per leaf table / list,
    #: each with an ``as_dict()`` for JSON output
    tables: list[Any] = field(default_factory=list)
    lists: list[Any] = field(default_factory=list)
    #: the gate step's reading: each unit the boilerplate CRF labelled, with its label
    #: and content probability (empty without the gate)
    gate: list[Any] = field(default_factory=list)
    #: the locators of the tree's elements (blocks' ``source`` and ``group``, readings'
    #: elements), shared by the copies the later steps make
    locate: Locators = field(default_factory=Locators, repr=False, compare=False)
    #: element of the tree -> its path in the original page as the HTML5 parser read it
    #: (``kitten/normalizer/origins.py``); None when not asked for (only JSON asks)
    origins: dict[Any, str] | None = field(default=None, repr=False, compare=False)
    #: the page's JSON-LD ``script`` elements in document order, as the structure step
    #: found them (``kitten.metadata.json_ld_scripts`` of the whole page); None when not
    #: known (a document built otherwise: readers then search the tree)
    json_ld: list | None = field(default=None, repr=False, compare=False)
    #: the kind of page (``kitten.page_type.PageType``: article, forum, product ...), read
    #: when the gate runs; None otherwise
    page_type: Any = None
    #: the language the page declares (``structure.declared_language``: ISO 639-1 when it
    #: has one), None when it declares none
    declared_lang: str | None = None

    def original(self, element) -> str | None:
        """The path of ``element`` in the original page, None when unknown (an element
        the writer added, a page read without provenance)."""
        return self.origins.get(element) if self.origins is not None and element is not None else None


@dataclass(frozen=True, slots=True, init=False)
class Sentence:
    """One segment of output: a sentence (or a line that stands alone), with its block."""

    text: str
    block: Block = field(repr=False, compare=False)
    #: where the sentence is in its block's text (white space collapsed): [start, end)
    #: before a full stop was added; None when the steps rewrote the text (clauses)
    start: int | None = None
    end: int | None = None

    def __init__(self, text: str, block: Block, start: int | None = None, end: int | None = None) -> None:
        # the __init__ dataclasses writes for a frozen class, with the fields' slots set
        # directly (``_SET_SENTENCE``) instead of through object.__setattr__: 40% less
        # time, and the segment step makes one Sentence per sentence of every page
        set_text, set_block, set_start, set_end = _SET_SENTENCE
        set_text(self, text)
        set_block(self, block)
        set_start(self, start)
        set_end(self, end)

    @property
    def kind(self) -> BlockKind:
        return self.block.kind


def slot_setters(cls) -> tuple:
    """The setters of the slots of a frozen, slotted dataclass's fields, in field order:
    for an ``__init__`` that sets them directly instead of through
    ``object.__setattr__`` (a class made once per sentence or unit of every page)."""
    return tuple(getattr(cls, f.name).__set__ for f in fields(cls))


#: the setters of Sentence's slots (text, block, start, end)
_SET_SENTENCE = slot_setters(Sentence)
