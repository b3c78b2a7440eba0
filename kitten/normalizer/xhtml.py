"""Serialize an HTML5 parse tree as valid XHTML 1.0 Transitional, in one walk.

The parse tree comes from a conformant HTML5 parser (lexbor, via selectolax), so
tags are already closed, reordered and nested as a browser would. What remains is
to write it as XML that also validates against the XHTML 1.0 Transitional DTD,
without losing or reordering any text. The content models and attribute lists come
from the DTD itself (``xhtml1-transitional.json``, built by ``dtd_tables.py``).

For every node, in document order, the writer decides where it can go:

1. **Allowed** in the current output element: written as is.
2. **Split**: a block inside inline elements or a ``p`` (``<font><table>``,
   ``<span><div>``, ``<p><table>`` in quirks mode) closes those elements, is written
   at the nearest ancestor that accepts it, and the closed elements are re-opened
   (without their ``id``) when inline content follows.
3. **Dropped** when it carries no text: misplaced ``script``/``style``/``link``/
   ``meta``, childless misplaced elements (an empty ``form`` in a table), frames,
   templates, comments. Every drop is logged.
4. **Wrapped**: text or elements where only a given child is allowed get the
   missing wrapper (stray content of ``ul`` goes into an ``li``, of a ``tr`` into a
   ``td``, of a ``select`` into an ``option``).
5. **Renamed**: anything else becomes a ``div`` or ``span`` (HTML5 and unknown
   elements, ``li`` outside a list, blocks inside a link ...) with the class
   ``kitten-<original name>``, so later steps still know what it was.
6. **Unwrapped**: where not even a ``span`` may stand, the element is left out and
   its content placed by the same rules.

Attributes outside the DTD are dropped, but for the few that say what an element is
for, which the boilerplate gate reads (:data:`SEMANTIC_ATTRS`): an ARIA ``role``,
microdata ``itemprop`` and ``itemtype`` (the type's last path segment) and
``aria-hidden="true"`` become class tokens ``kitten.role-main``,
``kitten.itemprop-articlebody``, ``kitten.itemtype-newsarticle``, ``kitten.aria-hidden``
(:func:`semantic_classes`; ``kitten.`` never starts an original name's ``kitten-``).

Order and cardinality constraints are kept by a few element-specific rules: one
``title`` in ``head`` (added when missing), ``table`` sections in DTD order (a late
``thead``/``tfoot`` becomes a ``tbody``), lists, rows, selects and row groups that
end up empty are removed (or get an empty cell when they hold a caption), required
attributes get defaults (``img alt=""``, ``script type``), ``id``s are made valid
and unique, ``IDREF``s that point nowhere are dropped. Nesting deeper than
``max_depth`` is flattened (libxml2 refuses documents deeper than 256).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache

from kitten.log import PageLog

XHTML_NS = "http://www.w3.org/1999/xhtml"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
DOCTYPE = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
)
CLASS_PREFIX = "kitten-"
#: the class tokens that carry :data:`SEMANTIC_ATTRS` start with this
SEMANTIC_PREFIX = "kitten."
#: attributes outside XHTML 1.0 kept as class tokens (``_fastwrite.c`` leaves the
#: elements that carry one to the Python writer)
SEMANTIC_ATTRS = frozenset({"role", "itemprop", "itemtype", "aria-hidden"})
_SEMANTIC_TOKEN = re.compile(r"[a-z][a-z0-9-]*")


def semantic_classes(name: str, value: str) -> str:
    """The class tokens of a semantic attribute (empty when it says nothing).

    >>> semantic_classes("role", "Main navigation"), semantic_classes("aria-hidden", "true")
    ('kitten.role-main kitten.role-navigation', 'kitten.aria-hidden')
    >>> semantic_classes("itemtype", "https://schema.org/NewsArticle http://schema.org/Thing")
    'kitten.itemtype-newsarticle kitten.itemtype-thing'
    """
    value = value.lower()
    if name == "aria-hidden":
        return "kitten.aria-hidden" if value.strip() == "true" else ""
    if name == "itemtype":
        value = " ".join(v.rstrip("/").rsplit("/", 1)[-1] for v in value.split())
    tokens = dict.fromkeys(t for t in value.split()[:4] if _SEMANTIC_TOKEN.fullmatch(t))
    return " ".join(f"{SEMANTIC_PREFIX}{name}-{t}" for t in tokens)

# HTML elements outside XHTML 1.0 that render as blocks: they become <div>.
HTML5_BLOCKS = frozenset(
    "article aside nav section header footer main figure figcaption hgroup details "
    "summary dialog search marquee multicol frameset listing xmp plaintext".split()
)
# Originals that are blocks: when they must be renamed, prefer div over span.
BLOCK_ORIGINALS = HTML5_BLOCKS | frozenset(
    "address blockquote center dd dir div dl dt fieldset form h1 h2 h3 h4 h5 h6 hr li "
    "menu noframes noscript ol p pre table tbody thead tfoot tr td th caption ul legend "
    "optgroup option".split()
)
# Renames that are better than the generic div/span.
RENAMES = {"listing": "pre", "xmp": "pre", "plaintext": "pre", "image": "img"}
# Never written: no text a reader sees, or content that is not part of the page.
DROP_ALWAYS = frozenset("template frame embed source track wbr keygen param slot".split())
# Written only where the DTD allows them; dropped (and logged) elsewhere.
DROP_MISPLACED = frozenset("script style link meta base col colgroup area isindex basefont".split())
# Childless elements that are still content (a line break, a rule, an image).
CONTENT_VOIDS = frozenset("br hr img input".split())
# Elements that may be closed before a misplaced block and re-opened after it.
SPLITTABLE = frozenset(
    "p h1 h2 h3 h4 h5 h6 address dt span font b i u s strike em strong big small tt "
    "code kbd samp var cite dfn abbr acronym q sub sup bdo label".split()
)
# Where only some children are allowed, the wrappers that make other content fit.
WRAPPERS = {
    "ul": ("li",), "ol": ("li",), "dir": ("li",), "menu": ("li",),
    "dl": ("dd",),
    "table": ("tbody", "tr", "td"), "tbody": ("tr", "td"), "thead": ("tr", "td"),
    "tfoot": ("tr", "td"), "tr": ("td",),
    "select": ("option",), "optgroup": ("option",),
    # text or elements that cannot stand in head (a second title, stray text) are kept
    # in an <object>, the one head element whose content may be text
    "head": ("object",),
}
# Elements the DTD requires to have at least one child element (of these kinds).
REQUIRED_CHILDREN = {
    "ul": frozenset({"li"}), "ol": frozenset({"li"}), "dir": frozenset({"li"}),
    "menu": frozenset({"li"}), "dl": frozenset({"dt", "dd"}),
    "select": frozenset({"option", "optgroup"}), "optgroup": frozenset({"option"}),
    "table": frozenset({"tbody", "tr"}), "thead": frozenset({"tr"}),
    "tbody": frozenset({"tr"}), "tfoot": frozenset({"tr"}), "tr": frozenset({"td", "th"}),
    "map": None,  # any child element
}
# What an element that must not be empty gets when it holds text but no such child.
FILLERS = {
    "table": "<tbody><tr><td></td></tr></tbody>", "thead": "<tr><td></td></tr>",
    "tbody": "<tr><td></td></tr>", "tfoot": "<tr><td></td></tr>", "tr": "<td></td>",
}
# Defaults for attributes the DTD requires.
REQUIRED_DEFAULTS = {
    ("script", "type"): "text/javascript", ("style", "type"): "text/css",
    ("textarea", "rows"): "2", ("textarea", "cols"): "20", ("bdo", "dir"): "ltr",
    ("basefont", "size"): "3", ("applet", "width"): "0", ("applet", "height"): "0",
}

SKIP = object()  # start(): leave out the element and its content
_ID_ATTR = re.compile(r' id="[^"]*"')
_TABLE_PHASE = {"caption": 1, "col": 2, "colgroup": 2, "thead": 3, "tfoot": 4}
_XML_SPACE = " \t\n\r"  # white space for XML (not U+00A0, U+2003 ...)
# Attributes whose written form depends on the rest of the document (unique ids, IDREFs).
_STATEFUL_ATTRS = frozenset({"id", "for", "headers"})
_COMPACT_EVERY = 100_000  # output pieces between two joins
_IDREF_MARK = re.compile("\0(\\d+)\0")
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_NAME_BAD = re.compile(r"[^A-Za-z0-9_.\-\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")
_NAME_START = re.compile(r"[A-Za-z_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")
_CLASS_BAD = re.compile(r"[^a-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class AttrSpec:
    type: str  # cdata, id, idref, idrefs, nmtoken, enumeration
    values: frozenset[str]
    required: bool


@dataclass(frozen=True, slots=True)
class ElementSpec:
    name: str
    children: frozenset[str]  # element names, plus "#text" when text is allowed
    empty: bool
    attrs: dict[str, AttrSpec]
    #: children that need no check beyond membership (the writer's fast path)
    fast_children: frozenset[str] = frozenset()
    pcdata: bool = False
    #: REQUIRED_CHILDREN entry (False: nothing required; None: any element)
    required: frozenset[str] | None | bool = False
    #: the writer counts this element's children (required children, order rules)
    tracked: bool = False
    #: attribute name -> how its value is checked (KIND_CDATA, KIND_ENUM, KIND_ID ...)
    attr_kinds: dict[str, str] = field(default_factory=dict)


@lru_cache(maxsize=1)
def element_specs() -> dict[str, ElementSpec]:
    """The XHTML 1.0 Transitional element table (loaded once, read-only)."""
    from kitten.normalizer.dtd_tables import TABLES_PATH

    raw = json.loads(TABLES_PATH.read_text(encoding="utf-8"))["elements"]
    specs = {}
    for name, e in raw.items():
        children = set(e["children"])
        if e["pcdata"]:
            children.add("#text")
        attrs = {
            a: AttrSpec(v["type"], frozenset(v["values"]), v["default"] == "required")
            for a, v in e["attributes"].items()
            if a != "xmlns"
        }
        fast = (frozenset() if name in ORDERED and name != "head"  # (head: but its title)
                else frozenset(children - {"#text"} - _ORDERED_CHILDREN - {"meta"}))
        required = REQUIRED_CHILDREN.get(name, False)
        tracked = required is not False or name in ORDERED
        kinds = {a: _KINDS.get(v.type, KIND_IDREF) for a, v in attrs.items()}
        for special, kind in (("class", KIND_CLASS), ("style", KIND_STYLE)):
            if special in kinds:
                kinds[special] = kind
        specs[name] = ElementSpec(name, frozenset(children), e["empty"], attrs, fast, e["pcdata"],
                                  required, tracked, kinds)
    return specs


# How attribute values are checked (compared by identity in the writer; fastwrite.py
# maps them to the C writer's numbers).
KIND_CDATA, KIND_ENUM, KIND_ID, KIND_NMTOKEN, KIND_IDREF, KIND_CLASS, KIND_STYLE = (
    "cdata", "enumeration", "id", "nmtoken", "idref", "class", "style")
_KINDS = {"cdata": KIND_CDATA, "enumeration": KIND_ENUM, "id": KIND_ID, "nmtoken": KIND_NMTOKEN}

# Elements whose children are checked for order or count (the C writer leaves them to
# this one), and children that count.
ORDERED = frozenset({"table", "head", "html"})
_ORDERED_CHILDREN = frozenset({"thead", "tfoot", "caption", "col", "colgroup", "title", "html"})

# Shared strings for tags without attributes (a 50 MB page writes millions of them).
_START_TAGS = {t: f"<{t}>" for t in element_specs()}
_END_TAGS = {t: f"</{t}>" for t in element_specs()}


def escape_text(s: str) -> str:
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "<" in s:
        s = s.replace("<", "&lt;")
    if ">" in s:
        s = s.replace(">", "&gt;")
    return s


def _escape_attr(s: str) -> str:
    return escape_text(s).replace('"', "&quot;") if s else s


def class_token(name: str) -> str:
    """The class naming an original element: ``kitten-article``, ``kitten-fb-like``."""
    return CLASS_PREFIX + (_CLASS_BAD.sub("-", name.lower()).strip("-") or "x")


def renamed_to(orig: str) -> str:
    """The XHTML element written for an element XHTML does not know (with the class
    :func:`class_token`), where its parent allows it."""
    tag = RENAMES.get(orig) or ("div" if orig in HTML5_BLOCKS else "span")
    if tag not in element_specs() or tag == "img":  # "image" is written by the parser as img
        tag = "span"
    return tag


def xml_name(value: str) -> str | None:
    """``value`` made into a valid XML Name (for ``id``), or None if nothing is left."""
    v = _NAME_BAD.sub("_", value.strip())
    if not v:
        return None
    if not _NAME_START.match(v):
        v = "_" + v
    return v


def xml_nmtoken(value: str) -> str | None:
    v = _NAME_BAD.sub("_", value.strip())
    return v or None


class _Frame:
    """An element being written: an input element (possibly renamed) or a wrapper."""

    __slots__ = ("tag", "spec", "start", "start_tag", "open", "wrapper",
                 "n_required", "n_children", "phase", "titles", "cols",
                 "fast", "pcdata", "tracked")

    def __init__(self, tag: str, spec: ElementSpec, start: int, start_tag: str,
                 wrapper: bool = False):
        self.tag = tag
        self.spec = spec
        self.start = start  # index in the output list of the start tag
        self.start_tag = start_tag
        self.open = True
        self.wrapper = wrapper
        self.fast = spec.fast_children
        self.pcdata = spec.pcdata
        self.tracked = spec.tracked
        if spec.tracked:  # the counters are read for tracked elements only
            self.n_required = 0
            self.n_children = 0
            self.phase = 0  # table: 0 start, 1 caption, 2 cols, 3 thead, 4 tfoot, 5 rows
            self.titles = 0  # head: titles written
            self.cols = ""  # table: "col" or "colgroup", whichever came first


@dataclass
class SerializeStats:
    """Counts of what the writer changed, for the page log."""

    renamed: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    unwrapped: dict[str, int] = field(default_factory=dict)
    dropped_attrs: int = 0
    dropped_text: list[str] = field(default_factory=list)
    comments: int = 0
    split: int = 0
    flattened: int = 0

    def bump(self, table: dict[str, int], key: str) -> None:
        table[key] = table.get(key, 0) + 1


class _Writer:
    """Writes one document. Not reusable: one instance per page."""

    def __init__(self, max_depth: int, clean=None):
        self.specs = element_specs()
        self.clean = clean or xml_clean  # removes the characters XML does not allow
        self.out: list[str] = []
        self.stack: list[_Frame] = []
        self.max_depth = max_depth
        self.ids: set[str] = set()
        self.idrefs: list[tuple[str, str]] = []  # (attr name, value), written as "\0<n>\0"
        self.done: list[str] = []  # output already joined (see compact)
        self.compact_at = _COMPACT_EVERY
        self.stats = SerializeStats()
        self.needs_attrs = tags_with_required_attrs()
        self.fast = None  # the C writer (walk sets it) and its subtree functions
        self.subtree = self.place_subtree = None

    # ---- attributes -------------------------------------------------------------
    def attributes(self, tag: str, attrs: dict, extra_class: str | None) -> str:
        """The attributes of a start tag, made valid for ``tag`` (a string to append)."""
        spec = self.specs[tag]
        kinds = spec.attr_kinds
        parts: list[str] = []
        classes = extra_class
        style = None
        for name, value in attrs.items():
            kind = kinds.get(name)
            if value is None:
                value = ""
            if kind is KIND_CDATA:
                pass
            elif kind is None:
                if name == "hidden":
                    style = f"display:none;{style}" if style else "display:none"
                elif name in SEMANTIC_ATTRS and "class" in kinds:
                    tokens = semantic_classes(name, value)
                    if tokens:
                        classes = f"{classes} {tokens}" if classes else tokens
                    else:
                        self.stats.dropped_attrs += 1
                else:
                    self.stats.dropped_attrs += 1
                continue
            elif kind is KIND_CLASS:
                classes = f"{classes} {value}" if classes else value
                continue
            elif kind is KIND_STYLE:
                style = f"{style};{value}" if style else value
                continue
            elif kind is KIND_ENUM:
                value = value.strip().lower() or name
                if value not in spec.attrs[name].values:
                    self.stats.dropped_attrs += 1
                    continue
            elif kind is KIND_ID:
                value = self.unique_id(value)
                if value is None:
                    self.stats.dropped_attrs += 1
                    continue
            elif kind is KIND_NMTOKEN:
                value = xml_nmtoken(value)
                if value is None:
                    self.stats.dropped_attrs += 1
                    continue
            else:  # idref, idrefs: a marker, resolved once all ids are known
                parts.append(f"\0{len(self.idrefs)}\0")
                self.idrefs.append((name, value))
                continue
            if "&" in value or "<" in value or ">" in value or '"' in value:
                value = _escape_attr(value)
            parts.append(f' {name}="{value}"')
        if style and "style" in kinds:
            parts.append(f' style="{_escape_attr(style)}"')
        if classes and "class" in kinds:
            parts.append(f' class="{_escape_attr(classes)}"')
        if tag in self.needs_attrs:
            for name, a in spec.attrs.items():
                if a.required and name not in attrs:
                    parts.append(f' {name}="{self.required_default(tag, name, a)}"')
        return "".join(parts)

    def unique_id(self, value: str) -> str | None:
        v = xml_name(value)
        if v is None:
            return None
        if v in self.ids:
            n = 2
            while f"{v}-{n}" in self.ids:
                n += 1
            v = f"{v}-{n}"
        self.ids.add(v)
        return v

    def required_default(self, tag: str, name: str, a: AttrSpec) -> str:
        if a.type == "id":
            return self.unique_id(f"kitten-{tag}-{len(self.ids) + 1}") or "kitten"
        return fixed_default(tag, name, a)

    # ---- frames -----------------------------------------------------------------
    def top_open(self) -> int:
        i = len(self.stack) - 1
        while i >= 0 and not self.stack[i].open:
            i -= 1
        return i

    def allows(self, frame: _Frame, x: str) -> bool:
        if x not in frame.spec.children:
            return False
        tag = frame.tag
        if tag == "table":
            p = frame.phase
            if x == "caption":
                return p == 0
            if x == "col":
                return p <= 2 and frame.cols != "colgroup"
            if x == "colgroup":
                return p <= 2 and frame.cols != "col"
            if x == "thead":
                return p < 3
            if x == "tfoot":
                return p < 4
            return True
        if tag == "head" and x == "title":
            return frame.titles == 0
        return True

    def compact(self) -> None:
        """Join the output that no later decision can change, to save memory.

        Only an element that may still be removed (one that must have children and
        has none yet) needs its start index; everything before the first such start
        is joined into one string.
        """
        lo = min((f.start for f in self.stack
                  if f.tracked and f.open and f.n_children == 0 and f.spec.required is not False),
                 default=len(self.out))
        if lo > 0:
            self.done.append("".join(self.out[:lo]))
            del self.out[:lo]
            for f in self.stack:
                f.start = max(0, f.start - lo)
        self.compact_at = len(self.out) + _COMPACT_EVERY

    def push(self, tag: str, start_tag: str, wrapper: bool = False, parent: _Frame | None = None) -> _Frame:
        if len(self.out) > self.compact_at:
            self.compact()
        if parent is None and self.stack:
            parent = self.stack[self.top_open()]
        if parent is not None and parent.tracked:
            self.count_child(parent, tag)
            if parent.tag == "table":
                parent.phase = max(parent.phase, _TABLE_PHASE.get(tag, 5))
                if tag in ("col", "colgroup") and not parent.cols:
                    parent.cols = tag
            elif parent.tag == "head" and tag == "title":
                parent.titles += 1
        frame = _Frame(tag, self.specs[tag], len(self.out), start_tag, wrapper)
        self.out.append(start_tag)
        self.stack.append(frame)
        return frame

    @staticmethod
    def count_child(parent: _Frame, tag: str) -> None:
        """Count a child element of a tracked frame (required children, emptiness)."""
        parent.n_children += 1
        req = parent.spec.required
        if req is None or (req and tag in req):
            parent.n_required += 1

    def close(self, frame: _Frame) -> None:
        """Write the end of ``frame`` (the top of the stack) and pop it."""
        self.stack.pop()
        if not frame.open:
            return
        tag = frame.tag
        if tag == "head" and frame.titles == 0:
            self.out.append("<title></title>")
        req = frame.spec.required
        if req is not False and frame.n_required == 0:
            if frame.n_children == 0 and not any(
                s.strip() for s in self.out[frame.start + 1:]
            ):
                space = "".join(self.out[frame.start + 1:])  # white space only: keep it
                del self.out[frame.start:]
                if space:
                    self.out.append(space)
                self.stats.bump(self.stats.dropped, f"empty {tag}")
                parent = self.stack[self.top_open()] if self.stack else None
                if parent is not None and parent.tracked:
                    parent.n_children -= 1
                    preq = parent.spec.required
                    if parent.n_required and (preq is None or (preq and tag in preq)):
                        parent.n_required -= 1
                return
            filler = FILLERS.get(tag)
            if filler is None:
                filler = "<li></li>" if "li" in (req or ()) else (
                    "<dd></dd>" if tag == "dl" else "<option></option>")
            self.out.append(filler)
        self.out.append(_END_TAGS.get(tag) or f"</{tag}>")

    def suspend_above(self, j: int) -> None:
        """Close the open frames above index ``j``; they re-open when inline content follows."""
        out = self.out
        for i in range(len(self.stack) - 1, j, -1):
            f = self.stack[i]
            if f.open:
                if out[-1] is f.start_tag and f.start == len(out) - 1 and ' id="' not in f.start_tag:
                    out.pop()  # nothing written inside yet: no empty element
                else:
                    out.append(_END_TAGS.get(f.tag) or f"</{f.tag}>")
                f.open = False
        self.stats.split += 1

    def reopen(self, x: str) -> None:
        """Re-open suspended frames at the top of the stack so that ``x`` can go in the last.

        A suspended frame is re-opened only where its output parent accepts it and it
        accepts the frame (or ``x``) that must go inside it: ``<font><p>`` split around a
        table re-opens the ``p`` alone, since a ``font`` cannot hold a ``p``.
        """
        st = self.stack
        k = self.top_open()
        parent = st[k] if k >= 0 else None
        last = len(st) - 1
        inner_tag = st[last].tag
        for i in range(k + 1, len(st)):
            f = st[i]
            inner = x if i == last else inner_tag
            if parent is not None and self.allows(parent, f.tag) and self.allows(f, inner):
                f.start = len(self.out)
                self.out.append(_ID_ATTR.sub("", f.start_tag))  # a copy must not repeat the id
                f.open = True
                parent = f

    def open_wrappers(self, k: int, x: str) -> bool:
        """Open the wrappers that let ``x`` stand in frame ``k``; False if there are none."""
        chain = WRAPPERS.get(self.stack[k].tag)
        if not chain or len(self.stack) + len(chain) > self.max_depth:
            return False
        if not (x in self.specs[chain[-1]].children or x != "#text"):
            return False
        for w in chain:
            self.push(w, _START_TAGS[w], wrapper=True)
        return True

    def close_wrappers_for(self, x: str) -> None:
        """Close wrappers whose parent accepts ``x`` itself (a real ``li`` after stray text)."""
        st = self.stack
        while len(st) >= 2 and st[-1].wrapper and st[-1].open:
            i = len(st) - 2
            while i >= 0 and st[i].wrapper and st[i].open and x not in st[i].spec.children:
                i -= 1
            if i < 0 or not self.allows(st[i], x):
                return
            while len(st) - 1 > i:
                self.close(st[-1])

    # ---- placement --------------------------------------------------------------
    def place(self, x: str) -> int | None:
        """Make the output ready to receive ``x``; return the frame index or None.

        ``x`` is an output tag name or ``"#text"`` (non-whitespace text).
        """
        st = self.stack
        if st and st[-1].wrapper:
            self.close_wrappers_for(x)
        top = len(st) - 1
        if top >= 0 and not st[top].open and self.allows(st[top], x):
            self.reopen(x)
            if st[top].open:
                return top
        k = self.top_open()
        if k < 0:
            return None
        if self.allows(st[k], x):
            return k
        # split: find an ancestor across splittable open frames
        j = k
        while j >= 0 and st[j].tag in SPLITTABLE and not st[j].wrapper:
            j -= 1
            while j >= 0 and not st[j].open:
                j -= 1
            if j >= 0 and self.allows(st[j], x):
                self.suspend_above(j)
                return j
        return None

    # ---- nodes ------------------------------------------------------------------
    def text(self, s: str) -> None:
        if not s.strip(_XML_SPACE):  # never re-opens or wraps anything; XML allows it in element content
            if self.top_open() >= 0:
                self.out.append(s)
            return
        k = self.place("#text")
        if k is None:
            k = self.top_open()
            if k < 0 or not self.open_wrappers(k, "#text"):
                self.stats.dropped_text.append(s.strip()[:80])
                return
        self.out.append(escape_text(s))

    def start(self, orig: str, attrs: dict | None, has_children: bool, node=None) -> _Frame | None:
        """Write the start of an element; return its frame, None if it is not written
        (its content is, by the same rules), or ``SKIP`` if neither it nor its content is
        (or both are written already: by the C writer, given the lexbor ``node``, once
        the element is placed as it is). ``attrs``: None to read them from ``node``."""
        stats = self.stats
        if len(self.stack) >= self.max_depth:
            stats.flattened += 1
            return None
        tag = orig
        extra = None
        if tag not in self.specs:
            tag = renamed_to(orig)
            extra = class_token(orig)
        if not self.stack:  # the document element
            if tag != "html":
                raise ValueError(f"document element is <{orig}>, not <html>")
            attr_s = self.attributes(tag, node.attributes if attrs is None else attrs, None)
            return self.push(tag, f'<html xmlns="{XHTML_NS}"{attr_s}>')
        if tag in ("thead", "tfoot") and self.stack[-1].tag == "table" and not self.allows(self.stack[-1], tag):
            tag, extra = "tbody", class_token(orig)  # a second or late section: keep DTD order
            stats.bump(stats.renamed, f"{orig}>tbody")
        k = self.place(tag)
        if k is not None and self.subtree is not None and node is not None and (tag == orig or orig not in self.specs) \
                and len(self.stack) < self.max_depth:
            # placed as it is (or as the C writer renames it): the C writer may write it all
            parent = self.stack[k]
            done = self.subtree(node.mem_id, self.fast.index[parent.tag], self.max_depth - len(self.stack),
                                self.ids, self.idrefs)
            if done is not None:
                self.written(done, parent)
                return SKIP
            if not parent.tracked and self.placed(node, k, tag, extra is not None):
                return SKIP
        if attrs is None:
            attrs = node.attributes
        if k is None:
            if tag in DROP_MISPLACED or (not has_children and tag not in CONTENT_VOIDS):
                stats.bump(stats.dropped, orig)
                return SKIP
            kk = self.top_open()
            if kk >= 0 and self.open_wrappers(kk, tag):
                k = self.place(tag)
            if k is None:
                new = None
                kk = self.top_open()
                prefs = ("div", "span") if orig in BLOCK_ORIGINALS else ("span", "div")
                for cand in prefs:
                    kk2 = self.place(cand)
                    if kk2 is not None:
                        new = cand
                        break
                if new is None:
                    stats.bump(stats.unwrapped, orig)
                    return None
                stats.bump(stats.renamed, f"{orig}>{new}")
                extra = class_token(orig)
                tag = new
                if (self.subtree is not None and node is not None and not self.stack[kk2].tracked
                        and len(self.stack) < self.max_depth and self.placed(node, kk2, tag, True)):
                    return SKIP
        if tag == "meta":
            attrs = _meta_attributes(attrs)
        attr_s = self.attributes(tag, attrs, extra) if (attrs or extra or tag in self.needs_attrs) else ""
        if self.specs[tag].empty:
            self.push(tag, f"<{tag}{attr_s} />")
            self.stack.pop()
            return None
        return self.push(tag, f"<{tag}{attr_s}>" if attr_s else _START_TAGS[tag])

    def placed(self, node, k: int, tag: str, renamed: bool) -> bool:
        """Whether the C writer wrote ``node`` as ``tag`` (with the class naming the
        original when ``renamed``) in frame ``k``, just placed there, and its content
        as this writer places it (FastWriter.placer); False when it leaves it here."""
        index = self.fast.index
        chain = []  # the open frames place() may look at, from k down
        for i in range(k, -1, -1):
            f = self.stack[i]
            if f.open:
                chain.append(-1 if f.tag in ORDERED else index[f.tag])
                if f.tag not in SPLITTABLE or f.wrapper:
                    break
        else:
            chain.append(-2)
        done = self.place_subtree(node.mem_id, index[tag], renamed, chain, self.max_depth - len(self.stack),
                                  self.ids, self.idrefs)
        if done is None:
            return False
        self.out.append(done[0])
        stats = self.stats
        stats.dropped_attrs += done[1]
        stats.comments += done[2]
        for table, counts in ((stats.dropped, done[3]), (stats.renamed, done[4])):
            if counts:
                for key, n in counts.items():
                    table[key] = table.get(key, 0) + n
        return True

    def written(self, done: tuple, parent: _Frame) -> None:
        """Take in a subtree the C writer wrote in ``parent`` (see FastWriter.start)."""
        self.out.append(done[0])
        stats = self.stats
        stats.dropped_attrs += done[1]
        stats.comments += done[2]
        if parent.tracked:
            self.count_child(parent, self.fast.names[done[3]])
        if done[4]:
            for name, n in done[4].items():
                stats.dropped[name] = stats.dropped.get(name, 0) + n

    def written_run(self, done: tuple, parent: _Frame) -> None:
        """Take in a run of siblings the C writer wrote in ``parent`` (see FastWriter.run)."""
        if done[0]:  # (nothing appended for comments alone: an empty piece is not nothing)
            self.out.append(done[0])
        stats = self.stats
        stats.dropped_attrs += done[1]
        stats.comments += done[2]
        if done[4]:
            names = self.fast.names
            for ix in done[4]:
                self.count_child(parent, names[ix])
        if done[5]:
            for name, n in done[5].items():
                stats.dropped[name] = stats.dropped.get(name, 0) + n

    def end(self, frame: _Frame) -> None:
        st = self.stack
        if st[-1] is frame and frame.open and not frame.tracked:
            st.pop()
            self.out.append(_END_TAGS[frame.tag])
            return
        while st and st[-1] is not frame:
            self.close(st[-1])
        if st:
            self.close(frame)

    def finish(self, log: PageLog) -> str:
        """Close what is open, resolve IDREFs, log what was changed; the document."""
        _log_stats(self.stats, log)
        while self.stack:
            self.close(self.stack[-1])
        doc = "".join((XML_DECLARATION, DOCTYPE, *self.done, *self.out))  # one copy of the text
        self.out.clear()
        self.done.clear()
        if self.idrefs:
            written = [self._idref(name, value) for name, value in self.idrefs]
            if self.fast is not None:  # both steps below in one pass, in C
                done = self.fast.finish(doc, written)
                if done is not None:
                    return done
            doc = _IDREF_MARK.sub(lambda m: written[int(m.group(1))], doc)
        return self.clean(doc)

    def _idref(self, name: str, value: str) -> str:
        """An IDREF(S) attribute, keeping only the ids that exist in the document."""
        tokens = [t for t in value.split() if t in self.ids]
        return f' {name}="{" ".join(tokens)}"' if tokens else ""


_UTF8_DECLARATION = {"http-equiv": "Content-Type", "content": "text/html; charset=UTF-8"}


def fixed_default(tag: str, name: str, a: AttrSpec) -> str:
    """The value written for a required attribute that is missing (not an ``id``)."""
    default = REQUIRED_DEFAULTS.get((tag, name), "")
    if a.type == "enumeration" and default not in a.values:
        default = sorted(a.values)[0]
    return default


def _meta_attributes(attrs: dict) -> dict:
    """A charset declaration now declares UTF-8 (the output's encoding); Open Graph's
    ``property`` (not an XHTML attribute) becomes ``name``; other metas pass."""
    if "charset" in attrs or (attrs.get("http-equiv") or "").strip().lower() == "content-type":
        return _UTF8_DECLARATION
    if "property" in attrs and "name" not in attrs:
        return {**attrs, "name": attrs["property"]}
    return attrs


def xml_clean(doc: str) -> str:
    """``doc`` without the characters XML 1.0 does not allow (VT and FF become spaces)."""
    return _ILLEGAL_XML.sub(_illegal_replacement, doc) if _ILLEGAL_XML.search(doc) else doc


def _illegal_replacement(m: re.Match) -> str:
    return " " if m.group() in "\x0b\x0c" else ""


@lru_cache(maxsize=1)
def tags_with_required_attrs() -> frozenset[str]:
    return frozenset(t for t, s in element_specs().items() if any(a.required for a in s.attrs.values()))


def walk(root, max_depth: int = 200, fast=None) -> "_Writer":
    """Walk the tree under ``root`` once, writing it; ``finish()`` the result for the text.

    ``fast`` (a :class:`~kitten.normalizer.fastwrite.FastWriter`, optional) writes in C
    the subtrees that need no decision beyond the fast path below, runs of them, and
    elements placed here with content that needs no split or wrapper (the same output).
    Kept apart from ``finish`` so that the parse tree can be freed before the output
    is joined (a 50 MB page must stay well under 1.5 GB).
    """
    w = _Writer(max_depth, fast.xml_clean if fast is not None else None)
    subtree = fast.start(root) if fast is not None else None
    run = fast.runs() if fast is not None else None
    index = fast.index if fast is not None else None
    w.fast, w.subtree = fast, subtree
    w.place_subtree = fast.placer() if fast is not None else None
    frames: list = []  # (frame or None, lexbor node) of the elements entered
    stack, out, needs_attrs, specs = w.stack, w.out, w.needs_attrs, w.specs
    attr_cache: dict = {}  # (tag, attributes) -> (written attributes, dropped count)
    node = root
    declined = False  # the C writer declined node where it stands (in a run)
    while node is not None:
        entered = False
        tag = node.tag
        if tag == "-text":
            s = node.text_content
            if s:
                top = stack[-1] if stack else None
                if top is not None and top.open and top.pcdata:
                    if "&" in s or "<" in s or ">" in s:
                        s = escape_text(s)
                    out.append(s)
                else:
                    w.text(s)
        elif tag is None or tag == "-comment" or tag == "-doctype" or tag in DROP_ALWAYS:
            if tag == "-comment":
                w.stats.comments += 1
            elif tag is not None and tag[0] != "-":
                w.stats.bump(w.stats.dropped, tag)
        elif tag[0] != "-":
            child = node.child
            top = stack[-1] if stack else None
            writable = top is not None and top.open and len(stack) < max_depth  # in top, if it allows tag
            done = None
            if (subtree is not None and writable and top.fast and not declined
                    and (tag in top.fast or not top.wrapper)):  # (a wrapper may close for a renamed element)
                done = subtree(node.mem_id, fast.index[top.tag], max_depth - len(stack), w.ids, w.idrefs)
            if done is not None:  # the whole subtree, written in C
                w.written(done, top)
                frame = SKIP
            elif (subtree is not None and writable and tag in top.fast
                  and w.placed(node, len(stack) - 1, tag, False)):  # written in C, renames and all
                if top.tracked:
                    w.count_child(top, tag)
                frame = SKIP
            elif writable and tag in top.fast:
                # fast path: a known element where its parent allows it
                attrs = node.attributes
                if attrs:
                    key = (tag, tuple(attrs.items()))
                    cached = attr_cache.get(key)
                    if cached is None:
                        before = w.stats.dropped_attrs
                        attr_s = w.attributes(tag, attrs, None)
                        if tag != "map" and not (_STATEFUL_ATTRS & attrs.keys()):  # same in, same out
                            attr_cache[key] = (attr_s, w.stats.dropped_attrs - before)
                    else:
                        attr_s = cached[0]
                        w.stats.dropped_attrs += cached[1]
                else:
                    attr_s = w.attributes(tag, attrs, None) if tag in needs_attrs else ""
                spec = specs[tag]
                if spec.empty:
                    if top.tracked:
                        w.push(tag, f"<{tag}{attr_s} />", parent=top)
                        stack.pop()
                    else:
                        out.append(f"<{tag}{attr_s} />")
                    frame = None
                elif top.tracked or len(out) > w.compact_at:
                    frame = w.push(tag, f"<{tag}{attr_s}>" if attr_s else _START_TAGS[tag], parent=top)
                else:  # push() without the bookkeeping an untracked parent does not need
                    start_tag = f"<{tag}{attr_s}>" if attr_s else _START_TAGS[tag]
                    frame = _Frame(tag, spec, len(out), start_tag)
                    out.append(start_tag)
                    stack.append(frame)
            elif tag == "frameset" and stack and stack[-1].tag == "html":
                frame = w.start("body", {"class": class_token("frameset")}, True)
            else:
                frame = w.start(tag, None, child is not None, node)
            if frame is not SKIP:
                if child is not None:  # descend; the element ends when we climb back
                    frames.append((frame, node))
                    node = child
                    entered = True
                elif frame is not None:
                    w.end(frame)
        # next node: the child entered, a sibling, or climb up closing elements; the
        # siblings from there on that the C writer writes as they are, in one call
        nxt = node if entered else node.next
        declined = False
        while True:
            while nxt is None and frames:
                frame, node = frames.pop()
                if frame is not None:
                    if stack[-1] is frame and frame.open and not frame.tracked:
                        stack.pop()
                        out.append(_END_TAGS[frame.tag])
                    else:
                        w.end(frame)
                nxt = node.next
            node = nxt
            if node is None or run is None or not stack:
                break
            top = stack[-1]
            if not top.open or len(stack) >= max_depth:
                break
            done = run(node.mem_id, index[top.tag], max_depth - len(stack), top.wrapper, w.ids, w.idrefs)
            if done is None:
                declined = True
                break
            w.written_run(done, top)
            k = done[3]
            if k < 0:  # every sibling left: climb
                nxt = None
                continue
            for _ in range(k):
                node = node.next
            declined = True
            break
    return w


def _log_stats(stats: SerializeStats, log: PageLog) -> None:
    def fmt(d: dict[str, int]) -> str:
        return ", ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(d.items()))

    if stats.renamed:
        log.add("normalize", "renamed-elements", fmt(stats.renamed))
    if stats.dropped:
        log.add("normalize", "dropped-elements", fmt(stats.dropped))
    if stats.unwrapped:
        log.add("normalize", "unwrapped-elements", fmt(stats.unwrapped))
    if stats.split:
        log.add("normalize", "split-inline", f"{stats.split} inline element runs closed around blocks")
    if stats.flattened:
        log.add("normalize", "depth-flattened", f"{stats.flattened} elements deeper than the depth limit unwrapped")
    if stats.dropped_attrs:
        log.add("normalize", "dropped-attributes", f"{stats.dropped_attrs} attributes unknown to XHTML 1.0 or invalid")
    for t in stats.dropped_text:
        log.add("normalize", "dropped-text", repr(t))
    if stats.comments:
        log.add("normalize", "comments", f"{stats.comments} comments left out")
