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

import logging
import re
from functools import lru_cache
from typing import Callable

from lxml import etree

from kitten.config import StructureConfig
from kitten.document import BR, Abbreviation, AltText, Block, BlockKind, Document, Expansion, Removal
from kitten.language import blocks_sample, detect, normalize_code
from kitten.metadata import json_ld_scripts, page_metadata
from kitten.native import checked
from kitten.log import PageLog
from kitten.normalizer.xhtml import SEMANTIC_PREFIX
from kitten.resources import lines
from kitten.screen_reader import without_phrases

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
           "object": "object", "applet": "object", "title": "title", "template": "template",
           # what a browser running scripts does not show ("enable JavaScript", tracking
           # pixels), unless the page is an app shell (:func:`_app_shell_noscripts`)
           "noscript": "noscript",
           # annotations a reader does not see in the text: SVG descriptions, ruby readings
           "desc": "svg-annotation", "rt": "ruby-annotation", "rp": "ruby-annotation"}
# Never text, so not worth a log line each.
_UNLOGGED = frozenset({"script", "style", "head", "title", "ruby-annotation"})
CONTAINERS = frozenset({"div", "ul", "ol", "dl", "table", "td", "form", "center", "blockquote",
                        "nav", "aside", "section", "header", "footer", "menu", "dir"})
GROUPS = frozenset({"ul", "ol", "dl", "table", "menu", "dir"})
_ANNOTATIONS = frozenset({"annotation", "annotation-xml"})
#: more elements a consent banner comes in (checked for consent only)
_BANNERS = frozenset({"dialog", "article", "main"})
_DISPLAY = re.compile(r"display\s*:\s*([a-z-]+)", re.I)
_INVISIBLE = re.compile(r"visibility\s*:\s*(?:hidden|collapse)", re.I)
#: Default-ignorable characters that carry nothing for a parser: soft hyphen, zero-width
#: space, word joiner, BOM, bidi marks and controls, invisible operators, variation
#: selectors, tags, Hangul fillers. ZWJ and ZWNJ (U+200D, U+200C) stay: they change
#: words in Indic, Persian and other scripts, and emoji sequences.
IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f"
                       "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
                       "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def char_ranges(pattern: re.Pattern) -> tuple[tuple[int, int], ...] | None:
    """The code points a pattern of one character class (without flags) matches, as
    ``(first, last)`` ranges, or None for any other pattern: the C walk looks for
    :data:`IGNORABLE`'s characters itself."""
    try:
        try:
            from re import _parser
        except ImportError:  # Python 3.10
            import sre_parse as _parser
        items = list(_parser.parse(pattern.pattern))
    except Exception:  # noqa: BLE001 - another Python's parser
        return None
    if pattern.flags & ~re.UNICODE or len(items) != 1 or items[0][0] is not _parser.IN:
        return None
    ranges = []
    for op, av in items[0][1]:
        if op is _parser.LITERAL:
            ranges.append((av, av))
        elif op is _parser.RANGE:
            ranges.append(av)
        else:
            return None
    return tuple(ranges)


_IGNORABLE_RANGES = char_ranges(IGNORABLE)

#: Abbreviation titles that are not expansions: dates and times (ISO 8601), numbers, URLs
_NOT_EXPANSION = (
    ("date or number", re.compile(r"^[\d\s.,:;/+\-–—()%]+$|^\d{4}-\d\d(-\d\d)?([T ]\d\d?:\d\d(:\d\d([.,]\d+)?)?"
                                  r"\s*(Z|[+-]\d\d:?\d\d)?)?$", re.I)),
    ("url", re.compile(r"^(https?://|www\.|mailto:)\S+$", re.I)),
)
_QUOTES = {"fr": ("« ", " »"), "de": ("„", "“")}
#: a <q> whose text starts or ends with a quotation mark already has its marks
_QUOTED = re.compile(r"^\s*[\"'“”‘’«»„‚‹›「」『』]|[\"'“”‘’«»‹›「」『』]\s*$")
_DEFAULT_QUOTES = ("“", "”")


_INVISIBLE_TAGS = (_NS + "script", _NS + "style")


def _alnum(text: str) -> int:
    """The characters of ``text`` that are not white space (letters, digits, marks: a
    measure of text for shares, counted in C)."""
    return len("".join(text.split()))


def _letters(el, limit: int = -1) -> int:
    """Characters a reader sees in ``el`` (script and style text and white space left out),
    or ``limit`` when there are more (``-1``: no limit; the count stops there); counted in
    C when ``kitten._structure`` is built (:func:`letters_python` otherwise)."""
    c = _c_reader("visible_letters")
    return c(el, limit) if c is not None else letters_python(el, limit)


def letters_python(el, limit: int = -1) -> int:
    """:func:`_letters` in Python."""
    n = _alnum("".join(el.itertext()))
    for hidden in el.iter(*_INVISIBLE_TAGS):
        n -= _alnum("".join(hidden.itertext()))
    return n if limit < 0 else min(n, limit)


