"""What kind of page a document is: article, forum, product, collection, listing,
documentation or service (``classify``).

The labels are web2025's (``.cache/corpora/web2025/gold/*.json``, ``page_type``):

- ``article``: one text written to be read (news, blog post, essay, recipe, report);
- ``forum``: a thread of posts by several people (forum, Q&A, comments as the content);
- ``product``: one thing for sale (its name, price, description, a buy button);
- ``collection``: many things for sale (a shop's category, a brand's range);
- ``listing``: many items that link to other pages (search results, a blog's index,
  job offers, news on a topic);
- ``documentation``: reference or help pages (API docs, manuals, help centres);
- ``service``: a company or organisation presenting itself or what it offers
  (home page, pricing, about, contact, a service's page).

``other`` is never predicted: the corpus has no page labelled with it, and no rule
(a probability floor, say) was found that could be checked against a gold.

The features (:data:`FEATURES`) are facts a reader can check on the page, read from what
the structure step already has: the page's JSON-LD (``Document.json_ld``) and Open Graph
``og:type``, microdata types (``kitten.itemtype-*`` classes), the blocks' kinds, lengths,
prices, buy words, code, dates and post/reply words in their and their parents' class
names, repeated sibling shapes (cards, rows), links read off the blocks' own elements (a
short item or heading that starts with a link or sits in one), and words of the URL's
path and host. One pass over the blocks and the head, no walk of the whole tree (a
``<code>`` count or the gate's link-letter count over the tree cost 0.4-0.5 ms a page
each); no site name is a feature. The model is a random forest trained by ``kitten train
page-type`` (``kitten/train/page_type.py``) and shipped as ``classifiers/page_type.json``
(the portable tree format of ``kitten/tables/model.py``).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlsplit

from kitten.document import Document
from kitten.resources import classifiers_dir

_NS = "{http://www.w3.org/1999/xhtml}"
MODEL_NAME = "page_type.json"
LABELS = ("article", "forum", "product", "collection", "listing", "documentation", "service")


@dataclass(frozen=True, slots=True)
class PageType:
    """The page's most probable type, its probability, and every type's probability."""

    label: str
    probability: float
    probabilities: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"label": self.label, "probability": self.probability, "probabilities": dict(self.probabilities)}


# --------------------------------------------------------------------------- vocabularies

#: schema.org types (JSON-LD ``@type``, microdata ``itemtype``), lower case, by what they say
LD_GROUPS: dict[str, frozenset[str]] = {
    "product": frozenset("product offer aggregateoffer productgroup individualproduct productmodel "
                         "vehicle car book".split()),
    "forum": frozenset("discussionforumposting qapage question answer socialmediaposting "
                       "conversation".split()),
    "article": frozenset("article newsarticle blogposting reportagenewsarticle opinionnewsarticle "
                         "analysisnewsarticle liveblogposting report scholarlyarticle recipe review "
                         "posting".split()),
    "docs": frozenset("techarticle apireference softwaresourcecode howto".split()),
    "list": frozenset("itemlist collectionpage searchresultspage offercatalog".split()),
    "organization": frozenset("organization corporation localbusiness service professionalservice "
                              "softwareapplication webapplication contactpage aboutpage "
                              "educationalorganization medicalorganization store event".split()),
    "faq": frozenset({"faqpage"}),
}
#: the length under which a block is short: its text is read for the cues below
SHORT = 120
#: text cues counted in the page's short blocks (under 120 characters: items, labels,
#: buttons, bylines), written in lower case with every digit as ``0``: prices and dates
#: as substrings (``bytes.count``), the others as words (:func:`_cue_counts`)
CUES: dict[str, tuple[str, ...]] = {
    # a price: a currency sign or code next to a digit
    "price": ("$0", "$ 0", "€0", "€ 0", "0€", "0 €", "£0", "£ 0", "¥0", "₹0", "₹ 0", "0 zł", "0 kr", "0 kč",
              "usd 0", "0 usd", "eur 0", "0 eur", "gbp 0", "chf 0", "rs. 0", "rs 0"),
    # buying one thing
    "buy": ("add to cart", "add to bag", "add to basket", "add to trolley", "buy now", "buy it now",
            "in stock", "out of stock", "sold out", "free shipping", "free delivery", "quantity", "checkout",
            "in den warenkorb", "ajouter au panier", "añadir al carrito", "aggiungi al carrello"),
    # the furniture of a post in a thread
    "forum": (" reply", " replies", " replied", " quote", " posted", " joined", " posts", "upvote", "downvote",
              " votes", " answered", " asked", " answers", " members", " threads", "originally posted",
              "report post", " likes"),
    # a date (2025-09-04, 04/09/2025, Sep 4, 2025), or a time ago
    "date": ("0000-00-00", "/00/0000", "/0/0000", ".00.0000", ", 0000", " ago"),
    # calls to action of a company's or a service's page
    "cta": ("get started", "contact us", "book a demo", "book a call", "book a consultation", "request a quote",
            "request a demo", "get a quote", "get a demo", "free trial", "free quote", "free consultation",
            "free estimate", "sign up", "try for free", "try it free", "schedule a", "talk to sales",
            "talk to an expert", "call us", "call now", "learn more", "our services", "our team", "our clients",
            "why choose"),
    # the furniture of a documentation page
    "docs": ("on this page", "in this article", "in this page", "in this section", "edit this page",
             "edit on github", "was this page", "was this article", "table of contents", "prerequisites",
             "parameters", "returns", "syntax", "example", "usage", "arguments", "default:", "see also",
             "deprecated", " next", " previous", "last updated"),
}
CUE_NAMES = tuple(CUES)
#: the cues' strings as UTF-8, for the page's text as UTF-8 (``bytes.translate`` folds
#: the digits in C; ``str.translate`` took 3.5 ms a page)
_SUBSTRING_CUES = {name: tuple(t.encode("utf-8") for t in CUES[name]) for name in ("price", "date")}
#: the other cues as words: (single words, pairs of words as (first, second, the pair as
#: :func:`_cue_counts` finds it))
#: (words split at white space and ASCII punctuation, as UTF-8)
_PUNCTUATION_AS_SPACE = bytes.maketrans(b"!\"#%&'()*+,-./:;<=>?@[\\]^_`{|}~", b" " * 31)
_WORD_CUES = {name: (tuple({w[0] for w in words if len(w) == 1}),
                     tuple((a, b, b" " + a + b"  " + b + b" ") for a, b in {tuple(w[-2:]) for w in words if len(w) > 1}))
              for name, words in ((name, [t.encode("utf-8").translate(_PUNCTUATION_AS_SPACE).split() for t in strings])
                                  for name, strings in CUES.items() if name not in _SUBSTRING_CUES)}
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_ITEMTYPE = re.compile(r"kitten\.itemtype-([\w-]+)")
_CLASS_WORD = re.compile(r"[a-z]+")
#: words of class names (split at non-letters and camel case is not split: ``postbody`` is
#: not ``post``) that mark forum posts and comments
FORUM_CLASSES = frozenset("post posts reply replies comment comments thread topic message messages "
                          "author username user avatar answer answers vote votes signature quote "
                          "discussion forum postbody".split())
PRODUCT_CLASSES = frozenset("product price cart basket buy sku stock variant quantity qty "
                            "rating reviews addtocart".split())
CODE_CLASSES = frozenset("code highlight syntax language hljs prettyprint sourcecode "
                         "docs doc api sidebar toc".split())
#: words of a URL's path (segments split at non-letters), by what they point to
URL_WORDS: dict[str, frozenset[str]] = {
    "docs": frozenset("docs doc documentation api apis reference manual manuals guide guides "
                      "developer developers sdk tutorial tutorials learn kb knowledgebase help "
                      "support wiki reference howto faq".split()),
    "forum": frozenset("forum forums t thread threads topic topics community discussion discussions "
                       "questions question q board boards viewtopic showthread comments r".split()),
    "product": frozenset("product products p dp item items pd sku buy".split()),
    "collection": frozenset("collections collection category categories c shop store catalog catalogue "
                            "brand brands department dept range".split()),
    "listing": frozenset("search tag tags tagged list lists listing listings results archive archives "
                         "jobs events page author authors topics latest".split()),
    "article": frozenset("blog blogs news article articles post posts story stories insights press "
                         "magazine opinion column".split()),
    "service": frozenset("services service solutions solution pricing plans about contact company "
                         "features platform enterprise team careers industries why".split()),
}
HOST_WORDS: dict[str, frozenset[str]] = {
    "docs": frozenset("docs doc developer developers dev api help support learn wiki kb manual".split()),
    "forum": frozenset("forum forums community discuss discussion answers boards".split()),
    "shop": frozenset("shop store".split()),
    "blog": frozenset("blog blogs news".split()),
}
_DATE_PATH = re.compile(r"/(?:19|20)\d{2}/(?:0?[1-9]|1[0-2])(?:/|$)")
_NUMBER_SEGMENT = re.compile(r"\d{3,}")
OG_TYPES = ("article", "product", "website")
#: words of the page's ``<title>`` by what they name
TITLE_WORDS: dict[str, frozenset[str]] = {
    "docs": frozenset("documentation docs doc api reference guide manual tutorial quickstart sdk".split()),
    "forum": frozenset("forum forums community thread discussion question questions reddit answers".split()),
    "listing": frozenset("news archive archives latest results search category topic topics tag page "
                         "jobs events blog posts articles".split()),
    "shop": frozenset("shop store buy sale collection collections price".split()),
    "service": frozenset("services service solutions agency company software platform official "
                         "consulting contractor contractors near".split()),
}
#: microdata item types read (``kitten.itemtype-*`` classes): the groups a page uses
MICRODATA_GROUPS = ("product", "forum", "article", "list")

FEATURES: tuple[str, ...] = (
    *(f"ld_{g}" for g in LD_GROUPS), "ld_objects",
    *(f"og_{t}" for t in OG_TYPES),
    *(f"microdata_{g}" for g in MICRODATA_GROUPS), *(f"title_{g}" for g in TITLE_WORDS),
    "has_author", "has_published",
    "blocks_log", "letters_log", "headings", "headings_per_kletter",
    "long_paragraph_share", "paragraph_share", "list_share", "table_share", "short_block_share",
    "mean_block_letters_log",
    "pre_blocks", "pre_share", "code_classes",
    "price_cues", "price_cues_per_block", "buy_cues",
    "forum_class_blocks", "forum_class_share", "forum_cues", "product_class_blocks",
    "date_cues", "date_cues_per_block",
    "repeated_max_log", "repeated_share", "big_group_share", "groups_log",
    "link_share", "linked_block_share", "linked_headings", "linked_heading_share", "repeated_linked_shapes",
    "cta_cues", "docs_cues", "code_elements", "longest_prose_run_share", "first_long_paragraph",
    *(f"url_{g}" for g in URL_WORDS), *(f"host_{g}" for g in HOST_WORDS),
    "url_date", "url_depth", "url_root", "url_slug_words", "url_number", "url_query",
)
_INDEX = {name: i for i, name in enumerate(FEATURES)}


# --------------------------------------------------------------------------- features

_A = _NS + "a"


def _ld_types(doc: Document, root) -> list[str]:
    """The ``@type`` values (lower case, last path segment) of the page's JSON-LD objects."""
    from kitten.metadata import json_ld_objects

    scripts = doc.json_ld
    types: list[str] = []
    for obj in json_ld_objects(root, scripts):
        t = obj.get("@type")
        for v in (t if isinstance(t, list) else [t]):
            if isinstance(v, str):
                types.append(v.rsplit("/", 1)[-1].lower())
    return types


