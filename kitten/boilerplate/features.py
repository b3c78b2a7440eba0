"""Features of the text blocks for the boilerplate CRF (Victor's, plus Boilerpipe's).

One pass over the document's blocks, plus ancestor walks cached per element. Every
block gets a list of string features (``name`` for a binary feature, ``name=value`` for
a numeric one mapped to a finite value: the *largest threshold less than or equal to*
the value, thresholds in :class:`FeatureSettings`). Then the templates add each
neighbour's features with a prefix (``-1:`` previous block, ``+1:`` next block;
``container.*`` but the keywords, ``doc.*`` and ``position`` left out: the same for
every block, or too many), and ``BOS``/``EOS`` at the ends.

Feature families, each switched on or off by name in ``FeatureSettings.families``:

``markup`` (Victor)
    ``container.<tag>`` for every ancestor of the block's element (original names of
    renamed HTML5 elements), ``container.<tag>.<token>`` for the tokens of its ``class``
    and ``id`` (lower-cased, digits removed), ``container.kw.<word>`` when a class or id
    contains a word of :data:`KEYWORDS` (``nav``, ``footer``, ``content`` ...: what
    generalizes across sites), ``tag.<name>``/``kind.<kind>`` of the block itself.
``split`` (Victor)
    ``split.<tag>=<count>``: the elements opened or closed between the previous block
    and this one (``split.open.<tag>``/``split.close.<tag>`` too), ``split.br=<n>``
    for line breaks inside the block.
``content`` (Victor)
    character class ratios (``char.alpha``, ``char.digit``, ``char.upper``,
    ``char.punct``, ``char.space``), character and token counts (``chars``,
    ``tokens``), token class ratios (``tok.upper-initial``, ``tok.all-upper``,
    ``tok.digit``, ``tok.stopword``: function words of ``rules/<lang>/stopwords.txt``,
    jusText's best clue, and their count ``stopwords``), ``sentences`` (count) and ``sentence-len`` (mean tokens),
    ``begin.upper``/``begin.lower``/``begin.digit``/``begin.other``,
    ``end.stop``/``end.colon``/``end.other``, ``bullet`` (starts with a hand-written
    bullet), ``regexp.url``/``regexp.date``/``regexp.time``/``regexp.email``/
    ``regexp.copyright``.
``duplicate`` (Victor)
    ``duplicate-count=<n>`` (blocks of the page with the same text) and
    ``first-duplicate`` (the first of them).
``group`` (Victor)
    ``div-group.word-ratio`` and ``td-group.word-ratio``: the share of the page's
    words (outside links) in the block's nearest ``div`` (any block container) and
    nearest ``td``.
``document`` (Victor)
    ``position`` (block index / blocks), ``doc.words``, ``doc.sentences``,
    ``doc.blocks``, ``doc.max-div-group``, ``doc.max-td-group``.
``shallow`` (Boilerpipe, Kohlschütter et al. 2010)
    ``link-density`` (letters inside links / letters), ``text-density`` (words per
    80-character line), ``quotient.prev`` (words of the previous block / this one)
    and ``quotient.next`` (this one / the next).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from operator import itemgetter, methodcaller
from dataclasses import asdict, dataclass, field

from kitten.document import BR, Block
from kitten.resources import word_list

_NS = "{http://www.w3.org/1999/xhtml}"
_NS_LEN = len(_NS)

FAMILIES = ("markup", "split", "content", "duplicate", "group", "document", "shallow")
#: class/id words that mean the same on most sites
KEYWORDS = ("nav", "menu", "foot", "head", "side", "comment", "content", "article", "post", "entry",
            "main", "body", "story", "text", "date", "author", "share", "social", "related", "ad",
            "banner", "promo", "widget", "title", "breadcrumb", "tag", "meta", "copy", "link", "login",
            "search", "caption", "print", "email", "subscribe")
RATIOS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
COUNTS = (0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000, 2000, 5000)
QUOTIENTS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0, 10.0)


@dataclass(frozen=True)
class FeatureSettings:
    """What features are computed and how numbers are mapped to finite values (a
    number becomes the largest threshold less than or equal to it). Shipped with the
    model (``classifiers/boilerplate.json``): tagging uses the model's own settings."""

    families: tuple[str, ...] = FAMILIES
    ratio_thresholds: tuple[float, ...] = RATIOS
    count_thresholds: tuple[float, ...] = COUNTS
    quotient_thresholds: tuple[float, ...] = QUOTIENTS
    #: features of the neighbours added with a prefix (offsets)
    window: tuple[int, ...] = (-1, 1)

    def as_dict(self) -> dict:
        return {k: list(v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict) -> "FeatureSettings":
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: tuple(v) for k, v in data.items() if k in known})