#: how much of a removed element's text its ``Removal`` shows (characters)
REMOVAL_TEXT = 80


def _text_start(el, limit: int) -> str:
    """The first ``limit`` characters of ``el``'s text, white space collapsed, without
    joining all of a big element's text; in C when ``kitten._structure`` is built
    (:func:`text_start_python` otherwise)."""
    c = _c_reader("text_start")
    return c(el, limit) if c is not None else text_start_python(el, limit)


def text_start_python(el, limit: int) -> str:
    """:func:`_text_start` in Python: once the collapsed text read so far is ``limit``
    long, what follows cannot change its first ``limit`` characters (it can only extend
    the last word)."""
    parts: list[str] = []
    for text in el.itertext():
        parts.append(text)
        if len(text) >= limit or len(parts) % 8 == 0:
            start = " ".join("".join(parts).split())
            if len(start) >= limit:
                return start[:limit]
    return " ".join("".join(parts).split())[:limit]


def shown_text(el) -> str:
    """The text of ``el`` outside script and style, lower case: what the consent rules
    (here, and the gate's consent dialogs) look for their phrases in."""
    return " ".join(_visible_text(el)).lower()


def _visible_text(el, out: list[str] | None = None) -> list[str]:
    """The text nodes of ``el`` outside script and style, in document order."""
    out = [] if out is None else out
    if el.tag in _INVISIBLE_TAGS:
        return out
    if isinstance(el.tag, str) and el.text:  # a comment's text is not shown
        out.append(el.text)
    for child in el:
        _visible_text(child, out)
        if child.tail:
            out.append(child.tail)
    return out


def _reads_like_navigation(el, letters: int) -> bool:
    """Mostly link text, or only short runs of text (menu items, not paragraphs)."""
    if letters < 30:
        return True
    c = _c_reader("navigation_measures")
    links, longest = c(el) if c is not None else navigation_measures_python(el)
    return 2 * links >= letters or longest <= 80


def navigation_measures_python(el) -> tuple[int, int]:
    """What :func:`_reads_like_navigation` reads of ``el``: the letters of its links (each
    ``<a>``, ``el`` included, counted with its whole text), and its longest text outside
    script and style, stripped (``kitten._structure.navigation_measures`` in C)."""
    links = sum(_alnum("".join(a.itertext())) for a in el.iter(_NS + "a"))
    return links, max((len(t.strip()) for t in _visible_text(el)), default=0)


#: splits an id or class into name tokens: white space, - _ . :, camelCase, digits
_NAME_SPLIT = re.compile(r"[\s_\-.:]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def name_tokens(value: str) -> list[str]:
    """``tab-menu--product`` -> ``["tab", "menu", "product"]``; ``mainMenu2`` ->
    ``["main", "menu", "2"]`` (lower case; ``kitten-``/``kitten.`` tokens as
    :func:`_own_names`)."""
    return [t.lower() for t in _NAME_SPLIT.split(_own_names(value)) if t]


@lru_cache(maxsize=32)
def _pattern(patterns: tuple[str, ...]) -> re.Pattern | None:
    """One pattern that must match a whole name token."""
    return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + r")\Z", re.I) if patterns else None


@lru_cache(maxsize=32)
def _hint(patterns: tuple[str, ...]) -> re.Pattern:
    """The patterns of :func:`_pattern` anywhere in a lower-cased string (a quick test
    before the string is split into name tokens; no IGNORECASE: it is slower)."""
    return re.compile("|".join(f"(?:{p.lower()})" for p in patterns) or "(?!)")


@lru_cache(maxsize=32)
def required_literals(pattern: str) -> tuple[str, ...] | None:
    """Strings of which every match of ``pattern`` (lower-cased, as :func:`_hint` reads
    it) contains one, or None when the pattern has no such set (``x.*``): a quick test in
    C before the regular expression is asked."""
    try:
        try:
            from re import _parser  # the parser of the standard library's ``re``
        except ImportError:  # Python 3.10
            import sre_parse as _parser
        return _sequence_literals(list(_parser.parse(pattern.lower())), _parser)
    except Exception:  # noqa: BLE001 - another Python's parser: no quick test
        return None


def _sequence_literals(items: list, parser) -> tuple[str, ...] | None:
    """:func:`required_literals` of a parsed sequence: its longest run of literal
    characters, or the literals of a group or of every branch of an alternation in it
    (the choice whose shortest string is longest)."""
    choices: list[tuple[str, ...]] = []
    run: list[str] = []
    for op, av in items + [(None, None)]:
        if op is parser.LITERAL:
            run.append(chr(av))
            continue
        if run:
            choices.append(("".join(run),))
            run = []
        if op is parser.SUBPATTERN:
            inner = _sequence_literals(list(av[3]), parser)
        elif op is parser.BRANCH:
            branches = [_sequence_literals(list(b), parser) for b in av[1]]
            inner = None if None in branches else tuple(x for b in branches for x in b)
        else:
            continue
        if inner:
            choices.append(inner)
    return max(choices, key=lambda c: min(map(len, c)), default=None)