def _og_type(root) -> str:
    head = root.find(_NS + "head") if root is not None else None
    if head is None:
        return ""
    for meta in head.iter(_NS + "meta"):
        if (meta.get("name") or meta.get("property") or "").strip().lower() == "og:type":
            return (meta.get("content") or "").strip().lower()
    return ""


def _root(doc: Document):
    for b in doc.blocks:
        if b.source is not None:
            return b.source.getroottree().getroot()
    for s in doc.json_ld or ():
        return s.getroottree().getroot()
    return None


def page_url(doc: Document, url: str | None) -> str:
    """``url``, else the URL the page declares (canonical link, ``og:url``, JSON-LD ``url``)."""
    return url or doc.metadata.canonical or ""


def url_features(url: str, x: list[float]) -> None:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return
    path = parts.path.lower()
    words = set(re.findall(r"[a-z]+", path))
    segments = [s for s in path.split("/") if s]
    for g, vocab in URL_WORDS.items():
        x[_INDEX[f"url_{g}"]] = float(bool(words & vocab))
    host_words = set(re.findall(r"[a-z]+", (parts.hostname or "").lower()))
    for g, vocab in HOST_WORDS.items():
        x[_INDEX[f"host_{g}"]] = float(bool(host_words & vocab))
    x[_INDEX["url_date"]] = float(bool(_DATE_PATH.search(path)))
    x[_INDEX["url_depth"]] = float(len(segments))
    x[_INDEX["url_root"]] = float(not segments or segments[-1] in ("index.html", "index.php", "en", "home"))
    last = segments[-1] if segments else ""
    x[_INDEX["url_slug_words"]] = float(len(re.findall(r"[a-z]+", last.lower())))
    x[_INDEX["url_number"]] = float(bool(_NUMBER_SEGMENT.search(path)))
    x[_INDEX["url_query"]] = float(bool(parts.query))


