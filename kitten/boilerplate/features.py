"""Features of the text blocks for the boilerplate CRF (Victor's, plus Boilerpipe's).

Each block's facts are computed once (:func:`text_facts`, in C when ``_facts.c`` is
built), each element's context once from its parent's; then each family adds its
features to every block's list, in the order below. Every block gets a list of string
features (``name`` for a binary feature, ``name=value`` for a numeric one mapped to a
finite value: the *largest threshold less than or equal to* the value, thresholds in
:class:`FeatureSettings`). Then the templates add each
neighbour's features with a prefix (``-1:`` previous block, ``+1:`` next block;
``container.*`` but the keywords, ``doc.*`` and ``position`` left out: the same for
every block, or too many), and ``BOS``/``EOS`` at the ends.

Feature families, each switched on or off by name in ``FeatureSettings.families``:

``markup`` (Victor, with a vocabulary)
    ``container.<tag>`` for every ancestor of the block's element (original names of
    renamed HTML5 elements: ``container.article``, ``container.nav``, ``container.aside``,
    ``container.main``, ``container.header``, ``container.footer``, ``container.form``,
    ``container.figure`` ...), ``container.kw.<word>`` for each word of
    :data:`VOCABULARY` among the whole tokens of an ancestor's ``class`` and ``id``
    (split on ``-``, ``_``, digits and camelCase: ``articleBody`` -> article, body), once
    however many ancestors carry it; ``container.kw.role-<role>`` for ARIA roles
    (``role-main``, ``role-navigation``, ``role-banner``, ``role-contentinfo``,
    ``role-complementary`` ...), ``container.kw.itemprop-<name>`` and
    ``container.kw.itemtype-<type>`` for microdata (``itemprop-articlebody``,
    ``itemtype-newsarticle``), ``container.kw.aria-hidden``: the normalizer keeps these
    attributes as ``kitten.`` class tokens (``kitten/normalizer/xhtml.py``);
    ``tag.<name>``/``kind.<kind>`` of the block itself. Raw class and id tokens are not
    features: they name one site's template, and a model that learns them learns its
    training sites.
``split`` (Victor)
    ``split.<tag>=<count>``: the elements opened or closed between the previous block
    and this one (``split.open.<tag>``/``split.close.<tag>`` too), ``split.br=<n>``
    for line breaks inside the block.
``content`` (Victor)
    character class ratios (``char.alpha``, ``char.digit``, ``char.upper``,
    ``char.punct``, ``char.space``), character and token counts (``chars``,
    ``tokens``), token class ratios (``tok.upper-initial``, ``tok.all-upper``,
    ``tok.digit``, ``tok.stopword``: function words of ``rules/<lang>/stopwords.txt``,
    jusText's best clue, and their count ``stopwords``; the list is the page's
    (``kitten.language.page_stop_words``: the declared language's when it fits the
    page's words, else the best fitting of 56 languages); when none fits, a block
    written mostly in a script without spaces counts its function characters instead
    (:data:`_FUNCTION_CHARS`: hiragana, Chinese function characters; the ratio to its
    characters, about 0.3-0.5 in Japanese prose and near 0 in menus of kanji and
    katakana nouns, like a stop-word ratio), other blocks get ``tok.stopword=na`` (a
    language without a list)), ``sentences``
    (count; ``。！？`` count too) and ``sentence-len`` (mean tokens; in scripts written
    without spaces, a word is counted per two characters: :func:`word_count`),
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
``page`` (what a page says about itself; :func:`_landmarks`)
    ``title.before``/``title.at``/``title.after``/``title.none``: the block against the
    page's title block (the first heading, else short block, whose words are mostly
    the title's: ``og:title``, else ``<title>``; else the first ``h1``), and
    ``title.match`` on every block that reads as the title; ``ld.body``/``ld.part``/
    ``ld.out``/``ld.short`` (share of the block's words in the JSON-LD ``articleBody``
    the page declares, 80% / 40% or more, less, under 3 words) or ``ld.none``;
    ``region.in``, else ``region.before``/``region.after`` and ``region.dist=<n>``
    (blocks to the nearest block in it): the page's densest text region (:func:`_region`:
    the element whose children's prose weighs most, as Readability scores candidates),
    or ``region.none`` on a page without prose.
``shallow`` (Boilerpipe, Kohlschütter et al. 2010)
    ``link-density`` (letters inside links / letters), ``text-density`` (words per
    80-character line), ``quotient.prev`` (words of the previous block / this one)
    and ``quotient.next`` (this one / the next).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from operator import itemgetter, methodcaller
from dataclasses import asdict, dataclass
from functools import lru_cache, partial
from typing import Callable, NamedTuple

from lxml import etree

from kitten.config import FAMILIES
from kitten.document import BR, Block
from kitten.normalizer.xhtml import SEMANTIC_PREFIX
from kitten.language import CHOICE_TOKENS, page_stop_words, stop_word_index, stop_words_of_counts
from kitten.lists import alnum_count
from kitten.metadata import json_ld_objects
from kitten.native import checked
from kitten.structure import PROBE_PAGE, parse_xhtml

try:
    from kitten.boilerplate import _facts
except ImportError:  # not built (no C compiler at install): text_facts does it in Python
    _facts = None

_NS = "{http://www.w3.org/1999/xhtml}"
_NS_LEN = len(_NS)

#: class/id words that mean the same on most sites, each with the spellings that name it
#: (whole tokens of a class or id split on ``-``, ``_``, white space, digits and
#: camelCase; a plural ``s`` dropped): ``container.kw.<word>``. Raw tokens outside this
#: vocabulary are not features: they name one site's template, and a model that learns
#: them learns its training sites (``c``, ``u``, ``xs``, ``widget-3`` ...).
VOCABULARY: dict[str, tuple[str, ...]] = {
    "content": ("content", "contents", "maincontent", "pagecontent"),
    "article": ("article", "articles", "articlebody", "articletext"),
    "post": ("post", "posts", "postbody", "postcontent", "hentry"),
    "entry": ("entry", "entries", "entrycontent"),
    "story": ("story", "stories", "storybody", "storytext"),
    "body": ("body", "bodytext"),
    "text": ("text", "txt", "richtext", "rte", "prose", "paragraph", "para"),
    "main": ("main",),
    "blog": ("blog",),
    "news": ("news",),
    "detail": ("detail", "details"),
    "nav": ("nav", "navigation", "navbar", "navi", "topnav", "subnav", "mainnav"),
    "menu": ("menu", "menus", "submenu", "megamenu", "dropdown", "hamburger"),
    "breadcrumb": ("breadcrumb", "breadcrumbs", "crumbs", "crumb"),
    "header": ("header", "head", "masthead", "topbar"),
    "footer": ("footer", "foot", "bottom"),
    "side": ("sidebar", "side", "aside", "rail", "sidenav"),
    "widget": ("widget", "widgets", "module", "block", "blocks", "box", "panel"),
    "comment": ("comment", "comments", "reply", "replies", "discussion", "disqus", "respond"),
    "share": ("share", "sharing", "sharebar", "social", "socials", "follow", "tweet", "twitter",
              "facebook", "linkedin", "whatsapp", "pinterest"),
    "related": ("related", "recommend", "recommended", "recommendation", "recommendations", "more",
                "popular", "trending", "mostread", "readmore", "also", "next", "outbrain", "taboola"),
    "cookie": ("cookie", "cookies", "consent", "gdpr", "privacy", "cmp"),
    "banner": ("banner", "alert", "notice", "notification", "modal", "popup", "overlay", "lightbox"),
    "ad": ("ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsense", "dfp", "gpt",
           "sponsor", "sponsored", "promo", "promoted", "promotion", "commercial", "partner", "affiliate"),
    "newsletter": ("newsletter", "subscribe", "subscription", "signup", "register", "paywall", "premium"),
    "login": ("login", "signin", "account", "user", "profile"),
    "search": ("search", "searchform", "query"),
    "tag": ("tag", "tags", "category", "categories", "topic", "topics", "label", "labels", "keywords"),
    "meta": ("meta", "byline", "author", "authors", "date", "time", "timestamp", "published", "dateline",
             "updated", "info"),
    "caption": ("caption", "figcaption", "credit", "credits", "figure", "image", "img", "photo", "media",
                "video", "gallery", "slideshow", "slider", "carousel", "player", "embed"),
    "title": ("title", "headline", "heading", "hed", "dek", "subtitle", "subhead", "kicker"),
    "summary": ("summary", "lead", "lede", "intro", "standfirst", "teaser", "excerpt", "abstract",
                "description", "desc"),
    "card": ("card", "cards", "tile", "tiles", "teasers", "list", "listing", "item", "items", "feed"),
    "link": ("link", "links", "button", "btn", "cta", "icon", "icons", "logo"),
    "print": ("print", "email", "mail", "tools", "toolbar", "actions", "utility", "utilities"),
    "pagination": ("pagination", "pager", "paging", "prev", "previous", "pages"),
    "copyright": ("copyright", "legal", "disclaimer", "terms", "license", "imprint"),
    "hidden": ("hidden", "hide", "invisible", "sronly", "visuallyhidden", "screenreader", "offscreen",
               "skip", "skiplink"),
    "contact": ("contact", "address", "about", "bio", "contributor"),
}
_VOCABULARY = {token: word for word, tokens in VOCABULARY.items() for token in tokens}
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
    #: the unit rules applied to the blocks before labelling (``kitten/boilerplate/units.py``;
    #: none: the structure step's blocks as they are, also for a model file that does not
    #: name any). Training takes them from ``[boilerplate] units``.
    units: tuple[str, ...] = ()

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


_URL = re.compile(r"https?://|www\.\w", re.I)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+")
_DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                   r"[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.I)
#: what each alternative of :data:`_DATE` needs: digits around a separator, or a month
_DATE_NUMERIC = re.compile(r"\d[./-]\d")
_MONTH = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec")  # on lower-cased text
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
_COPYRIGHT = re.compile(r"©|\(c\)|copyright|all rights reserved", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•·»>■□◦▪‣–—|]|\d{1,2}[.)]\s)")
#: the first characters of the texts :data:`_BULLET` matches (but digits and white space)
_BULLET_FIRST = frozenset("-*•·»>■□◦▪‣–—|")
_STRIP = ".,;:!?\"'()[]«»“”‘’"
#: sentence ends of scripts written without spaces
_FULL_STOPS = ("。", "！", "？", "｡")
_END_STOP = frozenset(".!?\"”'」』" + "".join(_FULL_STOPS))
#: characters of scripts written without spaces between words (CJK ideographs, kana,
#: Thai, Lao, Myanmar, Khmer)
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                       r"\uf900-\ufaff]")
#: the function characters of scripts without spaces, their stop words: hiragana
#: (Japanese particles and endings) and the commonest Chinese function characters
#: (simplified and traditional)
_FUNCTION_CHARS = re.compile(r"[\u3041-\u309f的了是在和有不这這我他也就都而及与與着著对對为為以之其但被把从從到会會"
                             r"能将將等个個们們来來说說要所那你她它或并並还還又很已如因此于於由该該]")


def _has_digit(token: str) -> bool:
    return any(map(str.isdigit, token))


_TOKEN_SPLIT = re.compile(r"[\W_]+")


_DIGITS = re.compile(r"\d+")


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def name_words(value: str) -> list[str]:
    """The vocabulary words (:data:`VOCABULARY`) of a ``class`` or ``id``, in order, each
    once: each token whole, else its camelCase parts.

    >>> name_words("articleBody post-content__text sidebar_widget3 c xs mainNavLinks")
    ['article', 'post', 'content', 'text', 'side', 'widget', 'main', 'nav', 'link']
    """
    out: dict[str, None] = {}
    for token in _TOKEN_SPLIT.split(_DIGITS.sub(" ", value)):
        word = _word(token.lower())
        if word is not None:
            out[word] = None
        elif not token.islower():
            for part in _CAMEL.split(token):
                word = _word(part.lower())
                if word is not None:
                    out[word] = None
    return list(out)


def _word(token: str) -> str | None:
    word = _VOCABULARY.get(token)
    if word is None and token.endswith("s"):
        word = _VOCABULARY.get(token[:-1])
    return word


_TD = frozenset(("td", "th"))
_DIVS = frozenset(("div", "section", "article", "main", "td", "body", "form", "center", "aside", "nav",
                   "header", "footer"))


#: the context of an element outside ``body`` (or of ``body`` itself)
_NO_CONTEXT: tuple = ((), (), (), (), (), None, None)


def block_contexts(blocks: list[Block], body, sources: list | None = None) -> list[tuple]:
    """``(chain, names, inherited, above, own, div, td)`` of each block's source element
    (:data:`_NO_CONTEXT` for a block without one): the elements from ``body`` (excluded)
    down to it (included) and their original names; the ``container.*`` features of
    that chain, with and without the element's own; its class/id features (not its
    ``container.<tag>``); the nearest ``div``-like and ``td``/``th`` element of the chain
    (``None`` when there is none). Each element's context is computed once, from its
    parent's (:func:`_child_context`): in C (:func:`_c_contexts`, on lxml's tree) when the
    extension is built, else :func:`_python_contexts`, the same tuples. ``sources``: the
    blocks' source elements when the caller has them."""
    if sources is None:
        sources = [b.source for b in blocks]
    contexts = _c_contexts()
    return contexts(sources, body) if contexts is not None else _python_contexts(sources, body)