@lru_cache(maxsize=8)
def consent_rules(rules: str) -> tuple[frozenset[str], tuple[str, ...], re.Pattern]:
    """The ``@names`` and ``@phrases`` of ``rules/consent.txt``, and a pattern that finds
    any of the names inside an id or class (a quick test before splitting it)."""
    names: set[str] = set()
    phrases: list[str] = []
    section = None
    for line in lines(rules, "", "consent.txt"):
        if line.startswith("@"):
            section = line[1:]
        elif section == "names":
            names.add(line.lower())
        elif section == "phrases":
            phrases.append(line.lower())
    hint = re.compile("|".join(map(re.escape, sorted(names))) or "(?!)")  # names are lower case
    return frozenset(names), tuple(phrases), hint


@lru_cache(maxsize=8)
def _hidden_rules(classes: tuple[str, ...]) -> tuple[frozenset[str], re.Pattern | None]:
    """The hidden classes as a set, and a pattern finding any of them inside a class
    attribute (a quick test before splitting it; None when there are none)."""
    return frozenset(classes), re.compile("|".join(map(re.escape, classes))) if classes else None


@lru_cache(maxsize=8)
def _name_literals(patterns: tuple[str, ...], consent: tuple | None) -> tuple[str, ...] | None:
    """The strings of ``_Walker.name_literals``: the required literals of each menu
    pattern and the consent names, shortest first, none containing another."""
    literals = set(consent[0]) if consent is not None else set()
    for p in patterns:
        required = required_literals(p)
        if required is None:
            return None
        literals.update(required)
    ordered = sorted(literals, key=lambda x: (len(x), x))
    return tuple(x for i, x in enumerate(ordered) if x and not any(y in x for y in ordered[:i]))


#: an element hidden by ``display:none`` is kept when it holds at least this many letters
#: and this share of the letters of the page's main element (``<main>``, ``role="main"``),
#: or of the page's when it has none: on web2025, two shops whose lock-down app shows the
#: page by script (92% and 82%) against a page's Markdown copy for machines (50%) and
#: hidden tabs, comments and duplicates (55-61%; Dragnet 441: 1,300 words of a 129-word gold)
HIDDEN_SHOWN_LETTERS = 200
HIDDEN_SHOWN_SHARE = 0.8
#: the elements of a subtree whose inline style mentions ``display`` (one XPath call)
_STYLED = etree.XPath(".//*[contains(@style, 'display')]")

#: a tab panel a reader opens with one click (``role="tabpanel"``, Bootstrap's and other
#: frameworks' tab panes): its text is read even while ``display:none`` or ``hidden``. The
#: other languages of a documentation page's code samples, a product's specifications
#: tab: on web2025's training sites 82% of the word pairs of hidden tab panels are in
#: the gold (documentation 87%), against 3-21% for the other hidden elements (menus,
#: dialogs, dropdowns). The gate, when on, judges their text like any other.
_TAB_PANEL = re.compile(r"(?:^|\s)(?:kitten\.role-tabpanel|tab-?pane|tab-?panel|tabs?__panel)(?:\s|$)", re.I)


def _main_of(el):
    """The page's main element (``<main>`` or ``role="main"``) that holds ``el``, or None."""
    for a in el.iterancestors():
        cls = a.get("class")
        if cls and ("kitten-main" in cls or "kitten.role-main" in cls) \
                and (_original(cls, "") == "main" or "kitten.role-main" in cls.split()):
            return a
    return None


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


def build_document(root: etree._Element, config: StructureConfig, log: PageLog, rules: str = "") -> Document:
    """Make the ``Document`` of a normalized XHTML tree (``root`` is its ``html`` element)."""
    declared = declared_language(root)
    title = ""
    head = root.find(_NS + "head")
    if head is not None:
        t = head.find(_NS + "title")
        if t is not None and t.text:
            title = " ".join(t.text.split())
    body = root.find(_NS + "body")
    doc = Document(blocks=[], lang=declared or config.default_language, title=title, declared_lang=declared or None)
    walker = _Walker(doc, config, rules)
    if body is not None:
        if body.find(".//" + _NS + "noscript") is not None:
            _app_shell_noscripts(body, doc)
        walker.walk(body)
        if config.remove_screen_reader_phrases:
            doc.blocks, cut = without_phrases(doc, rules)
            doc.removals += cut
    # the JSON-LD scripts in document order: the walk found those of the body
    scripts = [script for child in root if isinstance(child.tag, str)
               for script in (walker.json_ld if child is body else json_ld_scripts(child))]
    doc.metadata = page_metadata(root, scripts)
    doc.json_ld = scripts
    if not declared:  # the detector reads the text just extracted (<q> marks keep the default's)
        doc.lang = detect(blocks_sample(doc.blocks, LANGUAGE_SAMPLE)) or config.default_language
    if body is not None:
        _app_shell(root, doc, log)
    for r in doc.removals:
        log.add("structure", f"removed-{r.reason}", r.message)
    for locator, kind, why in doc.removals_kept:
        log.add("structure", kind, f"{locator}: {why}")
    for a in doc.abbreviations:
        if a.expanded:
            log.add("structure", a.tag, f"{a.text} ({a.title})")
        else:
            log.add("structure", f"{a.tag}-not-expanded", f"{a.text} ({a.title}): {a.reason}")
    return doc