def _cue_counts(texts: list[str]) -> dict[str, int]:
    """How many times the cues of each group (:data:`CUES`) occur in ``texts``: the
    price and date cues (:data:`_SUBSTRING_CUES`) as substrings (``bytes.count`` on the
    text as UTF-8 with digits as 0), the word cues as words (split at white space and
    ASCII punctuation; one count of words; a cue of several words is counted by its last
    two, as a pair of neighbouring words, only when both words occur on the page: the
    words joined by two spaces and the pair found with ``bytes.count``, so that two
    occurrences side by side are both counted). About 110 ``bytes.count`` scans of the text
    took 0.5-1 ms a page; a counter of every pair of words 0.1 ms more than this."""
    text = (" " + "\n ".join(texts)).lower()
    folded = text.encode("utf-8", "replace").translate(_DIGITS_AS_ZERO)
    out = {name: sum(map(folded.count, strings)) for name, strings in _SUBSTRING_CUES.items()}
    words = folded.translate(_PUNCTUATION_AS_SPACE).split()
    one = Counter(words)
    spaced = None
    for name, (singles, pairs) in _WORD_CUES.items():
        n = sum(map(one.__getitem__, singles))
        for first, second, pattern in pairs:
            if first in one and second in one:
                if spaced is None:
                    spaced = b" " + b"  ".join(words) + b" "
                n += spaced.count(pattern)
        out[name] = n
    return out