@lru_cache(maxsize=1)
def _c_contexts() -> Callable | None:
    """:func:`block_contexts` in C (``kitten._structure.block_contexts``, reading each
    element's name, ``class`` and ``id`` from its libxml2 node with lxml's C API), or None
    when the module is not built (no C compiler or no lxml headers at install) or gives
    the elements of the structure step's probe page other contexts than
    :func:`_python_contexts` (:func:`kitten.native.checked`)."""
    body = parse_xhtml(PROBE_PAGE).find(_NS + "body")
    sources = [*body.iter(), None, body]
    contexts = checked("kitten._structure", "block_contexts", lambda c: c(
        _marks, _TD, _DIVS, _NO_CONTEXT, sources, body) == _python_contexts(sources, body))
    return None if contexts is None else partial(contexts, _marks, _TD, _DIVS, _NO_CONTEXT)


def _python_contexts(sources: list, body) -> list[tuple]:
    """:func:`block_contexts` in Python, of the source elements ``sources`` (or ``None``)."""
    cache: dict = {}
    out = []
    for el in sources:
        c = _NO_CONTEXT if el is None else cache.get(el)
        below: list = []  # el and its ancestors without a context yet, upwards
        while c is None:
            parent = el.getparent()
            if parent is None or el is body:
                c = cache[el] = _NO_CONTEXT
                break
            below.append(el)
            el = parent
            c = cache.get(el)
        for el in reversed(below):
            c = cache[el] = _child_context(c, el)
        out.append(c)
    return out