#: an app shell: a body showing fewer letters than this outside ``<noscript>``
APP_SHELL_LETTERS = 200
#: a ``<noscript>`` read on an app shell holds at least this many letters
NOSCRIPT_LETTERS = 200


def _app_shell_noscripts(body, doc: Document) -> None:
    """On an app shell (the body shows fewer than :data:`APP_SHELL_LETTERS` letters
    outside ``<noscript>``), each ``<noscript>`` holding :data:`NOSCRIPT_LETTERS` letters
    or more is what the page has to read: it becomes a ``div`` (both walks then read it),
    logged in ``removals_kept`` (``read-noscript``). Other ``<noscript>`` are left out by
    the walk (:data:`SKIPPED`)."""
    outer = [el for el in body.iter(_NS + "noscript")
             if not any(a.tag == _NS + "noscript" for a in el.iterancestors())]
    inside = [_letters(el) for el in outer]
    outside = _letters(body, APP_SHELL_LETTERS + sum(inside)) - sum(inside)
    if outside >= APP_SHELL_LETTERS:
        return
    for el, letters in zip(outer, inside):
        if letters >= NOSCRIPT_LETTERS:
            doc.removals_kept.append((doc.locate(el), "read-noscript",
                                      f"<noscript> with {letters} letters read: the page shows {max(outside, 0)} "
                                      "letters outside it (an app shell)"))
            el.tag = _NS + "div"
            for inner in el.iter(_NS + "noscript"):  # its own noscript elements too
                inner.tag = _NS + "div"


#: a script holding this many characters on a page showing little text: its data is
#: likely the content (an app shell; not read)
APP_SHELL_SCRIPT = 2000


def _block_letters(block: Block) -> int:
    """The letters and digits of a block's text (its inline strings)."""
    return sum(_alnum(x) for x in block.inlines if isinstance(x, str))


def _app_shell(root, doc: Document, log: PageLog) -> None:
    """Log a page whose blocks hold fewer than :data:`APP_SHELL_LETTERS` letters while a
    script holds :data:`APP_SHELL_SCRIPT` characters or more (its content likely in the
    script's data, e.g. ``__NEXT_DATA__``: not read), and a page that shows no text at
    all (``no-text``: a splash page, a forum's page its scripts fill in; its description,
    when it has one, is in the metadata): an empty output is never silent."""
    letters = 0
    for block in doc.blocks:
        letters += _block_letters(block)
        if letters >= APP_SHELL_LETTERS:
            return
    longest = max((len(el.text or "") for el in root.iter(_NS + "script")), default=0)
    if longest >= APP_SHELL_SCRIPT:
        log.add("structure", "app-shell",
                f"the page shows {letters} letters of text but a script holds {longest} characters: "
                "an app shell whose content is in its scripts' data (not read)")
    elif not letters:
        described = " (its description is in the metadata)" if doc.metadata.description else ""
        log.add("structure", "no-text", f"the page shows no text{described}: a splash page or one its "
                                        "scripts fill in")


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: how much body text the language detector reads (characters)
LANGUAGE_SAMPLE = 2000


def declared_language(root) -> str:
    """The language the page declares, as an ISO 639-1 code when it has one
    (``kitten.language.normalize_code``): ``lang``/``xml:lang`` on ``html`` or ``body``,
    else ``<meta http-equiv="content-language">`` (its first code); "" when none. When
    it is "", ``build_document`` asks the detector (``kitten.language``) about the first
    2,000 characters of the extracted text for its rules, else takes the configured default."""
    for el in (root, root.find(_NS + "body")):
        if el is not None:
            code = normalize_code(el.get("lang") or el.get(_XML_LANG) or "")
            if code:
                return code
    head = root.find(_NS + "head")
    if head is not None:
        for meta in head.iter(_NS + "meta"):
            if (meta.get("http-equiv") or "").strip().lower() == "content-language":
                return normalize_code((meta.get("content") or "").split(",")[0])
    return ""