def bucket(value: float, thresholds: tuple[float, ...]) -> float:
    """The largest threshold <= value (the first threshold when value is below all).

    >>> bucket(0.33, RATIOS), bucket(12, COUNTS), bucket(-1, COUNTS)
    (0.3, 10, 0)
    """
    i = bisect_right(thresholds, value)
    return thresholds[i - 1] if i else thresholds[0]


_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
_URL = re.compile(r"https?://|www\.\w", re.I)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+")
_DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                   r"[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.I)
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
_COPYRIGHT = re.compile(r"©|\(c\)|copyright|all rights reserved", re.I)
_REGEXPS = (("url", _URL), ("date", _DATE), ("time", _TIME), ("email", _EMAIL), ("copyright", _COPYRIGHT))
_ANY_REGEXP = re.compile("|".join(f"(?:{rx.pattern})" for _, rx in _REGEXPS), re.I)
_BULLET = re.compile(r"^\s*(?:[-*•·»>■□◦▪‣–—|]|\d{1,2}[.)]\s)")
_STRIP = ".,;:!?\"'()[]«»“”‘’"


def _has_digit(token: str) -> bool:
    return any(map(str.isdigit, token))


_TOKEN_SPLIT = re.compile(r"[\W_]+")


def _original(el) -> str:
    tag = el.tag
    local = tag[_NS_LEN:] if isinstance(tag, str) and tag.startswith(_NS) else str(tag)
    cls = el.get("class")
    if cls and "kitten-" in cls:
        for token in cls.split():
            if token.startswith("kitten-"):
                return token[7:]
    return local


def _tokens(value: str) -> list[str]:
    return [t for t in _TOKEN_SPLIT.split(re.sub(r"\d+", "", value.lower())) if t and t != "kitten"]


class _Tree:
    """Per-element facts, cached: ancestor chain and container features."""

    __slots__ = ("chains", "marks", "names", "body")

    def __init__(self, body):
        self.chains: dict = {}
        self.marks: dict = {}
        self.names: dict = {}
        self.body = body

    def name(self, el) -> str:
        """The element's original name (cached)."""
        n = self.names.get(el)
        if n is None:
            n = self.names[el] = _original(el)
        return n

    def chain(self, el) -> tuple:
        """The elements from ``body`` (excluded) down to ``el`` (included)."""
        c = self.chains.get(el)
        if c is None:
            parent = el.getparent()
            if parent is None or el is self.body:
                c = ()
            else:
                c = self.chain(parent) + (el,)
            self.chains[el] = c
        return c

    def marks_of(self, el) -> tuple[str, ...]:
        """``container.*`` features of one element."""
        m = self.marks.get(el)
        if m is None:
            tag = self.name(el)
            out = [f"container.{tag}"]
            for attr in ("class", "id"):
                v = el.get(attr)
                if v:
                    toks = _tokens(v)
                    out.extend(f"container.{tag}.{t}" for t in toks[:3])
                    low = v.lower()
                    out.extend(f"container.kw.{k}" for k in KEYWORDS if k in low)
            m = self.marks[el] = tuple(dict.fromkeys(out))
        return m


@dataclass
class _Facts:
    text: str
    words: int
    link_letters: int
    letters: int
    sentences: int


def _link_letters(blocks: list[Block], body) -> dict:
    """Letters inside ``<a href>`` per block source element (links assigned to the
    nearest ancestor that is a block's source)."""
    sources = {b.source for b in blocks}
    owner: dict = {}
    out: dict = {}
    if body is None:
        return out
    for a in body.iter(_NS + "a"):
        if a.get("href") is None and a.get("onclick") is None:
            continue
        el, walked = a, []
        found = None
        while el is not None:
            if el in owner:
                found = owner[el]
                break
            walked.append(el)
            if el in sources:
                found = el
                break
            el = el.getparent()
        for w in walked:
            owner[w] = found
        if found is not None:
            n = sum(ch.isalnum() for ch in "".join(a.itertext()))
            out[found] = out.get(found, 0) + n
    return out


def block_features(blocks: list[Block], settings: FeatureSettings = FeatureSettings(),
                   lang: str = "en", rules: str = "") -> list[list[str]]:
    """The feature strings of each block, neighbour templates included (``lang`` and
    ``rules`` select the stop-word list, ``rules/<lang>/stopwords.txt``)."""
    own = _own_features(blocks, settings, lang, rules)
    shared = [_shared(x) for x in own]
    return [_with_window(own, shared, i, settings.window) for i in range(len(own))]