def _child_context(parent: tuple, el) -> tuple:
    """The context (:func:`block_contexts`) of ``el`` from its parent's."""
    chain, names, above, _, _, div, td = parent
    tag, marks, own = _marks(el.tag, el.get("class"), el.get("id"))
    if tag in _TD:
        td = el
    if tag in _DIVS:
        div = el
    # a vocabulary word counts once however many ancestors carry it (marks[0]
    # is container.<tag>, which counts each time)
    inherited = above + marks if len(marks) == 1 else \
        above + marks[:1] + tuple(m for m in marks[1:] if m not in above)
    return chain + (el,), names + (tag,), inherited, above, own, div, td


@lru_cache(maxsize=8192)
def _marks(tag, cls: str | None, id_: str | None) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The original name of an element (renamed HTML5 elements carry it as a
    ``kitten-<name>`` class), its ``container.*`` features, and those of its class and
    id alone. A pure function of the three strings, cached across pages (elements of
    the same name, class and id repeat within a page and from page to page of a site)."""
    tag = tag[_NS_LEN:] if isinstance(tag, str) and tag.startswith(_NS) else str(tag)
    if cls and "kitten-" in cls:
        for token in cls.split():
            if token.startswith("kitten-"):
                tag = token[7:]
                break
    out = [f"container.{tag}"]
    for v in (cls, id_):
        if v:
            # a value without kitten's tokens reads as name_words reads it, digits as spaces:
            # ids that differ in their numbers only (comment-123, comment-124) share an entry
            out += _value_marks(v if "kitten" in v else _DIGITS.sub(" ", v))
    marks = tuple(dict.fromkeys(out))
    return tag, marks, marks[1:]


@lru_cache(maxsize=8192)
def _value_marks(v: str) -> tuple[str, ...]:
    """The ``container.kw.*`` features of a ``class`` or ``id`` value ``v``: its semantic
    tokens (``kitten.`` ones: role, itemprop, itemtype, aria-hidden, kept by
    kitten/normalizer/xhtml.py), then its vocabulary words (:func:`name_words`). A pure
    function of the string, cached across pages."""
    out = []
    if "kitten." in v:
        semantic = [t for t in v.split() if t.startswith(SEMANTIC_PREFIX)]
        out += [f"container.kw.{t[len(SEMANTIC_PREFIX):]}" for t in semantic]
        v = " ".join(t for t in v.split() if not t.startswith(SEMANTIC_PREFIX))
    out += [f"container.kw.{w}" for w in name_words(v.replace("kitten-", " "))]
    return tuple(out)


class _Facts(NamedTuple):
    """What the families read of one block, computed once (:func:`block_facts`; a named
    tuple, so that the C extension makes it without a Python call per block)."""

    text: str  # white space collapsed to single spaces
    lower: str  # ``text`` lower-cased
    tokens: int  # ``text``'s white-space tokens
    words: int  # :func:`word_count`
    link_letters: int  # letters inside links (at most ``letters``)
    letters: int  # str.isalnum characters
    alpha: int  # str.isalpha characters
    digits: int  # str.isdigit characters (a superset of what \d matches)
    upper: int  # str.isupper characters
    token_counts: tuple[int, int, int]  # tokens upper-case initial, upper-case, with a digit
    sentences: int


_ASCII_ALPHA = bytes(range(65, 91)) + bytes(range(97, 123))
_ASCII_DIGIT = b"0123456789"
_ASCII_UPPER = bytes(range(65, 91))


#: from the first ASCII digit of a token to its end (the text's tokens are separated
#: by single spaces): one match per token with a digit
_ASCII_DIGIT_TOKEN = re.compile(r"[0-9][^ ]*")


def _count(data: bytes, chars: bytes) -> int:
    """How many bytes of ``data`` are in ``chars`` (C-level)."""
    return len(data) - len(data.translate(None, chars))


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _split_ascii(text: str) -> tuple[bytes, str]:
    """The ASCII characters of ``text`` (as bytes, for :func:`_count`) and the others: a
    character's class does not depend on its neighbours, so a count over ``text`` is
    the ASCII count plus a count over the (usually few) other characters."""
    return text.encode("ascii", "ignore"), "".join(_NON_ASCII.findall(text))


def char_counts(text: str) -> tuple[int, int, int, int]:
    """The ``str.isalpha``, ``str.isdigit``, ``str.isupper`` and ``str.isalnum``
    characters of ``text``."""
    if text.isascii():
        data = text.encode("ascii")
        alpha = _count(data, _ASCII_ALPHA)
        digit = _count(data, _ASCII_DIGIT)
        return alpha, digit, _count(data, _ASCII_UPPER), alpha + digit
    data, rest = _split_ascii(text)
    alpha = _count(data, _ASCII_ALPHA)
    digit = _count(data, _ASCII_DIGIT)
    return (alpha + sum(map(str.isalpha, rest)), digit + sum(map(str.isdigit, rest)),
            _count(data, _ASCII_UPPER) + sum(map(str.isupper, rest)), alpha + digit + sum(map(str.isalnum, rest)))


def token_counts(text: str, toks: list[str], upper: int, digits: int) -> tuple[int, int, int]:
    """Of the tokens ``toks`` of ``text`` (joined by single spaces; ``upper`` and
    ``digits``: its upper-case and digit characters), those whose first character is
    upper-case, those that are upper-case (``str.isupper``) and those with a digit."""
    # no upper-case (digit) character: no token counted (the same figures, faster)
    ui = sum(map(str.isupper, map(itemgetter(0), toks))) if upper else 0
    au = sum(map(str.isupper, toks)) if upper else 0
    dg = (len(_ASCII_DIGIT_TOKEN.findall(text)) if text.isascii() else sum(map(_has_digit, toks))) \
        if digits else 0
    return ui, au, dg


def text_facts(raw: str) -> tuple:
    """``(text, lower, tokens, alpha, digits, upper, alnum, upper_initial, all_upper,
    with_digit, words, sentences)`` of a block's text ``raw``: its white-space tokens
    joined by single spaces, lower-cased; how many tokens; the characters of ``text``
    that are letters, digits, upper-case, letters or digits (:func:`char_counts`); the
    tokens with an upper-case first character, upper-case (``str.isupper``), with a
    digit (:func:`token_counts`); its words (:func:`word_count`) and sentences
    (:func:`_sentences`). In C (``_facts.c``) when the extension is built, the same
    values. (Stop-word candidates: :func:`stripped_tokens` of ``lower``.)"""
    if _facts is not None:
        return _facts.text_facts(raw)
    toks = raw.split()
    text = " ".join(toks)
    lower = text.lower()
    alpha, digits, upper, alnum = char_counts(text)
    unspaced = _unspaced_chars(text) if not text.isascii() else 0
    words = len(toks) + unspaced // 2
    return (text, lower, len(toks), alpha, digits, upper, alnum, *token_counts(text, toks, upper, digits), words,
            _sentences(text, words, unspaced))


def stripped_tokens(lower: str) -> list[str]:
    """The tokens of a block's ``lower`` text with the punctuation of :data:`_STRIP`
    stripped from their ends (stop-word candidates, empty ones kept). The C paths
    (``_facts.stop_groups``, ``_facts.content``) read them in place instead."""
    return list(map(methodcaller("strip", _STRIP), lower.split()))


def _sentences(text: str, words: int, unspaced: int) -> int:
    """The sentences of a block's ``text`` (white space collapsed to single spaces) of
    ``words`` words and ``unspaced`` characters of scripts written without spaces: runs
    of . ! ? followed by a space or the end, and 。！？ when ``unspaced``; at least 1
    when it has words."""
    if not words:
        return 0
    ends = sum(map(text.count, _FULL_STOPS)) if unspaced else 0
    return max(1, text.count(". ") + text.count("! ") + text.count("? ") + ends + (text[-1] in ".!?"))


def _names(prefix: str, thresholds: tuple[float, ...]) -> list[str]:
    """``prefix=<threshold>`` for each threshold (what :func:`bucket` maps to), the
    first one twice: ``names[bisect_right(_below(thresholds), value) - 1]`` is the
    feature of ``value`` (values below every threshold map to the first)."""
    return [f"{prefix}={t}" for t in (thresholds[:1] + thresholds)]


@lru_cache(maxsize=8)
def _feature_names(R: tuple[float, ...], C: tuple[float, ...], Q: tuple[float, ...]) -> dict[str, list[str]]:
    """The names of every bucketed feature, per prefix (see :func:`_names`; read only)."""
    names = {p: _names(p, R) for p in ("char.alpha", "char.digit", "char.upper", "char.punct", "char.space",
                                       "tok.upper-initial", "tok.all-upper", "tok.digit", "tok.stopword",
                                       "div-group.word-ratio", "td-group.word-ratio", "position",
                                       "link-density")}
    names.update({p: _names(p, C) for p in ("chars", "tokens", "stopwords", "sentences", "sentence-len",
                                            "duplicate-count", "text-density", "split.br", "region.dist")})
    names.update({p: _names(p, Q) for p in ("quotient.prev", "quotient.next")})
    return names


def _below(thresholds: tuple[float, ...]) -> tuple[float, ...]:
    return (float("-inf"),) + tuple(thresholds)


def _link_letters(blocks: list[Block], body) -> dict:
    """Letters and digits inside ``<a href>`` (or ``onclick``) per block source element
    (links assigned to the nearest ancestor-or-self that is a block's source): in C
    (``kitten._links.block_link_letters``, on lxml's tree itself: :func:`_c_link_letters`)
    when the extension is built, else :func:`_python_link_letters`, the same counts."""
    if body is None:
        return {}
    sources = [b.source for b in blocks]
    count = _c_link_letters()
    return count(sources, body) if count is not None else _python_link_letters(sources, body)


def _python_link_letters(sources: list, body) -> dict:
    """:func:`_link_letters` in Python, of the source elements ``sources``."""
    sources = set(sources)
    owner: dict = {}
    out: dict = {}
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
            out[found] = out.get(found, 0) + alnum_count("".join(a.itertext()))
    return out


#: a page whose links :func:`_c_link_letters` counts in C and in Python: links with
#: ``href`` or ``onclick`` (or neither), nested, around comments, CDATA and non-ASCII
#: text, inside and outside the probe's sources (its ``p`` and ``li``)
_PROBE = ('<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="/">Top 1</a><div><p>é <a href="/a">'
          'l\'été <b>2024</b><!--c-->²<a onclick="f()">in</a><![CDATA[x<y]]></a> <a name="n">anchor</a></p>'
          '<ul><li><a href="/b">日本語 リンク</a> t<span><a href="/c">deep</a></span></li></ul>'
          '<a href="/d">outside</a></div></body></html>')


@lru_cache(maxsize=1)
def _c_link_letters():
    """``kitten._links.block_link_letters``, or None when the module is not built (no C
    compiler or no lxml headers at install) or counts the links of :data:`_PROBE`
    otherwise than :func:`_python_link_letters` (it reads lxml's element and libxml2's
    node structs as the headers of its build declare them; :func:`kitten.native.checked`)."""
    body = etree.fromstring(_PROBE).find(_NS + "body")
    sources = list(body.iter(_NS + "p", _NS + "li"))
    return checked("kitten._links", "block_link_letters",
                   lambda c: c(sources, body) == _python_link_letters(sources, body))


def block_features(blocks: list[Block], settings: FeatureSettings = FeatureSettings(),
                   lang: str = "en", rules: str = "") -> list[list[str]]:
    """The feature strings of each block, neighbour templates included (``lang`` and
    ``rules`` select the stop-word list, ``rules/<lang>/stopwords.txt``)."""
    own = own_features(blocks, settings, lang, rules)
    shared = [_shared(x) for x in own]
    return [_with_window(own, shared, i, settings.window) for i in range(len(own))]


def crf_items(blocks: list[Block], settings: FeatureSettings = FeatureSettings(),
              lang: str = "en", rules: str = "") -> list[dict]:
    """The same features as :func:`block_features`, as CRFsuite items: dicts whose
    neighbour parts are nested (``{"-1": {...}}``, flattened to ``-1:name`` by
    python-crfsuite). A feature found ``k`` times in a block's list (nested containers:
    ``container.div`` once per ``div``) has the value ``k``, as the lists the model was
    trained on count it (CRFsuite adds up repeated attributes)."""
    own = own_features(blocks, settings, lang, rules)
    nb = [_counted(_shared(x)) for x in own]
    n = len(own)
    items = []
    for i, feats in enumerate(own):
        item = _counted(feats)
        item["bias"] = item.get("bias", 0.0) + 1.0
        for d in settings.window:
            j = i + d
            item[f"{d:+d}"] = nb[j] if 0 <= j < n else {"BOS" if j < 0 else "EOS": 1.0}
        items.append(item)
    return items


def _counted(feats: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for x in feats:
        out[x] = out.get(x, 0.0) + 1.0
    return out


def own_features(blocks: list[Block], settings: FeatureSettings = FeatureSettings(), lang: str = "en",
                 rules: str = "") -> list[list[str]]:
    """Each block's own features (no neighbours: the gate's scorer adds those): each
    family in turn adds its features to every block's list, in the order of the module
    docstring."""
    return own_features_and_words(blocks, settings, lang, rules)[0]


def own_features_and_words(blocks: list[Block], settings: FeatureSettings = FeatureSettings(), lang: str = "en",
                           rules: str = "", scripts: list | None = None, texts: list[str] | None = None
                           ) -> tuple[list[list[str]], list[int], Callable[[], list[bool] | None]]:
    """:func:`own_features`, each block's :func:`word_count` (of its facts: the gate's
    rules read it too) and the blocks' :func:`prose_region` to call when the gate's
    fallback needs it (from the contexts and link letters read here when the families
    count link letters: the page's tree walked once). ``scripts``: the page's JSON-LD
    scripts when known (``Document.json_ld``), else the tree is searched for them;
    ``texts``: the blocks' ``text()`` when the caller has them."""
    if not blocks:
        return [], [], partial(prose_region, blocks)
    fam = frozenset(settings.families)
    R, C, Q = settings.ratio_thresholds, settings.count_thresholds, settings.quotient_thresholds
    root = blocks[0].source.getroottree().getroot() if blocks[0].source is not None else None
    body = root.find(_NS + "body") if root is not None else None
    links_read = "shallow" in fam or "group" in fam
    links = _link_letters(blocks, body) if links_read else {}
    sources = [b.source for b in blocks]
    contexts = block_contexts(blocks, body, sources)
    facts = block_facts([b.text() for b in blocks] if texts is None else texts, sources, links)
    names = _feature_names(R, C, Q)
    own: list[list[str]] = [[] for _ in blocks]
    if "markup" in fam:
        _markup(own, blocks, contexts)
    if "split" in fam:
        _splits(own, blocks, contexts, names, C)
    if "content" in fam:
        chosen = _page_stop_words(facts, lang, rules)
        _content(own, facts, chosen[1] if chosen else None, names, R, C)
    if "duplicate" in fam:
        _duplicates(own, facts, names, C)
    total_words = sum(f.words for f in facts) or 1
    if "group" in fam or "document" in fam:
        div_words, td_words = _group_words(contexts, facts)
        if "group" in fam:
            _groups(own, contexts, div_words, td_words, total_words, names, R)
        if "document" in fam:
            _document(own, facts, div_words, td_words, total_words, names, R, C)
    if "page" in fam:
        _landmarks(own, blocks, facts, contexts, root, names, C, scripts)
    if "shallow" in fam:
        _shallow(own, facts, names, R, C, Q)
    region = partial(prose_region, blocks, contexts, facts) if links_read else partial(prose_region, blocks)
    return own, [f.words for f in facts], region


def block_facts(texts: list[str], sources: list, links: dict) -> list[_Facts]:
    """The :class:`_Facts` of each block of a page from its text (``Block.text()``) and
    source element (``links``: letters inside links per source element,
    :func:`_link_letters`): in C (``_facts.block_facts``, one call a page) when the
    extension is built, else :func:`_block_facts` per block, the same tuples."""
    if _facts is not None:
        return _facts.block_facts(texts, sources, links, _Facts)
    return list(map(_block_facts, texts, sources, [links] * len(texts)))


def _block_facts(raw: str, source, links: dict) -> _Facts:
    """The :class:`_Facts` of a block of text ``raw`` and source element ``source``."""
    text, lower, tokens, alpha, digits, upper, letters, ui, au, dg, words, sentences = text_facts(raw)
    return _Facts(text, lower, tokens, words, min(links.get(source, 0), letters), letters, alpha,
                  digits, upper, (ui, au, dg), sentences)


def _markup(own: list[list[str]], blocks: list[Block], contexts: list[tuple]) -> None:
    """The ``markup`` family: ``tag.<name>``, ``kind.<kind>``, then the ``container.*``
    features of the block's ancestors and the class/id words of its own element."""
    tags: dict[str, str] = {}  # "tag.p" ... made once per page
    kinds: dict[str, str] = {}  # "kind.paragraph" ...
    for out, b, (chain, _, _, above, own_marks, _, _) in zip(own, blocks, contexts):
        tag = tags.get(b.tag) or tags.setdefault(b.tag, f"tag.{b.tag}")
        kind = kinds.get(b.kind) or kinds.setdefault(b.kind, f"kind.{b.kind}")
        out.append(tag)
        out.append(kind)
        if chain:
            out += above
            out += own_marks


def _splits(own: list[list[str]], blocks: list[Block], contexts: list[tuple], names: dict, C: tuple) -> None:
    """The ``split`` family: the elements closed since the previous block, then those
    opened (``split.close.<tag>``, ``split.open.<tag>``, ``split.<tag>=<count>``), and
    ``split.br=<n>``: in C (``_facts.splits``) when the extension is built, else
    :func:`_python_splits`, the same features."""
    if _facts is not None:
        _facts.splits(own, blocks, contexts, _split_names, C, names["split.br"], _below(C), BR)
    else:
        _python_splits(own, blocks, contexts, names, C)


def _python_splits(own: list[list[str]], blocks: list[Block], contexts: list[tuple], names: dict, C: tuple) -> None:
    """:func:`_splits` in Python."""
    Cb = _below(C)
    br_names = names["split.br"]
    prev_chain: tuple = ()
    prev_names: tuple = ()
    for out, b, (chain, cnames, _, _, _, _, _) in zip(own, blocks, contexts):
        n_chain = len(chain)
        if n_chain and n_chain == len(prev_chain) and chain[:-1] == prev_chain[:-1]:
            k = n_chain - 1 if chain[-1] is not prev_chain[-1] else n_chain  # siblings: one each
        else:
            k = 0
            while k < n_chain and k < len(prev_chain) and chain[k] is prev_chain[k]:
                k += 1
        out += _split_names(prev_names[k:], cnames[k:], C)
        out.append(br_names[bisect_right(Cb, b.inlines.count(BR)) - 1])
        prev_chain, prev_names = chain, cnames


@lru_cache(maxsize=8192)
def _split_names(closed: tuple[str, ...], opened: tuple[str, ...], C: tuple) -> tuple[str, ...]:
    """The ``split.*`` features of the elements ``closed`` and ``opened`` between two
    blocks. A pure function of the names, cached across pages (the same transitions
    repeat within a page and from page to page of a site)."""
    out = ["split.close." + t for t in closed]
    out += ["split.open." + t for t in opened]
    counts: dict[str, int] = {}
    for t in closed + opened:
        counts[t] = counts.get(t, 0) + 1
    out += [f"split.{t}={bucket(c, C)}" for t, c in counts.items()]
    return tuple(out)


#: the bucketed features of :func:`_content_counts`, in the order ``_facts.content`` takes their names
CONTENT_NAMES = ("char.alpha", "char.digit", "char.upper", "char.punct", "char.space", "chars", "tokens",
                 "tok.upper-initial", "tok.all-upper", "tok.digit", "tok.stopword", "stopwords", "sentences",
                 "sentence-len")
_END_STOP_CHARS = "".join(sorted(_END_STOP))


def _content(own: list[list[str]], facts: list[_Facts], stop: frozenset[str] | None, names: dict,
             R: tuple, C: tuple) -> None:
    """The ``content`` family (``stop``: the page's stop words, ``None`` when no list fits
    it): :func:`_content_counts` (in C, ``_facts.content``, when the extension is built
    and the page has a stop-word list: the same features), then ``bullet`` and
    ``regexp.*``."""
    if stop is not None and _facts is not None:
        _facts.content(own, facts, _stop_table(stop), _STRIP, tuple(names[p] for p in CONTENT_NAMES), _below(R),
                       _below(C), _END_STOP_CHARS)
    else:
        _content_counts(own, facts, stop, names, R, C)
    for out, f in zip(own, facts):
        first = f.text[:1]
        if (first in _BULLET_FIRST or first.isdigit() or first.isspace()) and _BULLET.match(f.text):
            out.append("bullet")
        if f.digits or _PATTERN_CUES.search(f.lower):
            _patterns(out, f)


def _content_counts(own: list[list[str]], facts: list[_Facts], stop: frozenset[str] | None, names: dict,
                    R: tuple, C: tuple) -> None:
    """The ``content`` family up to ``end.*``: character class ratios, characters,
    tokens, token class ratios, stop words, sentences, how the text begins and ends."""
    br = bisect_right
    Rb, Cb = _below(R), _below(C)
    for out, f in zip(own, facts):
        text = f.text
        nc = len(text) or 1
        alpha, digit, upper = f.alpha, f.digits, f.upper
        space = text.count(" ")
        punct = nc - alpha - digit - space
        out += [names["char.alpha"][br(Rb, alpha / nc) - 1], names["char.digit"][br(Rb, digit / nc) - 1],
                names["char.upper"][br(Rb, upper / nc) - 1], names["char.punct"][br(Rb, punct / nc) - 1],
                names["char.space"][br(Rb, space / nc) - 1], names["chars"][br(Cb, len(text)) - 1],
                names["tokens"][br(Cb, f.words) - 1]]
        nt = f.tokens
        if nt:
            ui, au, dg = f.token_counts
            out += [names["tok.upper-initial"][br(Rb, ui / nt) - 1], names["tok.all-upper"][br(Rb, au / nt) - 1],
                    names["tok.digit"][br(Rb, dg / nt) - 1]]
            if stop is None:  # no list fits the page (kitten/language.py)
                unspaced = _unspaced_chars(text) if not text.isascii() else 0
                if unspaced and 2 * unspaced >= alpha:  # function characters count as stop words
                    n_func = len(_FUNCTION_CHARS.findall(text))
                    out += [names["tok.stopword"][br(Rb, n_func / unspaced) - 1],
                            names["stopwords"][br(Cb, n_func // 2) - 1]]
                else:
                    out.append("tok.stopword=na")
            else:
                n_stop = sum(map(stop.__contains__, stripped_tokens(f.lower)))
                out += [names["tok.stopword"][br(Rb, n_stop / nt) - 1], names["stopwords"][br(Cb, n_stop) - 1]]
        out += [names["sentences"][br(Cb, f.sentences) - 1],
                names["sentence-len"][br(Cb, f.words / f.sentences if f.sentences else 0) - 1]]
        first = text[:1]
        out.append("begin.upper" if first.isupper() else "begin.lower" if first.islower()
                   else "begin.digit" if first.isdigit() else "begin.other")
        last = text[-1:]
        out.append("end.stop" if last in _END_STOP else "end.colon" if last in ":：" else "end.other")


#: what :func:`_patterns` looks for in a block without digits (in its lower-cased text:
#: lower-casing keeps these strings and makes none of them), in one search
_PATTERN_CUES = re.compile(r"://|www|@|©|\(c\)|copyright|rights reserved")


def _patterns(out: list[str], f: _Facts) -> None:
    """``regexp.url``, ``regexp.date``, ``regexp.time``, ``regexp.email``,
    ``regexp.copyright``: each expression only where a string it cannot match without
    is found (the same features, a fraction of the regular-expression work); dates and
    times of an ASCII text matched in C (``_facts.ascii_dates``, the same answers)."""
    text, folded = f.text, f.lower
    if ("://" in text or "www" in folded) and _URL.search(text):
        out.append("regexp.url")
    if f.digits:
        if _facts is not None and text.isascii():  # the same answers, without the regex engine
            date, time_ = _facts.ascii_dates(text)
        else:
            date = bool((_DATE_NUMERIC.search(text) or _MONTH.search(folded)) and _DATE.search(text))
            time_ = ":" in text and bool(_TIME.search(text))
        if date:
            out.append("regexp.date")
        if time_:
            out.append("regexp.time")
    if "@" in text and _EMAIL.search(text):
        out.append("regexp.email")
    if ("©" in text or "(c)" in folded or "copyright" in folded or "rights reserved" in folded) \
            and _COPYRIGHT.search(text):
        out.append("regexp.copyright")


def _duplicates(own: list[list[str]], facts: list[_Facts], names: dict, C: tuple) -> None:
    """The ``duplicate`` family: ``duplicate-count=<n>`` and ``first-duplicate``."""
    Cb = _below(C)
    counts = names["duplicate-count"]
    lowers = [f.lower for f in facts]
    dup = Counter(lowers)
    seen: set[str] = set()  # the texts of several blocks met so far
    for out, key in zip(own, lowers):
        n = dup[key]
        out.append(counts[bisect_right(Cb, n) - 1])
        if n > 1 and key not in seen:
            out.append("first-duplicate")
            seen.add(key)


def _group_words(contexts: list[tuple], facts: list[_Facts]) -> tuple[dict, dict]:
    """The words outside links per nearest ``div``-like and ``td`` container."""
    div_words: dict = {}
    td_words: dict = {}
    for (_, _, _, _, _, div, td), f in zip(contexts, facts):
        outside = f.words * (1 - f.link_letters / f.letters) if f.letters else 0
        if div is not None:
            div_words[div] = div_words.get(div, 0) + outside
        if td is not None:
            td_words[td] = td_words.get(td, 0) + outside
    return div_words, td_words


def _groups(own: list[list[str]], contexts: list[tuple], div_words: dict, td_words: dict, total_words: int,
            names: dict, R: tuple) -> None:
    """The ``group`` family: ``div-group.word-ratio``, ``td-group.word-ratio`` (or ``td-group.none``)."""
    Rb = _below(R)
    div_names, td_names = names["div-group.word-ratio"], names["td-group.word-ratio"]
    for out, (_, _, _, _, _, d, t) in zip(own, contexts):
        out.append(div_names[bisect_right(Rb, div_words.get(d, 0) / total_words) - 1])
        out.append(td_names[bisect_right(Rb, td_words.get(t, 0) / total_words) - 1]
                   if t is not None else "td-group.none")


def _document(own: list[list[str]], facts: list[_Facts], div_words: dict, td_words: dict, total_words: int,
              names: dict, R: tuple, C: tuple) -> None:
    """The ``document`` family: ``position``, then the page-wide ``doc.*`` features."""
    n = len(facts)
    total_sentences = sum(f.sentences for f in facts)
    max_div = max(div_words.values(), default=0) / total_words
    max_td = max(td_words.values(), default=0) / total_words
    page_wide = [f"doc.words={bucket(total_words, C)}", f"doc.sentences={bucket(total_sentences, C)}",
                 f"doc.blocks={bucket(n, C)}", f"doc.max-div-group={bucket(max_div, R)}",
                 f"doc.max-td-group={bucket(max_td, R)}"]
    Rb = _below(R)
    position = names["position"]
    for i, out in enumerate(own):
        out.append(position[bisect_right(Rb, i / n) - 1])
        out += page_wide


#: the bucketed features of the ``shallow`` family, in their order
SHALLOW_NAMES = ("link-density", "text-density", "quotient.prev", "quotient.next")


def _shallow(own: list[list[str]], facts: list[_Facts], names: dict, R: tuple, C: tuple, Q: tuple) -> None:
    """The ``shallow`` family: ``link-density``, ``text-density``, ``quotient.prev``,
    ``quotient.next``: in C (``_facts.shallow``) when the extension is built, else
    :func:`_python_shallow`, the same features."""
    if _facts is not None:
        _facts.shallow(own, facts, tuple(names[p] for p in SHALLOW_NAMES),
                       (_below(R), _below(C), _below(Q), _below(Q)))
    else:
        _python_shallow(own, facts, names, R, C, Q)


def _python_shallow(own: list[list[str]], facts: list[_Facts], names: dict, R: tuple, C: tuple, Q: tuple) -> None:
    """:func:`_shallow` in Python."""
    br = bisect_right
    Rb, Cb, Qb = _below(R), _below(C), _below(Q)
    links, density = names["link-density"], names["text-density"]
    before, after = names["quotient.prev"], names["quotient.next"]
    words = [f.words for f in facts]
    # each block with the words of the blocks before and after it (0 at the page's ends)
    for out, f, w, pw, nw in zip(own, facts, words, [0, *words], [*words[1:], 0]):
        out += (links[br(Rb, f.link_letters / f.letters if f.letters else 0) - 1],
                density[br(Cb, w / max(1, -(-len(f.text) // 80))) - 1],
                before[br(Qb, pw / w if w else 10.0) - 1],
                after[br(Qb, w / nw if nw else 10.0) - 1])


_WORD = re.compile(r"\w+")
#: a block is the title when this share of its words are the title's, and it has as many
#: different words as this share of the title's
TITLE_SHARE = 0.6
#: a block is prose for the region when it has this many words, under this link density
PROSE_WORDS = 10
PROSE_LINKS = 0.5


def _word_hits(texts: list[str], words: set[str] | frozenset[str]) -> list[tuple[int, int]]:
    """For each of ``texts``, how many words it has (:data:`_WORD`'s matches) and how many
    of them are in ``words``: in C (``_facts.word_hits``, without the words' list) when
    the extension is built, the same counts."""
    if _facts is not None:
        return _facts.word_hits(texts, words)
    return [(len(found), sum(map(words.__contains__, found))) for found in map(_WORD.findall, texts)]


def _first_tokens(facts: list[_Facts], limit: int) -> list[str]:
    """About the first ``limit`` lower-cased tokens of the page, punctuation stripped."""
    out: list[str] = []
    for f in facts:
        out += stripped_tokens(f.lower)
        if len(out) >= limit:
            break
    return out


def _page_stop_words(facts: list[_Facts], lang: str, rules: str) -> tuple[str, frozenset[str]] | None:
    """``kitten.language.page_stop_words`` of the page's first :data:`CHOICE_TOKENS`
    stripped tokens: counted per group in C (``_facts.stop_groups``, no string per
    token) when the extension is built, then chosen by ``stop_words_of_counts``; the same
    answer."""
    if _facts is None:
        return page_stop_words(_first_tokens(facts, CHOICE_TOKENS), lang, rules)
    groups, n_tokens = _facts.stop_groups(facts, _index_table(rules), _STRIP, CHOICE_TOKENS)
    return stop_words_of_counts(groups, n_tokens, lang, rules)


@lru_cache(maxsize=4)
def _index_table(rules: str):
    """The C word table (``_facts.word_table``) of ``stop_word_index(rules)``: each stop
    word of the 56 lists -> its group."""
    return _facts.word_table(stop_word_index(rules)[0])


@lru_cache(maxsize=16)
def _stop_table(stop: frozenset[str]):
    """The C word table (``_facts.word_table``) of a stop-word list (``word_list``'s
    frozensets, made once each: the cache holds one table per list)."""
    return _facts.word_table(dict.fromkeys(stop, 0))


def _landmarks(out: list[list[str]], blocks: list[Block], facts: list[_Facts], contexts: list[tuple], root,
               names: dict, C: tuple[float, ...], scripts: list | None = None) -> None:
    """The ``page`` family, added to each block's list of ``out``: where each block stands
    against what the page says about itself (see the module docstring)."""
    n = len(blocks)
    # the title: the first heading (else short block) most of whose words are the page title's
    title = set(_WORD.findall(_page_title(root).lower()))
    at = -1
    if title:
        short = [i for i, f in enumerate(facts) if 2 <= f.tokens <= 40]
        for i, (n_words, hits) in zip(short, _word_hits([facts[i].lower for i in short], title)):
            if 2 <= n_words <= 40 and hits >= TITLE_SHARE * n_words \
                    and len(set(_WORD.findall(facts[i].lower))) >= TITLE_SHARE * len(title):
                out[i].append("title.match")
                if at < 0 or (blocks[i].kind == "heading" and blocks[at].kind != "heading"):
                    at = i if at < 0 or blocks[at].kind != "heading" else at
    if at < 0:
        at = next((i for i, b in enumerate(blocks) if b.tag == "h1"), -1)
    titles = ["title.none"] * n if at < 0 else ["title.before"] * at + ["title.at"] + ["title.after"] * (n - at - 1)
    # the article body a page declares in JSON-LD (schema.org articleBody)
    body = _ld_body(root, scripts)
    if body is None:
        declared = ["ld.none"] * n
    else:
        declared = []
        for n_words, hits in _word_hits([f.lower for f in facts], body):
            share = hits / n_words if n_words >= 3 else 0.0
            declared.append("ld.short" if n_words < 3 else "ld.body" if share >= 0.8 else "ld.part"
                            if share >= 0.4 else "ld.out")
    inside = _region([c[0] for c in contexts], [f.words for f in facts],
                     [f.link_letters / f.letters if f.letters else 0.0 for f in facts])
    for x, title_at, ld in zip(out, titles, declared):
        x.append(title_at)
        x.append(ld)
    if inside is None:
        for x in out:
            x.append("region.none")
        return
    ins = [i for i, x in enumerate(inside) if x]  # at least the blocks of the chains that made it
    ins.append(3 * n)  # past the last: farther than any block before it
    Cb, dist_names = _below(C), names["region.dist"]
    prev, k = -3 * n, 0  # the blocks inside before and from each block on: ins[k - 1], ins[k]
    for i, x in enumerate(out):
        if i == ins[k]:
            x.append("region.in")
            prev, k = i, k + 1
        else:  # blocks to the nearest block inside
            x.append("region.before" if k == 0 else "region.after")
            x.append(dist_names[bisect_right(Cb, min(i - prev, ins[k] - i)) - 1])


#: the feature of blocks inside containers named for readers' comments: prose, but not the page's own
COMMENTS = "container.kw.comment"
#: the features of blocks inside containers that never hold a page's main text (readers'
#: comments, footers, navigation, sidebars, cookie notices): the fallback's region
#: leaves them out (:func:`prose_region`). Only names found around under 1.1% of the
#: content blocks of the training pages (modern, Dragnet, CLEANEVAL final): not the
#: words of ads and promotions (Drupal names every article of a front page
#: ``node-promoted``), nor ``side`` and ``nav`` (around 2-3% of modern content blocks:
#: ``has-sidebar`` layouts)
NOT_MAIN = frozenset([COMMENTS, "container.footer", "container.nav", "container.aside"]
                     + [f"container.kw.{w}" for w in ("footer", "menu", "breadcrumb", "cookie")]
                     + [f"container.kw.role-{r}" for r in ("contentinfo", "navigation", "complementary", "banner")])


def _region(chains: list[tuple], words: list[int], link_density: list[float],
            excluded: list[bool] | None = None) -> list[bool] | None:
    """Which blocks lie in the page's densest text region (``None``: the page has no
    prose). The region is the element whose children's prose weighs most: the words
    outside links of each prose block (:data:`PROSE_WORDS` words or more, link density
    under :data:`PROSE_LINKS`, and not flagged in ``excluded`` when given: containers
    of readers' comments, footers, menus, :data:`NOT_MAIN`) credited to
    its parent, half to its grandparent, as Readability scores candidates. ``chains``:
    each block's elements from ``body`` down to its own. (The ``region.*`` features
    count every block, the model sees ``container.kw.comment`` itself; the gate's
    fallback leaves out blocks inside containers named for comments: readers' prose
    is not the page's, and on pages with a short article and long threads the thread
    would win.)"""
    score: dict = {}
    depth: dict = {}  # each scored element's place in the chains that hold it
    for k, (chain, w, ld) in enumerate(zip(chains, words, link_density)):
        if w >= PROSE_WORDS and ld < PROSE_LINKS and not (excluded and excluded[k]) and len(chain) >= 2:
            w = w * (1 - ld)
            score[chain[-2]] = score.get(chain[-2], 0.0) + w
            depth[chain[-2]] = len(chain) - 2
            if len(chain) >= 3:
                score[chain[-3]] = score.get(chain[-3], 0.0) + w / 2
                depth[chain[-3]] = len(chain) - 3
    best = max(score, key=score.__getitem__, default=None)
    if best is None:
        return None
    d = depth[best]  # a chain holds an element at its depth below body only
    return [len(chain) > d and chain[d] is best for chain in chains]


def prose_region(blocks: list[Block], contexts: list[tuple] | None = None,
                 facts: list[_Facts] | None = None) -> list[bool] | None:
    """Which of ``blocks`` lie in the page's densest text region (:func:`_region`),
    ``None`` when the page has no prose: the gate's fallback when its labels keep too
    little (``kitten/boilerplate/__init__.py``). Blocks inside containers of
    :data:`NOT_MAIN` do not count: a long footer or comment thread is no main text.
    ``contexts`` and ``facts``: the blocks' :func:`block_contexts` and :class:`_Facts`
    (link letters counted) when already read, else read here."""
    if not blocks or blocks[0].source is None:
        return None
    if contexts is None or facts is None:
        body = blocks[0].source.getroottree().getroot().find(_NS + "body")
        links = _link_letters(blocks, body)
        sources = [b.source for b in blocks]
        contexts = block_contexts(blocks, body, sources)
        facts = block_facts([b.text() for b in blocks], sources, links)
    return _region([c[0] for c in contexts], [f.words for f in facts],
                   [f.link_letters / f.letters if f.letters else 0.0 for f in facts],
                   [not NOT_MAIN.isdisjoint(c[2]) for c in contexts])


def word_count(text: str) -> int:
    """Words of a text: its white-space tokens, plus one per two characters of scripts
    written without spaces (:data:`_UNSPACED`).

    >>> word_count("Two words"), word_count("東京都の天気は晴れです")
    (2, 6)
    """
    n = len(text.split())
    if not text.isascii():
        n += _unspaced_chars(text) // 2
    return n


def _unspaced_chars(text: str) -> int:
    """Characters of ``text`` in scripts written without spaces (:data:`_UNSPACED`)."""
    return len(_UNSPACED.findall(text))


def _page_title(root) -> str:
    """The page's ``<title>``. (``og:title`` is readable since the normalizer keeps it as
    ``<meta name="og:title">``, but the shipped model was trained without it: reading it
    waits for the next training run.)"""
    if root is None:
        return ""
    head = root.find(_NS + "head")
    if head is None:
        return ""
    t = head.find(_NS + "title")
    return "".join(t.itertext()) if t is not None else ""


def _ld_body(root, scripts: list | None = None) -> frozenset[str] | None:
    """The words of the ``articleBody`` of the page's JSON-LD (``None`` when it has none):
    of its ``scripts`` when known (``Document.json_ld``), else those found in ``root``
    (none without a tree)."""
    if root is None:
        return None
    words: set[str] = set()
    for obj in json_ld_objects(root, scripts):
        body = obj.get("articleBody")
        if isinstance(body, str):
            words.update(_WORD.findall(body.lower()))
    return frozenset(words) if len(words) >= 20 else None


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