class _Walker:
    """One walk over ``body``: blocks, removals and abbreviation expansions."""

    def __init__(self, doc: Document, config: StructureConfig, rules: str = ""):
        self.doc = doc
        self.config = config
        self.menu = _pattern(tuple(config.remove_containers))
        self.quotes = _QUOTES.get(doc.lang, _DEFAULT_QUOTES)
        #: the letters of the body as far as counted (:meth:`_within_share`): a number,
        #: whether it is all of them, whether the count may stop early the next time
        self.body_letters: tuple[int, bool, bool] = (0, False, True)
        #: the letters the page shows outside ``display:none`` elements and the letters of
        #: its largest such element (:meth:`_outweighs_shown`)
        self.shown_letters: tuple[int, int] | None = None
        #: the blocks whose letters were counted before that, and their letters
        self.shown_so_far: tuple[int, int] = (0, 0)
        self.hidden_classes, self.hidden_hint = _hidden_rules(tuple(config.hidden_classes))
        self.consent = consent_rules(rules) if config.remove_consent else None
        # a quick search for any menu pattern or consent name in an element's names, in
        # two searches: one pattern of both alternatives takes half as long again as the
        # two (``re`` optimizes each one alone better)
        self.menu_hint = _hint(tuple(config.remove_containers))
        self.consent_hint = self.consent[2] if self.consent else None
        #: a menu pattern or consent rules to look for in containers' names
        self.named = self.menu is not None or self.consent is not None
        #: strings one of which a container's lower-cased names contain when either
        #: hint finds something (None: no such strings, every named container is asked)
        self.name_literals = _name_literals(tuple(config.remove_containers), self.consent)
        self.expanded: set[tuple[str, str]] = set()  # (text, title) already expanded in the page
        self.body = None  # the body element being walked
        #: the JSON-LD scripts of the walked tree, in document order (in the elements the
        #: walk leaves out: every script is)
        self.json_ld: list = []

    def _abbreviation(self, tag: str, el) -> Abbreviation | None:
        """What to do with an ``<abbr>``/``<acronym>``: expand its title at its first
        occurrence only, and never a title that is not an expansion."""
        title = " ".join((el.get("title") or "").split())
        if not title:
            return None
        text = " ".join("".join(el.itertext()).split())
        reason = ""
        if title.lower() == text.lower():
            reason = "same as text"
        elif not any(map(str.isalpha, text)):
            reason = "no letters"  # a logo with no text, a symbol (§, ®)
        else:
            reason = next((why for why, pattern in _NOT_EXPANSION if pattern.match(title)), "")
        if not reason and (text, title) in self.expanded:
            reason = "repeated"
        if not reason:
            self.expanded.add((text, title))
        return Abbreviation(tag, text, title, not reason, reason)

    def _hidden(self, el, orig: str, cls: str | None, style: str | None) -> str | None:
        """Why an element that renders nothing a reader sees is left out (None: it is not)."""
        if self._hides(style):
            if cls and _TAB_PANEL.search(cls):
                self.doc.removals_kept.append((self.doc.locate(el), "kept-tab-panel",
                                               "display:none but a tab panel (shown by a click)"))
                return None
            # a shop's lock-down app, an anti-flicker snippet: the page's (or its main
            # element's) text nearly all in one element a script shows once it has run
            letters = _letters(el)
            if letters < HIDDEN_SHOWN_LETTERS:
                return "hidden"
            main = _main_of(el)
            if main is not None:
                if letters <= HIDDEN_SHOWN_SHARE * _letters(main):
                    return "hidden"
            elif self._within_share(letters, HIDDEN_SHOWN_SHARE) and not self._outweighs_shown(letters):
                return "hidden"
            self.doc.removals_kept.append((self.doc.locate(el), "kept-hidden-container", "display:none but holds over "
                                           f"{HIDDEN_SHOWN_SHARE:.0%} of the {'main element' if main is not None else 'page'}'s"
                                           " text (shown by a script)"))
        elif style and "visibility" in style and _INVISIBLE.search(style):
            # pages hide a wrapper until a script has run ("anti-flicker"): a hidden
            # element holding most of the page's text is kept, and logged
            if self._within_share(_letters(el)):
                return "hidden"
            self.doc.removals_kept.append((self.doc.locate(el), "kept-hidden-container",
                                           "visibility:hidden but holds most of the page's text (shown by a script)"))
        if cls:
            if self.hidden_hint is not None and self.hidden_hint.search(cls) \
                    and not self.hidden_classes.isdisjoint(cls.split()):
                return "hidden-class"
            if "kitten.aria-hidden" in cls and not any(map(str.isalnum, "".join(el.itertext()))):
                return "aria-hidden-icon"  # an icon font glyph, a decorative symbol
        if orig in _ANNOTATIONS:
            math = next((a for a in el.iterancestors() if "kitten-math" in (a.get("class") or "")), None)
            if math is not None and _letters(math) > _letters(el):
                return "math-annotation"  # the formula has text of its own
        return None

    def _menu_or_page(self, el) -> str | None:
        """``"menu"``, or None (logged) when the matching container does not read like
        navigation or holds more than ``menu_max_share`` of the page's letters
        (``class="menu-container"`` around a whole page is not a menu)."""
        share = self.config.menu_max_share
        if share >= 1.0:
            return "menu"
        inside = _letters(el)
        if not _reads_like_navigation(el, inside):
            self.doc.removals_kept.append((self.doc.locate(el), "kept-menu-container",
                                           "matches remove_containers but does not read like navigation"))
            return None
        if not self._within_share(inside):  # (the body's letters are at least ``inside``)
            self.doc.removals_kept.append((self.doc.locate(el), "kept-menu-container", "matches remove_containers but "
                                           f"holds most of the page's text (over {share:.0%})"))
            return None
        return "menu"

    def _outweighs_shown(self, letters: int) -> bool:
        """Whether a ``display:none`` element of ``letters`` letters is the page's largest
        and holds at least :data:`HIDDEN_SHOWN_SHARE` of its letters and of what the page
        shows (outside every ``display:none`` element; counted once a page): a shop that
        hides its whole product in a wrapper a script shows, beside mega menus hidden the
        same way that together outweigh it in the body's letters."""
        if self.shown_letters is None:
            # the blocks read so far are shown: most pages stop here, the walk having met
            # more text than a hidden element so large would leave to the rest (counted
            # on from where the last such element left the count)
            counted, so_far = self.shown_so_far
            blocks = self.doc.blocks
            so_far += sum(map(_block_letters, blocks[counted:]))
            self.shown_so_far = (len(blocks), so_far)
            if letters < HIDDEN_SHOWN_SHARE * (letters + so_far):
                return False
            hidden = [e for e in _STYLED(self.body) if self._hides(e.get("style"))]
            outer = set(hidden)
            sizes = [_letters(e) for e in hidden if outer.isdisjoint(e.iterancestors())]
            self.shown_letters = (max(0, _letters(self.body) - sum(sizes)), max(sizes, default=0))
        shown, largest = self.shown_letters
        return letters >= largest and letters >= HIDDEN_SHOWN_SHARE * (letters + shown)

    def _hides(self, style: str | None) -> bool:
        """Whether an inline style hides its element (``display:none``)."""
        return bool(style) and "display" in style and self._display(style) == "none"

    def _within_share(self, letters: int, share: float | None = None) -> bool:
        """``letters <= share * (the body's letters)`` (default share: ``menu_max_share``), the body counted only as
        far as needed: a menu or a hidden element holds a small share of most pages, and
        the first count stops at four times as many letters as it needs (those after
        cannot change the answer); a later element that needs more has the body counted
        to its end."""
        share = self.config.menu_max_share if share is None else share
        while True:
            known, complete, may_stop = self.body_letters
            if letters <= share * known:  # the body has at least ``known`` letters
                return True
            if complete:
                return False
            if may_stop:
                limit = min(4 * int(letters / share) + 4, 1 << 62)
                n = _letters(self.body, limit)
                self.body_letters = (n, n < limit, False)
            else:
                self.body_letters = (_letters(self.body), True, False)

    def _consent(self, el, tokens: list[str]) -> bool:
        """A cookie or consent banner: a consent name token (``tokens``: of its id and
        class) and a consent phrase."""
        names, phrases, _ = self.consent
        if names.isdisjoint(tokens):
            return False
        text = shown_text(el)
        return _alnum(text) < 3000 and any(p in text for p in phrases)

    # -- what both walks (C and Python) ask of the walker: the rare cases, and those a
    # regular expression decides

    def _display(self, style: str) -> str | None:
        """The ``display`` of an inline style that mentions it (lower case), else None."""
        m = _DISPLAY.search(style)
        return m.group(1).lower() if m else None

    def _named_container(self, el, orig: str, id_: str | None, cls: str | None) -> str | None:
        """``"consent"`` or ``"menu"`` for a container whose id or class names a consent
        banner or a menu (``remove_containers``) and that is one, else None."""
        joined = f"{id_ or ''} {cls or ''}".lower()
        if not (self.menu_hint.search(joined) or (self.consent_hint is not None and self.consent_hint.search(joined))):
            return None
        tokens = [t for value in (id_, cls) if value for t in name_tokens(value)]
        if self.consent is not None and self._consent(el, tokens):
            return "consent"
        if self.menu is not None and orig not in _BANNERS and any(map(self.menu.match, tokens)):
            return self._menu_or_page(el)
        return None

    def _remove(self, el, reason: str) -> None:
        """Record the removal of ``el`` (its subtree is left out)."""
        if reason not in _UNLOGGED:
            text = _text_start(el, REMOVAL_TEXT)
            if text or reason == "menu":
                self.doc.removals.append(Removal(el, reason, text, self.doc.locate))

    def _has_quotes(self, el) -> bool:
        """A ``<q>`` whose text the page wrote with its own quotation marks."""
        return _QUOTED.match("".join(el.itertext())) is not None

    def _expansion(self, local: str, el) -> str | None:
        """What an ``<abbr>``/``<acronym>`` adds after its text (" (title)"), recorded."""
        abbreviation = self._abbreviation(local, el)
        if abbreviation is None:
            return None
        self.doc.abbreviations.append(abbreviation)
        # (ignorable characters removed here: the walks' ``add`` would make a plain str of it)
        return Expansion(IGNORABLE.sub("", f" ({abbreviation.title})")) if abbreviation.expanded else None

    def walk(self, body) -> None:
        """Append the blocks of ``body`` to the document: in C (``kitten/_structure.c``)
        when it is built, else :meth:`walk_python`; the same blocks either way."""
        self.body = body
        c = _c_walker()
        if c is None:
            self.walk_python(body)
            return
        module, tables = c
        module.walk(tables, _original, body, _hooks(self))

    def walk_python(self, body) -> None:
        """:meth:`walk` in Python: one ``iterwalk`` of the tree."""
        self.body = body
        doc, config = self.doc, self.config
        quotes = self.quotes
        hidden_hint = self.hidden_hint
        # per open element: (is block, element, kind, original name, group, skipped, local
        # name), so that its end event need not read its tag again; run[0] is the block
        # receiving inline content, made when content arrives
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
            if item is not BR and not item.isascii() and IGNORABLE.search(item):
                item = IGNORABLE.sub("", item)
            block.inlines.append(item)

        def flush() -> None:
            block = run[0]
            if block is not None:
                run[0] = None
                for x in block.inlines:
                    if x is not BR and not x.isspace():
                        blocks.append(block)
                        break

        q_marks: list[bool] = []  # per open <q>: quotation marks added
        # elements only: iterwalk reports no comments or processing instructions (nor
        # their tails; the normalizer writes none)
        walker = etree.iterwalk(body, events=("start", "end"))
        group: list = [None]
        local_names: dict[str, str] = {}  # tag -> local name
        # Below, ``add(x)`` is inlined where it is called for every element (text, tail)
        # in its two common cases: white space with no block open (between blocks),
        # which it leaves out, and ASCII text into an open block.
        for event, el in walker:
            if event == "start":
                tag = el.tag
                local = local_names.get(tag)
                if local is None:
                    local = local_names[tag] = tag[_NS_LEN:] if tag.startswith(_NS) else tag
                cls = el.get("class")
                orig = _original(cls, local) if cls and "kitten-" in cls else local
                style = el.get("style")
                display = self._display(style) if style and "display" in style else None
                reason = SKIPPED.get(local) if orig is local else (SKIPPED.get(local) or SKIPPED.get(orig))
                if reason is None:
                    if display == "none" or (style and "isibility" in style) or orig in _ANNOTATIONS or (cls and (
                            "kitten.aria-hidden" in cls or (hidden_hint is not None and hidden_hint.search(cls)))):
                        reason = self._hidden(el, orig, cls, style)
                if reason is None and (orig in CONTAINERS or local in CONTAINERS or orig in _BANNERS):
                    id_ = el.get("id")
                    if (cls or id_) and self.named:
                        reason = self._named_container(el, orig, id_, cls)
                if reason is not None:
                    self.json_ld.extend(json_ld_scripts(el))
                    self._remove(el, reason)
                    contexts.append((False, el, "block", orig, group[-1], True, local))
                    walker.skip_subtree()
                    continue
                if display is None:
                    is_block = orig in BLOCKS
                else:
                    is_block = not (display.startswith("inline") or display == "contents")
                if is_block:
                    if run[0] is not None:
                        flush()
                    if orig in GROUPS:
                        group.append(el)
                    contexts.append((True, el, KINDS.get(orig, "block"), orig, group[-1], False, local))
                else:
                    contexts.append((False, el, "block", orig, group[-1], False, local))
                    if local == "br":
                        add(BR)
                    elif local == "q":
                        quoted = self._has_quotes(el)  # the page wrote its own marks
                        q_marks.append(not quoted)
                        if not quoted:
                            add(quotes[0])
                    elif local == "img" and config.img_alt:
                        alt = (el.get("alt") or "").strip()
                        if alt:
                            add(AltText(f" {alt} "))
                    elif local == "button":
                        add(" ")  # a button is a box of its own on screen: "Python Go", not "PythonGo"
                text = el.text
                if text:
                    if run[0] is None:
                        if not text.isspace():
                            add(text)
                    elif text.isascii():
                        run[0].inlines.append(text)
                    else:
                        add(text)
            else:
                ctx = contexts.pop()
                if not ctx[5]:
                    local = ctx[6]
                    if ctx[0]:
                        if run[0] is not None:
                            flush()
                        if ctx[3] in GROUPS:
                            group.pop()
                    elif local == "q":
                        if q_marks.pop():
                            add(quotes[1])
                    elif local == "button":
                        add(" ")
                    elif local in ("abbr", "acronym") and config.expand_abbreviations:
                        expansion = self._expansion(local, el)
                        if expansion is not None:
                            add(expansion)
                tail = el.tail
                if tail:
                    if run[0] is None:
                        if not tail.isspace():
                            add(tail)
                    elif tail.isascii():
                        run[0].inlines.append(tail)
                    else:
                        add(tail)
        flush()


