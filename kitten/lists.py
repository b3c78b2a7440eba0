"""Lists step: coded lists (``ul``, ``ol``, ``dl``, ``menu``, ``dir``) typed and rewritten
so that every item reads as a sentence a parser can attach.

Runs between the tables and the segmentation steps. It reads the blocks the structure
step made (each knows its list through ``Block.group``) and returns a new ``Document``
whose blocks are rewritten as below (the input is never changed) and whose ``lists``
holds one ``ListReading`` per list. Each rule is a setting of ``[lists]``
(``kitten.config.ListsConfig``); every removal and rewrite is logged (step ``lists``,
``where`` = the list's locator).

Items and introductory clause
    An item is a child of the list (``li``, ``dt``, ``dd``); its text is the text of its
    own blocks (a nested list or table inside it belongs to that list or table). The
    *introductory clause* is the block right before the list when its text ends with a
    colon; when that block holds several sentences (or ``<br>`` lines), only the last
    one is the clause and the earlier ones stay a block of their own.

1. Hyperlink lists (``remove_link_items``). Links are ``<a>`` elements but named
   anchors (``<a name>``/``<a id>`` without ``href`` or ``onclick``). A
   *link item* has at least ``link_text_share`` of its letters inside links (letters
   and digits inside, letters outside: "(12)", "|" or "»" outside do not count); a
   list at least ``link_list_share`` of whose items are link items (counting the items
   of the lists inside it too: a menu with sub-menus) is a *link list* (type ``link``).
   In a link list, every item made only of links (no letter outside them) with fewer
   than ``link_item_words`` words is removed and logged as ``link-item-removed`` with
   its text; its other items stay one per segment, and it is never flattened. Items
   of other lists are never removed: a link in a list of content ("Here are the tools
   you'll need:" + a linked book title) is content.
2. Hand-written bullets (``remove_bullets``): ``*``, ``-``, ``•``, ``1.``, ``a)``,
   ``iv.`` ... at the start of each block of an item, with the patterns of
   ``rules/bullets.txt``.
3. Flattening (``flatten``) of a one-level list (no nested list or table in it) of
   ``ul``/``ol``/``menu``/``dir`` that has an introductory clause: when the median
   length of its non-empty items is below ``short_item_chars``, the clause and the
   items become one sentence, items joined with ", " (an item already ending with
   ``. ? ! ; ,`` or with a conjunction such as "; and" keeps its ending and is
   followed by a space only), with a final full stop (type ``flattened-sentence``);
   otherwise the clause stays a segment of its own and each item (each block of an
   item made of several) becomes a sentence ending with a full stop: a trailing "; and"
   is dropped, a final ``, ; :`` is replaced by the stop (brackets, quotes and dashes
   are kept, the stop added after them), except that the list's last sentence keeps a
   final colon, as it introduces what follows (type ``flattened-items``).
4. Clause repetition (``repeat_clause``): when the clause ends (before its colon)
   with a trigger word or phrase of ``rules/<lang>/triggers.txt`` (prepositions,
   auxiliaries, modals, "need to", "not"; French "de", "à", "pour", "peut",
   "doit", "pas" ...), the clause without its colon is written before each item (its
   first block), each pair one sentence, ending as in rule 3 (type
   ``repeated-clause``), whatever the items' length. Not when most items are a label
   and its explanation ("Need: you absolutely need it") or sentences of their own (a
   capitalized subject word of ``rules/<lang>/subjects.txt`` first, "The Church has
   much to learn.", a final mark last): those are flattened by rule 3. Languages
   without a trigger file get no repetition.
5. Definition lists (``definitions``): a ``dd`` after one or more ``dt`` becomes
   "term: definition." (several terms joined with ", "; a term already ending with
   a colon keeps it; a ``dd`` with several blocks pairs its first one). A term ending
   with ``. ? !`` (a question, a sentence, "Mike said...") is not paired, nor is a
   ``dt`` without ``dd`` or a ``dd`` without ``dt``: they stay segments of their own
   (type ``definition``). A ``dl`` is never flattened; a ``dl`` that is a link list
   is of type ``link``.
6. Nested lists (a list with a list or table inside an item, type ``nested``) are
   read one item per segment, after the rule 2; each inner list is a list of its
   own, whose introductory clause is usually the text of its parent item before it
   ("Fruits:" + "apples", "pears" -> "Fruits: apples, pears.").
7. Lists without an introductory clause (type ``plain``), ordered or not, are read
   one item per segment after the rule 2 (hand-written numbers of an ``ol`` are
   bullets like any other).

The sentences written by rules 3-5 are blocks of kind ``list`` whose source and
group is the list element (their locator is the list's).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from lxml import etree

from kitten.config import ListsConfig, SegmentConfig
from kitten.document import BR, Block, Document, Locators
from kitten.log import PageLog
from kitten.resources import lines, rules_dir, word_list
from kitten.segment import collapsed, ends_sentence, segment
from kitten.stops import takes_no_stop

#: event kind of a removed link-list item (message: the item text; where: the list locator)
LINK_ITEM_REMOVED = "link-item-removed"
#: what became of an item (``ListReading.item_texts``)
ITEM_DECISIONS = ("kept", LINK_ITEM_REMOVED)

_NS = "{http://www.w3.org/1999/xhtml}"
_NS_LEN = len(_NS)
LIST_TAGS = frozenset({"ul", "ol", "dl", "menu", "dir"})
GROUP_TAGS = LIST_TAGS | {"table"}
# Elements whose text a reader does not see (the structure step leaves them out).
_UNSEEN = frozenset({"script", "style", "select", "option", "input", "textarea", "map",
                     "object", "applet", "noscript"})
# The same, as the namespaced tags of the XHTML tree (compared without string slicing).
_UNSEEN_TAGS = frozenset(_NS + t for t in _UNSEEN)
_GROUP_FULL_TAGS = frozenset(_NS + t for t in GROUP_TAGS)
_A_TAG = _NS + "a"
# Blocks that may serve as an introductory clause.
_CLAUSE_KINDS = frozenset({"heading", "paragraph", "list_item", "term", "definition",
                           "table_cell", "caption", "quote", "block"})
_LETTER = re.compile(r"[^\W\d_]")
_ALNUM = re.compile(r"[^\W_]")
# What ``_LETTER`` and ``_ALNUM`` do not match, for ``_count``: runs of characters, ASCII bytes
_NOT_LETTER_RUN = re.compile(r"[\W\d_]+")
_NOT_ALNUM_RUN = re.compile(r"[\W_]+")
_NOT_LETTER_ASCII = bytes(c for c in range(128) if not chr(c).isalpha())
_NOT_ALNUM_ASCII = bytes(c for c in range(128) if not chr(c).isalnum())
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_WORDS = re.compile(r"[\w'’-]+")
# A sentence boundary inside a clause block: a final mark, closers, white space, then
# (checked in code) a capital, a digit or an opening mark; not after an abbreviation.
_BOUNDARY = re.compile(r"[.?!…][\"'”’»)\]]*\s+(?=\S)")
_OPENERS = frozenset("\"'“‘«([¿¡")
_ABBREVIATION = re.compile(
    r"(?:^|[\s(])(?:[A-Za-z]|(?:[A-Za-z]\.)+[A-Za-z]|Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Rev|Gen|Sen|Rep|"
    r"Gov|Inc|Ltd|Co|Corp|No|Nos|Vol|pp|vs|cf|ca|approx|etc|Mme|Mlle|Mgr|av|env)\.$")
_REPLACED_MARKS = frozenset(",;:")
# "...; and", "..., or", "... and;" at the end of an item (English and French)
_TRAILING_CONJUNCTION = re.compile(
    r"(?:[,;]\s*(?:and|or|and/or|et|ou)|\b(?:and|or|and/or|et|ou)\s*[,;])\s*$", re.I)
# the last two letters of the conjunctions of _TRAILING_CONJUNCTION, lower-cased
_CONJUNCTION_ENDS = frozenset({"nd", "or", "et", "ou"})
# an item that is a label and its explanation: "Need: you absolutely need it"
_LABEL = re.compile(r"[^:]{1,40}:\s")

TYPES = ("link", "definition", "nested", "repeated-clause", "flattened-sentence",
         "flattened-items", "plain")


@dataclass(slots=True)
class ListReading:
    """What the lists step found and did for one list."""

    element: Any = field(repr=False, compare=False)  # the list element (ul, ol, dl ...)
    locate: Locators = field(repr=False, compare=False)  # the document's
    tag: str
    type: str  # one of TYPES
    rule: str  # the rule applied, in words
    clause: str = ""  # the introductory clause found ("" when none)
    items: int = 0  # non-empty items (before removals)
    removed: tuple[str, ...] = ()  # texts of the removed link items
    bullets: int = 0  # hand-written bullets removed
    #: each non-empty item: (its blocks as the list found them, its decision: one of
    #: ITEM_DECISIONS, a hand-written bullet removed); texts made only for JSON
    decisions: tuple[tuple[tuple[Block, ...], str, bool], ...] = field(default=(), repr=False)

    @property
    def locator(self) -> str:
        """The list element's locator, computed when asked (a text output shows the
        locators of no list, a log those of the lists rewritten)."""
        return self.locate(self.element) or ""

    def item_texts(self) -> list[dict]:
        """Each non-empty item of the list, in order: ``{"text", "decision"}`` (``"kept"``
        or ``"link-item-removed"``), with ``"bullet": true`` when a hand-written bullet
        was removed from it. The text is the item's own blocks' (nested lists apart)
        before any rewriting, white space collapsed."""
        out = []
        for blocks, decision, bullet in self.decisions:
            d = {"text": collapsed(" ".join(b.text() for b in blocks)), "decision": decision}
            if bullet:
                d["bullet"] = True
            out.append(d)
        return out

    def as_dict(self) -> dict:
        return {"locator": self.locator, "tag": self.tag, "type": self.type, "rule": self.rule,
                "clause": self.clause, "items": self.items, "removed": list(self.removed),
                "bullets": self.bullets, "item_texts": self.item_texts()}


@dataclass(slots=True)
class _List:
    """A list of the page and the blocks it owns (indices into ``doc.blocks``)."""

    element: Any
    tag: str
    depth: int  # lists and tables around it
    start: int = -1  # first block of the list, nested lists included
    nested: bool = False  # a list or table inside one of its items
    #: item element -> indices of its own blocks, in document order
    items: dict[Any, list[int]] = field(default_factory=dict)
    outer: list["_List"] = field(default_factory=list)  # the lists around it, innermost first
    #: items of the list and of the lists inside it, and how many of them are link items
    all_items: int = 0
    link_items: int = 0


class _Links(NamedTuple):
    """How much of an item's text is inside links: letters and digits inside, letters
    outside (a count "(12)" or a separator "|" outside a link does not count). A named
    tuple: made for every item of every list, at half the cost of a frozen dataclass."""

    inside: int
    outside: int

    def only(self) -> bool:
        return self.inside > 0 and self.outside == 0

    def share(self) -> float:
        total = self.inside + self.outside
        return self.inside / total if total else 0.0


def read_lists(doc: Document, config: ListsConfig, log: PageLog, rules: str = "") -> Document:
    """Type every list of ``doc`` and rewrite its blocks by the rules of the module
    docstring; returns a new ``Document`` (``doc`` is not changed)."""
    if not config.enabled:
        return doc
    lists = _find_lists(doc.blocks)
    if not lists:
        return doc
    links = _count_links(lists, config) if config.remove_link_items else {}
    blocks = doc.blocks
    # block index -> the blocks that replace it (absent: unchanged)
    out: dict[int, list[Block]] = {}
    consumed: set[int] = set()  # blocks already rewritten into a list sentence
    context = _Context(blocks, out, consumed, config, links,
                       _bullet_pattern(rules) if config.remove_bullets else None,
                       _language_list(rules, doc.lang, "triggers.txt") if config.repeat_clause else frozenset(),
                       _language_list(rules, doc.lang, "subjects.txt") if config.repeat_clause else frozenset(),
                       doc.lang, rules, doc.locate)
    readings = []
    for lst in sorted(lists, key=lambda x: (x.start, x.depth)):
        reading = _read_list(lst, context)
        readings.append(reading)
        _log(reading, log)
    new_blocks: list[Block] = []
    kept_from = 0  # blocks from there to the next rewritten one are kept as they are
    for i in sorted(out):
        new_blocks += blocks[kept_from:i]
        new_blocks += out[i]
        kept_from = i + 1
    new_blocks += blocks[kept_from:]
    return dataclasses.replace(doc, blocks=new_blocks, lists=readings)


@dataclass(slots=True)
class _Context:
    """What every list of a page is read with; ``out`` and ``consumed`` are the page's
    rewriting state (block index -> new blocks; blocks already rewritten)."""

    blocks: list[Block]
    out: dict[int, list[Block]]
    consumed: set[int]
    config: ListsConfig
    links: dict[Any, _Links]
    bullets: re.Pattern | None
    triggers: frozenset[str]
    subjects: frozenset[str]
    lang: str
    rules: str
    locate: Locators

    def current(self, idx: list[int]) -> list[Block]:
        """The blocks now in the places ``idx`` (rewritten or not)."""
        out, blocks = self.out, self.blocks
        if len(idx) == 1:  # most items: one block
            i = idx[0]
            return list(out[i]) if i in out else [blocks[i]]
        return [b for i in idx for b in (out[i] if i in out else (blocks[i],))]


# --------------------------------------------------------------------------- finding lists


def _local(tag) -> str:
    if not isinstance(tag, str):
        return ""
    return tag[_NS_LEN:] if tag.startswith(_NS) else tag


def _find_lists(blocks: list[Block]) -> list[_List]:
    """The lists of the page with their own blocks by item, their first block, the lists
    around them, whether they hold nested lists or tables. Each element above a list or
    table is walked through once, none per block."""
    lists: dict[Any, _List] = {}
    #: group element -> the lists around it and itself (innermost first), and how many
    #: lists and tables are around it
    around: dict[Any, tuple[list[_List], int]] = {}
    #: group element -> its own list (None for a table)
    owners: dict[Any, _List | None] = {}
    #: element -> the list or table around it (None: none); for the elements walked
    #: through, so that the groups of one container share the walk above it
    above: dict[Any, Any] = {}

    def group_above(el):
        """The list or table around ``el`` (None: none)."""
        walked = []
        p = el.getparent()
        while p is not None and p.tag not in _GROUP_FULL_TAGS and p not in above:
            walked.append(p)
            p = p.getparent()
        if p is not None and p.tag not in _GROUP_FULL_TAGS:
            p = above[p]
        for e in walked:
            above[e] = p
        return p

    def chain_of(group) -> list[_List]:
        """The lists around ``group`` and itself, innermost first (made on first sight,
        with their depth, the lists around them, and ``nested`` set on those around)."""
        path = []  # the group and the groups around it not seen yet, innermost first
        g = group
        while g is not None and g not in around:
            path.append(g)
            g = group_above(g)
        chain, depth = around[g] if g is not None else ([], -1)
        for g in reversed(path):
            depth += 1
            if chain:  # the lists further out were marked when this one was seen
                chain[0].nested = True
            local = _local(g.tag)
            if local in LIST_TAGS:
                lst = lists[g] = _List(g, local, depth, outer=chain)
                chain = [lst, *chain]
            around[g] = (chain, depth)
        return chain

    for i, block in enumerate(blocks):
        group = block.group
        if group is None or block.source is None:
            continue
        if group in owners:
            own = owners[group]
        else:  # the group's first block: the first of the lists around it that have none yet
            for lst in chain_of(group):
                if lst.start < 0:
                    lst.start = i
            own = owners[group] = lists.get(group)
        if own is not None:
            own.items.setdefault(item_of(block.source, group), []).append(i)
    return [lst for lst in lists.values() if lst.start >= 0]


def item_of(source, group):
    """The child of ``group`` that holds ``source`` (``source`` itself if none does)."""
    el = source
    while el is not None:
        parent = el.getparent()
        if parent is group:
            return el
        el = parent
    return source


def _count_links(lists: list[_List], config: ListsConfig) -> dict[Any, _Links]:
    """Link letters of every item; each list's count of items and link items, those of
    the lists inside it included."""
    links: dict[Any, _Links] = {}
    for lst in lists:
        n = len(lst.items)
        k = 0
        for item in lst.items:
            counts = links[item] = link_letters(item)
            if counts.share() >= config.link_text_share:
                k += 1
        for x in [lst, *lst.outer]:
            x.all_items += n
            x.link_items += k
    return links


# --------------------------------------------------------------------------- one list


def _read_list(lst: _List, ctx: _Context) -> ListReading:
    """Apply the rules to one list: edits ``ctx.out``/``ctx.consumed`` for its blocks
    (and its clause's block), returns its reading."""
    config, consumed = ctx.config, ctx.consumed
    items = list(lst.items.items())  # (item, indices of its blocks not yet rewritten)
    if consumed:
        items = [(item, [i for i in idx if i not in consumed]) for item, idx in items]
        items = [(item, idx) for item, idx in items if idx]
    link_list = bool(lst.link_items) and lst.link_items >= config.link_list_share * lst.all_items
    removed: list[str] = []
    kept: list[tuple[Any, list[Block], list[int]]] = []  # (item, its blocks, their indices)
    decisions: list[tuple[tuple[Block, ...], str, bool]] = []
    n_bullets = 0
    links, bullets, out = ctx.links, ctx.bullets, ctx.out
    for item, idx in items:
        item_blocks = ctx.current(idx)
        found = tuple(item_blocks)
        # 1. link items of link lists
        if link_list and (counts := links.get(item)) is not None and counts.only():
            text = collapsed(" ".join([b.text() for b in item_blocks]))
            if _fewer_words(text, config.link_item_words):
                removed.append(text)
                decisions.append((found, LINK_ITEM_REMOVED, False))
                _put(out, idx, [])
                continue
        # 2. bullets
        bullet = False
        if bullets is not None:
            stripped = [_strip_bullet(b, bullets) for b in item_blocks]
            if stripped != item_blocks:  # Block equality: a bullet removed changes the inlines
                n_bullets += 1
                bullet = True
                item_blocks = [b for b in stripped if b.inlines]
                _put(out, idx, item_blocks)
        decisions.append((found, "kept", bullet))
        kept.append((item, item_blocks, idx))

    def reading(type_: str, rule: str, clause: str = "") -> ListReading:
        return ListReading(lst.element, ctx.locate, lst.tag, type_, rule, clause, len(items),
                           tuple(removed), n_bullets, tuple(decisions))

    if link_list:
        return reading("link", _link_rule(config, lst))
    if lst.tag == "dl":
        if not config.definitions:
            return reading("definition", "items read one per segment ([lists] definitions = false)")
        paired = _pair_definitions(lst, kept, ctx.out, consumed, ctx.rules)
        return reading("definition", f"{paired} term: definition pairs")
    if lst.nested:
        return reading("nested", "items read one per segment; inner lists read on their own")
    found = _clause_before(lst.start, ctx)
    if found is None:
        return reading("plain", "no introductory clause: items read one per segment")
    p, head, clause = found
    kept = [(item, bs, idx) for item, bs, idx in kept if any(collapsed(b.text()) for b in bs)]
    if not kept:
        return reading("plain", "every item removed: the clause stays as it is", clause)
    if not config.flatten:
        return reading("plain", "introductory clause found, [lists] flatten = false", clause)
    texts = [collapsed(" ".join(b.text() for b in bs)) for _, bs, _ in kept]
    all_idx = [i for _, _, idx in kept for i in idx]
    trigger = _trigger(clause, ctx.triggers)
    if trigger and (_labelled(texts) or _sentences(texts, ctx.subjects)):
        trigger = ""
    if trigger:
        stem = clause[:-1].rstrip()
        contractions = _contractions(ctx.rules, ctx.lang)
        sentences = []
        for _, bs, _ in kept:
            lines = _lines(bs)
            sentences.append(_joined(stem, lines[0], contractions))
            sentences += lines[1:]
        ctx.out[p] = head + _sentence_blocks(lst, sentences, ctx.rules)
        consumed.add(p)
        _clear(ctx.out, consumed, all_idx)
        return reading("repeated-clause", f"clause ends with the trigger {trigger!r}: repeated before each item",
                       clause)
    import statistics  # here: its import (fractions, decimal) is dearer than most pages' lists

    median = statistics.median(len(t) for t in texts)
    if median < config.short_item_chars:
        ctx.out[p] = head + [_make(lst, _join_sentence(clause, texts, ctx.rules))]
        consumed.add(p)
        _clear(ctx.out, consumed, all_idx)
        return reading("flattened-sentence",
                       f"median item length {median:g} < {config.short_item_chars}: one sentence", clause)
    _clear(ctx.out, consumed, all_idx)
    ctx.out[all_idx[0]] = _sentence_blocks(lst, [line for _, bs, _ in kept for line in _lines(bs)], ctx.rules)
    return reading("flattened-items",
                   f"median item length {median:g} >= {config.short_item_chars}: one sentence per item",
                   clause)


@lru_cache(maxsize=32)
def _contractions(rules: str, lang: str) -> dict[tuple[str, str], str]:
    """``rules/<lang>/contractions.txt``: (last word of the clause, first word of the
    item) -> the contracted form (``("à", "le")`` -> ``"au"``); none for a language
    without the file."""
    path = rules_dir(rules) / lang / "contractions.txt"
    if not lang or not path.is_file():
        return {}
    out = {}
    for line in lines(rules, lang, "contractions.txt"):
        pair, _, form = line.partition("->")
        words = pair.split()
        if len(words) == 2 and form.strip():
            out[(words[0].lower(), words[1].lower())] = form.strip()
    return out


def _joined(stem: str, item: str, contractions: dict[tuple[str, str], str]) -> str:
    """The repeated clause and an item, contracted where they meet (``à`` + ``le
    budget`` -> ``au budget``)."""
    if contractions:
        head, _, last = stem.rpartition(" ")
        first, _, rest = item.partition(" ")
        form = contractions.get((last.lower(), first.lower()))
        if form is not None:
            form = form[0].upper() + form[1:] if last[:1].isupper() else form
            return " ".join(x for x in (head, form, rest) if x)
    return f"{stem} {item}"


def _make(lst: _List, text: str) -> Block:
    """A sentence written by the lists step: a block of kind ``list`` of the list element."""
    return Block("list", lst.tag, lst.element, [text], lst.element)


def _lines(item_blocks: list[Block]) -> list[str]:
    """The non-empty texts of an item's blocks, white space collapsed."""
    return [t for t in (collapsed(b.text()) for b in item_blocks) if t]


def _sentence_blocks(lst: _List, texts: list[str], rules: str = "") -> list[Block]:
    """One sentence per text: a final ``, ; :`` or trailing "; and" becomes a full stop,
    except that the last one keeps a final colon (it introduces what follows)."""
    last = len(texts) - 1
    return [_make(lst, _finish(t, k == last, rules)) for k, t in enumerate(texts)]


def _labelled(texts: list[str]) -> bool:
    """Are most items a label and its explanation ("Need: you absolutely need it")?"""
    return sum(1 for t in texts if _LABEL.match(t)) * 2 >= len(texts)


def _sentences(texts: list[str], subjects: frozenset[str]) -> bool:
    """Are half the items or more sentences of their own: a capitalized subject word ("The", "We",
    ``rules/<lang>/subjects.txt``) first, a final mark last?"""
    n = 0
    for t in texts:
        first = t.split(None, 1)[0]
        if first[0].isupper() and first.lower().strip("\"'“‘«(") in subjects and ends_sentence(t):
            n += 1
    return n * 2 >= len(texts)


def _put(out: dict[int, list[Block]], idx: list[int], item_blocks: list[Block]) -> None:
    """The item's blocks, now ``item_blocks``, all placed at its first index."""
    out[idx[0]] = item_blocks
    for i in idx[1:]:
        out[i] = []


def _clear(out: dict[int, list[Block]], consumed: set[int], idx: list[int]) -> None:
    for i in idx:
        out[i] = []
        consumed.add(i)


def _link_rule(config: ListsConfig, lst: _List) -> str:
    return (f"{lst.link_items} of {lst.all_items} items are links: those made only of links, "
            f"with fewer than {config.link_item_words} words, removed")


# --------------------------------------------------------------------------- items


def link_letters(item) -> _Links:
    """Letters and digits of ``item`` inside links (see ``_is_link``), letters outside;
    nested lists and tables and unseen elements (script ...) left out. Counted in C
    (``kitten/_links.c``) when it is built, else by ``walk_link_letters``: the same
    counts."""
    if _links is not None:
        return _Links(*_links.link_letters(item))
    return walk_link_letters(item)


def walk_link_letters(item) -> _Links:
    """``link_letters`` in Python: one walk of the item."""
    if next(item.iter(_A_TAG), None) is None:  # no link at all: nothing to count
        return _Links(0, 0)
    parts: tuple[list[str], list[str]] = ([], [])  # texts outside links, inside links
    stack = [(item, False)]
    pop, push = stack.pop, stack.append
    while stack:
        el, linked = pop()
        tag = el.tag
        if isinstance(tag, str):  # an element (not a comment or processing instruction)
            if tag in _UNSEEN_TAGS or (tag in _GROUP_FULL_TAGS and el is not item):
                continue
            if not linked and tag == _A_TAG and _is_link(el):
                linked = True
            text = el.text
            if text:
                parts[linked].append(text)
        for child in el:
            tail = child.tail
            if tail:
                parts[linked].append(tail)
            push((child, linked))
    return _Links(alnum_count("".join(parts[True])), letter_count("".join(parts[False])))


def letter_count(text: str) -> int:
    """The letters (Python's regular expression ``[^\\W\\d_]``) of ``text``."""
    return _count(text, _NOT_LETTER_RUN, _NOT_LETTER_ASCII)


def alnum_count(text: str) -> int:
    """The letters and digits (``str.isalnum`` characters) of ``text``."""
    return _count(text, _NOT_ALNUM_RUN, _NOT_ALNUM_ASCII)


def _count(text: str, others: re.Pattern, not_ascii: bytes) -> int:
    """How many characters of ``text`` are of a class (letters, or letters and digits):
    ``others`` matches runs of the other characters, ``not_ascii`` is the ASCII bytes of
    the others. The ASCII characters are counted by deleting those bytes, the rest by
    deleting runs (in C, several times faster than a ``findall`` of the class)."""
    n = len(text.encode("ascii", "ignore").translate(None, not_ascii))
    if not text.isascii():
        n += len(others.sub("", _ASCII_RUN.sub("", text)))
    return n


def _c_links():
    """``kitten._links`` when it is built and counts a probe item as ``walk_link_letters``
    does (it reads lxml's element and libxml2's node structs as the headers of its build
    declare them), else None (not built: no C compiler or no lxml at install)."""
    try:
        from kitten import _links as c
    except ImportError:
        return None
    item = etree.fromstring(f'<li xmlns="{_NS[1:-1]}">é 1 <a href="/">Home 2</a><ul><li>x</li></ul>'
                            '<a name="n">y<a>z</a></a><!--c--><script>s</script>t²</li>')
    return c if _Links(*c.link_letters(item)) == walk_link_letters(item) else None


def _is_link(a) -> bool:
    """Is this ``<a>`` a link? It is unless it is only an anchor (``name`` or ``id``
    without ``href`` or ``onclick``): the normalizer drops ``data-href`` and other
    invalid attributes of script links, leaving a bare ``<a>``."""
    if a.get("href") is not None or a.get("onclick") is not None:
        return True
    return a.get("name") is None and a.get("id") is None


_links = _c_links()  # the C counter, or None (after the functions its probe runs)


def _fewer_words(text: str, n: int) -> bool:
    """Has ``text`` fewer than ``n`` words (white-space tokens with a letter or digit)?
    The tokens are only tested when there are ``n`` of them or more."""
    tokens = text.split()
    return len(tokens) < n or sum(1 for w in tokens if _ALNUM.search(w)) < n


@lru_cache(maxsize=8)
def _bullet_pattern(rules: str) -> re.Pattern:
    """One pattern of all the bullets of ``rules/bullets.txt``, anchored at the start."""
    return re.compile(r"\s*(?:" + "|".join(f"(?:{p})" for p in lines(rules, "", "bullets.txt")) + ")")


def _strip_bullet(block: Block, bullets: re.Pattern) -> Block:
    """``block`` without the hand-written bullet its text starts with (the same block
    when there is none; a block with no inlines left when the bullet was all its text)."""
    inlines = block.inlines
    for k, x in enumerate(inlines):
        if x is BR or x.isspace():
            continue
        m = bullets.match(x)
        if m is None or m.end() == 0:
            return block
        rest = x[m.end():]
        new = ([rest] if rest else []) + inlines[k + 1:]
        if not any(y is not BR and not y.isspace() for y in new):
            new = []
        return dataclasses.replace(block, inlines=new)
    return block


# --------------------------------------------------------------------------- clause


def _clause_before(start: int, ctx: _Context) -> tuple[int, list[Block], str] | None:
    """The introductory clause of a list whose first block is ``start``: (index of the
    clause's block, blocks that stay in its place, clause text), or None."""
    p = start - 1
    if p < 0 or p in ctx.consumed:
        return None
    current = ctx.current([p])
    if len(current) != 1:
        return None
    block = current[0]
    if block.kind not in _CLAUSE_KINDS:
        return None
    text = block.text().rstrip()
    if not text.endswith(":"):
        return None
    if BR in block.inlines:  # the last line, as segmentation would cut it
        parts = [s.text for s in segment(Document([block], ctx.lang), SegmentConfig(), PageLog(), ctx.rules)]
    else:
        parts = [collapsed(text)]
    if not parts or not parts[-1].endswith(":"):
        return None
    before, clause = _last_sentence(parts[-1])
    earlier = parts[:-1] + ([before] if before else [])
    head = [dataclasses.replace(block, inlines=_join_lines(earlier))] if earlier else []
    return p, head, clause


def _join_lines(segments: list[str]) -> list:
    """Inlines that segmentation reads back as ``segments`` (two ``<br>`` between them)."""
    inlines: list = []
    for s in segments:
        if inlines:
            inlines += [BR, BR]
        inlines.append(s)
    return inlines


def _last_sentence(text: str) -> tuple[str, str]:
    """(the sentences before the last one, the last one) of a one-line text. A boundary
    is a final mark, white space and a capital, digit or opening mark, not after an
    abbreviation, with some letter before it ("5. Hemolysis:" is one sentence)."""
    cut = 0
    for m in _BOUNDARY.finditer(text):
        nxt = text[m.end()]
        if not (nxt.isupper() or nxt.isdigit() or nxt in _OPENERS):
            continue
        if _ABBREVIATION.search(text, 0, m.start() + 1) or not _LETTER.search(text, 0, m.start()):
            continue
        cut = m.end()
    return text[:cut].rstrip(), text[cut:]


@lru_cache(maxsize=32)
def _language_list(rules: str, lang: str, name: str) -> frozenset[str]:
    """``rules/<lang>/<name>`` (none for a language without that file: no English
    fallback, English trigger words say nothing of German clauses)."""
    if not (rules_dir(rules) / lang / name).is_file():
        return frozenset()
    return word_list(rules, lang, name)


def _trigger(clause: str, triggers: frozenset[str]) -> str:
    """The trigger word or phrase ``clause`` (ending with a colon) ends with, or ""."""
    if not triggers:
        return ""
    words = _WORDS.findall(clause.lower())
    for n in (3, 2, 1):
        if len(words) >= n:
            phrase = " ".join(words[-n:])
            if phrase in triggers:
                return phrase
    return ""


# --------------------------------------------------------------------------- sentences


def _trailing_conjunction(text: str) -> re.Match | None:
    """:data:`_TRAILING_CONJUNCTION` in ``text``, searched only when the text's last
    characters (white space apart) could end it: ``,`` ``;`` or the end of a conjunction
    (the search tries every position of the text)."""
    end = text.rstrip()[-2:]
    if not end or not (end[-1] in ",;" or not end.isascii() or end.lower() in _CONJUNCTION_ENDS):
        return None
    return _TRAILING_CONJUNCTION.search(text)


def _finish(text: str, keep_colon: bool = False, rules: str = "") -> str:
    """``text`` as a sentence: a trailing conjunction ("; and") is dropped, a final
    ``, ;`` (and ``:`` unless ``keep_colon``) becomes a full stop, a full stop is added
    unless it ends with ``. ? ! …`` (closing quotes and brackets allowed) or takes none
    (``kitten/stops.py``: Chinese or Japanese, a URL or an e-mail address alone, a credit
    line; ``rules``: the rules folder)."""
    text = text.rstrip()
    conjunction = _trailing_conjunction(text)
    if conjunction is not None:
        text = text[:conjunction.start()].rstrip()
    if not text or ends_sentence(text) or (keep_colon and text.endswith(":")) or takes_no_stop(text, rules):
        return text
    if text[-1] in _REPLACED_MARKS:
        return text[:-1].rstrip() + "."
    return text + "."


def _join_sentence(clause: str, items: list[str], rules: str = "") -> str:
    """Clause and items as one sentence: "clause: a, b, c." (an item already ending with
    ``. ? ! ; ,`` or a conjunction such as "; and" keeps its ending)."""
    parts = [clause]
    last = len(items) - 1
    for k, item in enumerate(items):
        if k == last:
            parts.append(" " + _finish(item, True, rules))
        elif ends_sentence(item) or item[-1] in ",;" or _trailing_conjunction(item):
            parts.append(f" {item}")
        else:
            parts.append(f" {item},")
    return "".join(parts)


# --------------------------------------------------------------------------- definitions


def _pair_definitions(lst: _List, kept, out: dict[int, list[Block]], consumed: set[int], rules: str = "") -> int:
    """dt/dd pairs as "term: definition." blocks; returns the number of pairs."""
    pairs = 0
    terms: list[tuple[str, list[int]]] = []  # the dt items waiting for their dd
    used_terms = False
    for item, item_blocks, idx in kept:
        local = _local(item.tag)
        if local == "dt":
            if used_terms:
                terms, used_terms = [], False
            text = collapsed(" ".join(b.text() for b in item_blocks))
            if text:
                terms.append((text, idx))
            continue
        if local != "dd" or not terms or not item_blocks:
            continue
        term = ", ".join(t for t, _ in terms)
        if ends_sentence(term):
            continue
        first = item_blocks[0]
        definition = collapsed(first.text())
        if not definition:
            continue
        joined = f"{term} {definition}" if term.endswith(":") else f"{term}: {definition}"
        sentence = Block("list", "dl", lst.element, [_finish(joined, rules=rules)], lst.element)
        for _, t_idx in terms:
            _clear(out, consumed, t_idx)
        out[idx[0]] = [sentence] + item_blocks[1:]
        for i in idx[1:]:
            out[i] = []
        consumed.update(idx)
        used_terms = True
        pairs += 1
    return pairs


# --------------------------------------------------------------------------- log


def _log(reading: ListReading, log: PageLog) -> None:
    """One event per removed link item, one per rewritten list."""
    if not (reading.removed or reading.bullets or reading.type in _REWRITES):
        return

    def where() -> str:  # the list's locator, made when the log is read
        return reading.locator

    for text in reading.removed:
        log.add("lists", LINK_ITEM_REMOVED, text, where=where)
    if reading.bullets:
        log.add("lists", "bullets-removed", f"{reading.bullets} hand-written bullets", where=where)
    if reading.type in _REWRITES:
        clause = f"; clause {reading.clause!r}" if reading.clause else ""
        log.add("lists", reading.type, f"{reading.items} items: {reading.rule}{clause}", where=where)


_REWRITES = frozenset({"repeated-clause", "flattened-sentence", "flattened-items", "definition"})