def crf_items(blocks: list[Block], settings: FeatureSettings = FeatureSettings(),
              lang: str = "en", rules: str = "") -> list[dict]:
    """The same features as :func:`block_features`, as CRFsuite items: dicts whose
    neighbour parts are nested (``{"-1": {...}}``), which python-crfsuite flattens to
    ``-1:name`` in C (the names the model was trained on), faster than Python strings."""
    own = _own_features(blocks, settings, lang, rules)
    nb = [dict.fromkeys(_shared(x), 1.0) for x in own]
    n = len(own)
    items = []
    for i, feats in enumerate(own):
        item = dict.fromkeys(feats, 1.0)
        item["bias"] = 1.0
        for d in settings.window:
            j = i + d
            item[f"{d:+d}"] = nb[j] if 0 <= j < n else {"BOS" if j < 0 else "EOS": 1.0}
        items.append(item)
    return items


def _own_features(blocks: list[Block], settings: FeatureSettings, lang: str, rules: str) -> list[list[str]]:
    """Each block's own features (no neighbours)."""
    if not blocks:
        return []
    stop = word_list(rules, lang, "stopwords.txt")
    fam = frozenset(settings.families)
    R, C, Q = settings.ratio_thresholds, settings.count_thresholds, settings.quotient_thresholds
    root = blocks[0].source.getroottree().getroot() if blocks[0].source is not None else None
    body = root.find(_NS + "body") if root is not None else None
    tree = _Tree(body)
    links = _link_letters(blocks, body) if ("shallow" in fam or "group" in fam) else {}
    facts: list[_Facts] = []
    dup: dict[str, int] = {}
    for b in blocks:
        text = " ".join(b.text().split())
        words = len(text.split())
        letters = sum(map(str.isalnum, text))
        ll = min(links.get(b.source, 0), letters)
        sentences = max(1, len(_SENTENCE_END.findall(text))) if words else 0
        facts.append(_Facts(text, words, ll, letters, sentences))
        key = text.lower()
        dup[key] = dup.get(key, 0) + 1
    n = len(blocks)
    total_words = sum(f.words for f in facts) or 1
    total_sentences = sum(f.sentences for f in facts)
    # group features: words outside links per nearest div-like and td container
    div_of: list = []
    td_of: list = []
    div_words: dict = {}
    td_words: dict = {}
    if "group" in fam or "document" in fam:
        for b, f in zip(blocks, facts):
            chain = tree.chain(b.source) if b.source is not None else ()
            div = td = None
            for el in reversed(chain):
                tag = tree.name(el)
                if td is None and tag in ("td", "th"):
                    td = el
                if div is None and tag in ("div", "section", "article", "main", "td", "body", "form",
                                           "center", "aside", "nav", "header", "footer"):
                    div = el
                if div is not None and td is not None:
                    break
            outside = f.words * (1 - f.link_letters / f.letters) if f.letters else 0
            div_of.append(div)
            td_of.append(td)
            if div is not None:
                div_words[div] = div_words.get(div, 0) + outside
            if td is not None:
                td_words[td] = td_words.get(td, 0) + outside
    max_div = max(div_words.values(), default=0) / total_words
    max_td = max(td_words.values(), default=0) / total_words
    seen: set[str] = set()
    own: list[list[str]] = []
    prev_chain: tuple = ()
    for i, (b, f) in enumerate(zip(blocks, facts)):
        out: list[str] = []
        text = f.text
        chain = tree.chain(b.source) if b.source is not None else ()
        if "markup" in fam:
            out.append(f"tag.{b.tag}")
            out.append(f"kind.{b.kind}")
            for el in chain[:-1] if chain and chain[-1] is b.source else chain:
                out.extend(tree.marks_of(el))
            if chain:
                out.extend(m for m in tree.marks_of(chain[-1]) if m.count(".") > 1)
        if "split" in fam:
            k = 0
            while k < len(chain) and k < len(prev_chain) and chain[k] is prev_chain[k]:
                k += 1
            counts: dict[str, int] = {}
            for el in prev_chain[k:]:
                t = tree.name(el)
                out.append(f"split.close.{t}")
                counts[t] = counts.get(t, 0) + 1
            for el in chain[k:]:
                t = tree.name(el)
                out.append(f"split.open.{t}")
                counts[t] = counts.get(t, 0) + 1
            out.extend(f"split.{t}={bucket(c, C)}" for t, c in counts.items())
            brs = sum(1 for x in b.inlines if x is BR)
            out.append(f"split.br={bucket(brs, C)}")
            prev_chain = chain
        if "content" in fam:
            nc = len(text) or 1
            alpha = sum(map(str.isalpha, text))
            digit = sum(map(str.isdigit, text))
            upper = sum(map(str.isupper, text))
            space = text.count(" ")
            punct = nc - alpha - digit - space
            out += [f"char.alpha={bucket(alpha / nc, R)}", f"char.digit={bucket(digit / nc, R)}",
                    f"char.upper={bucket(upper / nc, R)}", f"char.punct={bucket(punct / nc, R)}",
                    f"char.space={bucket(space / nc, R)}", f"chars={bucket(len(text), C)}",
                    f"tokens={bucket(f.words, C)}"]
            toks = text.split()
            if toks:
                nt = len(toks)
                out += [f"tok.upper-initial={bucket(sum(map(str.isupper, map(itemgetter(0), toks))) / nt, R)}",
                        f"tok.all-upper={bucket(sum(map(str.isupper, toks)) / nt, R)}",
                        f"tok.digit={bucket(sum(map(_has_digit, toks)) / nt, R)}"]
                n_stop = sum(map(stop.__contains__, map(methodcaller("strip", _STRIP), text.lower().split())))
                out += [f"tok.stopword={bucket(n_stop / nt, R)}", f"stopwords={bucket(n_stop, C)}"]
            out += [f"sentences={bucket(f.sentences, C)}",
                    f"sentence-len={bucket(f.words / f.sentences if f.sentences else 0, C)}"]
            first = text[:1]
            out.append("begin.upper" if first.isupper() else "begin.lower" if first.islower()
                       else "begin.digit" if first.isdigit() else "begin.other")
            last = text[-1:]
            out.append("end.stop" if last in ".!?\"”'" else "end.colon" if last == ":" else "end.other")
            if _BULLET.match(text):
                out.append("bullet")
            if _ANY_REGEXP.search(text):  # one cheap test first: most blocks match none
                for name, rx in _REGEXPS:
                    if rx.search(text):
                        out.append(f"regexp.{name}")
        if "duplicate" in fam:
            key = text.lower()
            out.append(f"duplicate-count={bucket(dup[key], C)}")
            if dup[key] > 1 and key not in seen:
                out.append("first-duplicate")
            seen.add(key)
        if "group" in fam:
            d, t = div_of[i], td_of[i]
            out.append(f"div-group.word-ratio={bucket(div_words.get(d, 0) / total_words, R)}")
            out.append(f"td-group.word-ratio={bucket(td_words.get(t, 0) / total_words, R)}"
                       if t is not None else "td-group.none")
        if "document" in fam:
            out += [f"position={bucket(i / n, R)}", f"doc.words={bucket(total_words, C)}",
                    f"doc.sentences={bucket(total_sentences, C)}", f"doc.blocks={bucket(n, C)}",
                    f"doc.max-div-group={bucket(max_div, R)}", f"doc.max-td-group={bucket(max_td, R)}"]
        if "shallow" in fam:
            out.append(f"link-density={bucket(f.link_letters / f.letters if f.letters else 0, R)}")
            lines = max(1, -(-len(text) // 80))
            out.append(f"text-density={bucket(f.words / lines, C)}")
            pw = facts[i - 1].words if i else 0
            nw = facts[i + 1].words if i + 1 < n else 0
            out.append(f"quotient.prev={bucket(pw / f.words if f.words else 10.0, Q)}")
            out.append(f"quotient.next={bucket(f.words / nw if nw else 10.0, Q)}")
        own.append(out)
    return own


# not repeated for the neighbours: the same for every block, or too many
_PAGE_WIDE = ("container.", "doc.", "position")


def _shared(own: list[str]) -> list[str]:
    """The features of a block its neighbours see."""
    return [x for x in own if not x.startswith(_PAGE_WIDE) or ".kw." in x]


def _with_window(own: list[list[str]], shared: list[list[str]], i: int, window: tuple[int, ...]) -> list[str]:
    out = ["bias", *own[i]]
    n = len(own)
    for d in window:
        j = i + d
        prefix = f"{d:+d}:"
        if 0 <= j < n:
            out.extend(prefix + x for x in shared[j])
        else:
            out.append(prefix + ("BOS" if j < 0 else "EOS"))
    return out