#: A page with what the C walk must read as the Python walk does: blocks in inline
#: content, groups, skipped and hidden elements, a menu and a consent banner, quotes,
#: abbreviations, images, buttons, line breaks, comments, renamed elements, ignorable characters.
PROBE_PAGE = f"""<html xmlns="{_NS[1:-1]}"><head><title>t</title></head><body>top <b>text</b>
<div class="kitten-article"><h2>Head­ ing</h2><p>One <q>quoted</q> and <q>"own"</q> <abbr
title="World Health Organization">WHO</abbr>, <abbr title="World Health Organization">WHO</abbr>
<abbr title="2020-01-01">then</abbr>.<br/>Next line<!-- c --> tail <img alt=" pic " src="a"/><button
>One</button><button>Two</button></p>
<span style="display: block">spanned</span><div style="display:none">gone</div><span
style="visibility:hidden">unseen</span><span class="sortkey">key</span><script>x()</script>
<ul id="mainMenu"><li><a href="/">Home</a></li><li><a href="/b">About</a><script
type="application/ld+json">{{"@type": "WebPage"}}</script></li></ul><script type="application/ld+json"
>{{"@type": "NewsArticle", "author": "A"}}</script>
<div class="cookie-banner">We use cookies. Accept all cookies to continue.</div>
<table><tr><td>cell <span class="kitten-nav">n</span></td><th>h​</th></tr></table>
<dl><dt>term</dt><dd>def</dd></dl><pre>a
 b</pre><span class="kitten-aria-hidden kitten.aria-hidden">★</span>é<br/><br/></div>
after<select><option>o</option></select><noscript><p>Enable JavaScript</p></noscript></body></html>"""