#: the bits of an element's class words (:func:`_class_mask`)
_FORUM_BIT, _PRODUCT_BIT, _CODE_BIT = 1, 2, 4


def _class_mask(cls: str | None, cache: dict, micro: dict) -> int:
    """The class-word families of a class attribute (forum, product, code bits), read once
    per distinct attribute value (``cache``: value -> bits). Microdata item types are
    counted on the way (``micro``: group -> count, once per distinct value)."""
    mask = 0
    if cls:
        words = set(_CLASS_WORD.findall(cls.lower()))
        if words & FORUM_CLASSES:
            mask |= _FORUM_BIT
        if words & PRODUCT_CLASSES:
            mask |= _PRODUCT_BIT
        if words & CODE_CLASSES:
            mask |= _CODE_BIT
        if "kitten.itemtype-" in cls:
            for t in _ITEMTYPE.findall(cls):
                for g in MICRODATA_GROUPS:
                    micro[g] += t in LD_GROUPS[g]
    cache[cls] = mask
    return mask


def _block_text(b) -> str:
    return b.text()


def features(doc: Document, url: str | None = None) -> list[float]:
    """The feature vector of :data:`FEATURES` for a document (the structure step's, before
    the tables, lists and gate steps change its blocks) and its page's URL (None: the URL
    the page declares)."""
    x = [0.0] * len(FEATURES)
    root = _root(doc)
    types = _ld_types(doc, root)
    x[_INDEX["ld_objects"]] = float(len(types))
    for g, vocab in LD_GROUPS.items():
        x[_INDEX[f"ld_{g}"]] = float(sum(t in vocab for t in types))
    og = _og_type(root)
    for t in OG_TYPES:
        x[_INDEX[f"og_{t}"]] = float(og.startswith(t) if t != "article" else og in ("article", "blog", "news"))
    x[_INDEX["has_author"]] = float(bool(doc.metadata.author))
    x[_INDEX["has_published"]] = float(bool(doc.metadata.published))
    url_features(page_url(doc, url), x)
    title = set(_CLASS_WORD.findall(doc.title.lower()))
    for g, vocab in TITLE_WORDS.items():
        x[_INDEX[f"title_{g}"]] = float(bool(title & vocab))

    blocks = doc.blocks
    texts = list(map(_block_text, blocks))

    total = paragraph = long_paragraph = in_list = in_table = short = pre = 0
    headings = pre_blocks = forum_cls = product_cls = code_cls = code = 0
    link_letters = linked = linked_headings = 0
    run = longest_run = 0
    first_long = -1
    position = 0
    shapes: dict[tuple, list[int]] = {}  # (parent class, tag, class) -> [blocks, letters, linked]
    groups: dict = {}  # list or table element -> [blocks, letters]
    micro = dict.fromkeys(MICRODATA_GROUPS, 0)
    masks: dict = {None: 0}  # class attribute -> bits
    masks_get = masks.get
    parent_classes: dict = {}  # parent element -> its class attribute (blocks share parents)
    short_texts: list[str] = []
    table_tag = _NS + "table"
    heading_kinds = ("paragraph", "heading", "quote")
    a_tag, code_tag = _A, _NS + "code"

    for b, text in zip(blocks, texts):
        n = len(text)
        src = b.source
        kind = b.kind
        group = b.group
        ll = 0
        if n < SHORT:
            text = text.strip()
            n = len(text)
            if not n:
                continue
            short_texts.append(text)
            # a short block that starts with a link (a list's item, a card's title): the
            # link's own text counts as its link letters
            if src is not None and (group is not None or kind == "heading") and len(src) \
                    and not (src.text or "").strip():
                first = src[0]
                if first.tag == a_tag:
                    ll = len((first.text or "").strip()) or n
        total += n
        if src is not None:
            parent = src.getparent()
            cls = src.get("class")
            if parent is None:
                pcls = None
            else:
                pcls = parent_classes.get(parent, False)
                if pcls is False:
                    pcls = parent_classes[parent] = parent.get("class")
            if ll == 0 and n < SHORT and parent is not None and parent.tag == a_tag:
                ll = n  # a card's title wrapped in its link
            mask = masks_get(cls)
            if mask is None:
                mask = _class_mask(cls, masks, micro)
            m = masks_get(pcls)
            mask |= _class_mask(pcls, masks, micro) if m is None else m
            if mask:
                forum_cls += mask & _FORUM_BIT and 1
                product_cls += mask & _PRODUCT_BIT and 1
                code_cls += mask & _CODE_BIT and 1
            key = (pcls, b.tag, cls)
            shape = shapes.get(key)
            if shape is None:
                shapes[key] = [1, n, 1 if ll else 0]
            else:
                shape[0] += 1
                shape[1] += n
                if ll:
                    shape[2] += 1
            if n >= SHORT and kind == "paragraph" and src.find(code_tag) is not None:
                code += 1
        if ll > n:
            ll = n
        link_letters += ll
        if ll:
            linked += 1
        if kind == "paragraph":
            paragraph += n
            if n >= 200:
                long_paragraph += n
                if first_long < 0:
                    first_long = position
        elif kind == "heading":
            headings += 1
            if 2 * ll >= n:
                linked_headings += 1
        elif kind == "preformatted":
            pre_blocks += 1
            pre += n
            code += 1
        position += 1
        if n < 40:
            short += n
        # a run of prose: paragraphs (and the headings between them) out of lists and tables
        if group is None:
            if kind in heading_kinds and 2 * ll < n:
                run += n
                if run > longest_run:
                    longest_run = run
            else:
                run = 0
        else:
            run = 0
            if group.tag == table_tag:
                in_table += n
            else:
                in_list += n
            g = groups.get(group)
            if g is None:
                groups[group] = [1, n]
            else:
                g[0] += 1
                g[1] += n

    cues = _cue_counts(short_texts)
    count = position
    x[_INDEX["blocks_log"]] = math.log1p(count)
    x[_INDEX["letters_log"]] = math.log1p(total)
    x[_INDEX["headings"]] = float(headings)
    x[_INDEX["headings_per_kletter"]] = 1000.0 * headings / total if total else 0.0
    share = (lambda v: v / total) if total else (lambda v: 0.0)
    per_block = (lambda v: v / count) if count else (lambda v: 0.0)
    x[_INDEX["long_paragraph_share"]] = share(long_paragraph)
    x[_INDEX["paragraph_share"]] = share(paragraph)
    x[_INDEX["list_share"]] = share(in_list)
    x[_INDEX["table_share"]] = share(in_table)
    x[_INDEX["short_block_share"]] = share(short)
    x[_INDEX["mean_block_letters_log"]] = math.log1p(total / count) if count else 0.0
    x[_INDEX["pre_blocks"]] = float(pre_blocks)
    x[_INDEX["pre_share"]] = share(pre)
    x[_INDEX["code_classes"]] = per_block(code_cls)
    x[_INDEX["price_cues"]] = float(cues["price"])
    x[_INDEX["price_cues_per_block"]] = per_block(cues["price"])
    x[_INDEX["buy_cues"]] = float(cues["buy"])
    x[_INDEX["forum_class_blocks"]] = float(forum_cls)
    x[_INDEX["forum_class_share"]] = per_block(forum_cls)
    x[_INDEX["forum_cues"]] = float(cues["forum"])
    x[_INDEX["product_class_blocks"]] = float(product_cls)
    x[_INDEX["date_cues"]] = float(cues["date"])
    x[_INDEX["date_cues_per_block"]] = per_block(cues["date"])
    repeated = [v for v in shapes.values() if v[0] >= 4]
    x[_INDEX["repeated_max_log"]] = math.log1p(max((v[0] for v in shapes.values()), default=0))
    x[_INDEX["repeated_share"]] = share(sum(v[1] for v in repeated))
    x[_INDEX["repeated_linked_shapes"]] = float(sum(1 for v in repeated if 2 * v[2] >= v[0]))
    x[_INDEX["big_group_share"]] = share(sum(g[1] for g in groups.values() if g[0] >= 5))
    x[_INDEX["groups_log"]] = math.log1p(len(groups))
    x[_INDEX["link_share"]] = share(link_letters)
    x[_INDEX["linked_block_share"]] = per_block(linked)
    x[_INDEX["linked_headings"]] = float(linked_headings)
    x[_INDEX["linked_heading_share"]] = linked_headings / headings if headings else 0.0
    x[_INDEX["cta_cues"]] = float(cues["cta"])
    x[_INDEX["docs_cues"]] = float(cues["docs"])
    x[_INDEX["code_elements"]] = math.log1p(code)
    x[_INDEX["longest_prose_run_share"]] = share(longest_run)
    x[_INDEX["first_long_paragraph"]] = first_long / position if first_long >= 0 else 1.0
    for g, c in micro.items():
        x[_INDEX[f"microdata_{g}"]] = float(c)
    return x


# --------------------------------------------------------------------------- the model


@lru_cache(maxsize=1)
def load(path: str | None = None):
    """The shipped model (``classifiers/page_type.json``), checked against :data:`FEATURES`."""
    from kitten.tables.model import load_model

    return load_model(str(path or classifiers_dir() / MODEL_NAME), FEATURES)


def classify(doc: Document, url: str | None = None, model=None) -> PageType:
    """The type of the page of ``doc`` (the structure step's document: ``Document.blocks``
    before the tables, lists and gate steps rewrite them) whose URL is ``url`` (None: the
    canonical URL the page declares, if any)."""
    model = model or load()
    p = model.proba(features(doc, url))
    probabilities = {c: round(float(v), 4) for c, v in zip(model.classes, p)}
    best = max(range(len(p)), key=lambda i: (p[i], -i))
    return PageType(model.classes[best], round(float(p[best]), 4), probabilities)