def _hooks(walker: _Walker) -> tuple:
    """What ``_structure.walk`` asks of the walker, in its order."""
    config = walker.config
    return (walker.doc.blocks, walker._display, walker._hidden, walker._named_container, walker._remove,
            walker._has_quotes, walker._expansion, Block, AltText, BR, IGNORABLE.search, IGNORABLE.sub,
            walker.quotes[0], walker.quotes[1], config.img_alt, config.expand_abbreviations, walker.named,
            tuple(config.hidden_classes), walker.name_literals, walker.json_ld, _IGNORABLE_RANGES)


def block_view(walker: _Walker) -> list:
    """What the two walks must agree on: each block's kind, name, element, inlines (with
    their types) and group; the removals, abbreviations and kept containers; the JSON-LD
    scripts found."""
    doc = walker.doc
    return [[(b.kind, b.tag, b.source, [(type(x).__name__, x) for x in b.inlines], b.group) for b in doc.blocks],
            doc.removals, doc.abbreviations, doc.removals_kept, walker.json_ld]


#: the C functions of ``kitten._structure`` that read an element's text: name -> (the
#: Python function it stands for, the arguments after the element it is checked with)
_C_READERS: dict[str, tuple[Callable, tuple[tuple, ...]]] = {
    "visible_letters": (letters_python, ((-1,), (0,), (5,), (60,))),
    "text_start": (text_start_python, ((1,), (5,), (REMOVAL_TEXT,))),
    "navigation_measures": (navigation_measures_python, ((),)),
}


@lru_cache(maxsize=None)
def _c_reader(name: str) -> Callable | None:
    """``kitten._structure.<name>`` (one of :data:`_C_READERS`), or None when the module
    is not built or answers otherwise than its Python function on an element of the probe
    page (logged; :func:`kitten.native.checked`)."""
    python, arguments = _C_READERS[name]
    elements = list(parse_xhtml(PROBE_PAGE).iter(etree.Element))
    return checked("kitten._structure", name, lambda c: all(
        c(el, *args) == python(el, *args) for el in elements for args in arguments))


@lru_cache(maxsize=1)
def _c_walker():
    """``(kitten._structure, its name table)``, or None when the module is not built
    (no C compiler or no lxml headers at install) or walks the probe page otherwise than
    :meth:`_Walker.walk_python` (logged)."""
    try:
        from kitten import _structure
    except Exception:  # noqa: BLE001 - not built, or built against another lxml's C API
        return None
    names = (BLOCKS | CONTAINERS | GROUPS | _BANNERS | _ANNOTATIONS | set(SKIPPED) | set(KINDS)
             | {"br", "q", "img", "abbr", "acronym"})
    flags = {n: (n in BLOCKS) | (n in CONTAINERS) << 1 | (n in GROUPS) << 2 | (n in _BANNERS) << 3
             | (n in _ANNOTATIONS) << 4 | (SKIPPED.get(n) in _UNLOGGED) << 5 for n in names}  # _structure.c's F_*
    tables = _structure.make_tables({n: (flags[n], KINDS.get(n), SKIPPED.get(n)) for n in sorted(names)})
    body = parse_xhtml(PROBE_PAGE).find(_NS + "body")
    views = []
    for python in (True, False):
        doc = Document(blocks=[], lang="en")
        walker = _Walker(doc, StructureConfig(img_alt=True), "")
        if python:
            walker.walk_python(body)
        else:
            walker.body = body
            _structure.walk(tables, _original, body, _hooks(walker))
        views.append(block_view(walker))
    if views[0] != views[1]:
        logging.getLogger(__name__).warning("kitten._structure walks the probe page otherwise than Python: "
                                            "not used")
        return None
    return _structure, tables
