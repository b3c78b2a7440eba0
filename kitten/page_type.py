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
prices, buy words, code, dates and post/reply words in their class names, repeated
sibling shapes (cards, rows), letters inside links (``kitten.boilerplate.features``'
count), and words of the URL's path and host. One pass over the blocks and the head; no
site name is a feature. The model is a random forest trained by ``kitten train
page-type`` (``kitten/train/page_type.py``) and shipped as ``classifiers/page_type.json``
(the portable tree format of ``kitten/tables/model.py``).
"""
from __future__ import annotations

import json
import math
import re
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
_PRICE = re.compile(r"(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf|cad|aud|rs\.?|kr|zł)\b)\s?\d|"
                    r"\d(?:[\d.,  ]*\d)?\s?(?:[€£$]|\b(?:usd|eur|gbp|chf|kr|zł|kč)\b)", re.I)
_BUY = re.compile(r"\b(?:add to (?:cart|bag|basket|trolley|wishlist)|buy (?:it )?now|in stock|out of stock|"
                  r"sold out|add to wish ?list|free shipping|free delivery|quantity|checkout|"
                  r"in den warenkorb|ajouter au panier|añadir al carrito|aggiungi al carrello)\b", re.I)
_FORUM_TEXT = re.compile(r"\b(?:reply|replies|replied|quote|posted|joined|posts|upvotes?|downvotes?|votes?|"
                         r"answered|asked|answers|members?|threads?|originally posted|report post)\b", re.I)
_DATE = re.compile(r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|"
                   r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}|"
                   r"\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{4}|"
                   r"\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b", re.I)
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

FEATURES: tuple[str, ...] = (
    *(f"ld_{g}" for g in LD_GROUPS), "ld_objects",
    *(f"og_{t}" for t in OG_TYPES),
    *(f"microdata_{g}" for g in LD_GROUPS),
    "has_author", "has_published",
    "blocks_log", "letters_log", "headings", "headings_per_kletter",
    "long_paragraph_share", "paragraph_share", "list_share", "table_share", "short_block_share",
    "mean_block_letters_log",
    "pre_blocks", "pre_share", "code_classes",
    "price_blocks", "price_share", "buy_blocks",
    "forum_class_blocks", "forum_class_share", "forum_words", "product_class_blocks",
    "date_blocks", "date_share",
    "repeated_max_log", "repeated_share", "big_group_share", "groups_log",
    "link_share", "linked_block_share",
    *(f"url_{g}" for g in URL_WORDS), *(f"host_{g}" for g in HOST_WORDS),
    "url_date", "url_depth", "url_root", "url_slug_words", "url_number", "url_query",
)
_INDEX = {name: i for i, name in enumerate(FEATURES)}


# --------------------------------------------------------------------------- features


def _class_words(value: str | None) -> set[str]:
    return set(_CLASS_WORD.findall(value.lower())) if value else set()


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

    blocks = doc.blocks
    body = root.find(_NS + "body") if root is not None else None
    from kitten.boilerplate.features import _link_letters  # noqa: PLC0415 - the gate's count, in C
    links = _link_letters(blocks, body) if blocks else {}

    total = paragraph = long_paragraph = in_list = in_table = short = pre = 0
    headings = pre_blocks = price = buy = forum_cls = forum_words = product_cls = dated = 0
    link_letters = linked = code_cls = 0
    shapes: dict[tuple, int] = {}
    shape_letters: dict[tuple, int] = {}
    groups: dict[int, list[int]] = {}
    class_cache: dict[int, set[str]] = {}
    micro: dict[str, int] = {g: 0 for g in LD_GROUPS}

    def words_of(el) -> set[str]:
        k = id(el)
        w = class_cache.get(k)
        if w is None:
            cls = el.get("class")
            w = class_cache[k] = _class_words(cls)
            if cls and "kitten.itemtype-" in cls:
                for t in re.findall(r"kitten\.itemtype-([\w-]+)", cls):
                    for g, vocab in LD_GROUPS.items():
                        micro[g] += t in vocab
        return w

    for b in blocks:
        text = b.text()
        n = len(text.strip())
        if not n:
            continue
        total += n
        kind = b.kind
        src = b.source
        if kind == "paragraph":
            paragraph += n
            if n >= 200:
                long_paragraph += n
        elif kind == "heading":
            headings += 1
        elif kind == "preformatted":
            pre_blocks += 1
            pre += n
        if n < 40:
            short += n
        if b.group is not None:
            tag = b.group.tag
            if tag.endswith("table"):
                in_table += n
            else:
                in_list += n
            g = groups.setdefault(id(b.group), [0, 0])
            g[0] += 1
            g[1] += n
        if n < 400 and _PRICE.search(text):
            price += 1
        if n < 200 and _BUY.search(text):
            buy += 1
        if n < 120 and _DATE.search(text):
            dated += 1
        if n < 80 and _FORUM_TEXT.search(text):
            forum_words += 1
        ll = links.get(src, 0)
        link_letters += min(ll, n)
        if ll:
            linked += 1
        # the block's element, its parent and grandparent: class words and the shape of
        # the repeated sibling (a card, a row, a post) the block is in
        parent = src.getparent() if src is not None else None
        words = words_of(src) if src is not None else set()
        if parent is not None:
            words = words | words_of(parent)
            grand = parent.getparent()
            if grand is not None:
                words = words | words_of(grand)
                key = (id(grand), parent.tag, parent.get("class"), src.tag)
                shapes[key] = shapes.get(key, 0) + 1
                shape_letters[key] = shape_letters.get(key, 0) + n
        if words:
            if words & FORUM_CLASSES:
                forum_cls += 1
            if words & PRODUCT_CLASSES:
                product_cls += 1
            if words & CODE_CLASSES:
                code_cls += 1

    count = sum(1 for b in blocks if b.inlines)
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
    x[_INDEX["price_blocks"]] = float(price)
    x[_INDEX["price_share"]] = per_block(price)
    x[_INDEX["buy_blocks"]] = float(buy)
    x[_INDEX["forum_class_blocks"]] = float(forum_cls)
    x[_INDEX["forum_class_share"]] = per_block(forum_cls)
    x[_INDEX["forum_words"]] = float(forum_words)
    x[_INDEX["product_class_blocks"]] = float(product_cls)
    x[_INDEX["date_blocks"]] = float(dated)
    x[_INDEX["date_share"]] = per_block(dated)
    repeated = [k for k, c in shapes.items() if c >= 4]
    x[_INDEX["repeated_max_log"]] = math.log1p(max(shapes.values(), default=0))
    x[_INDEX["repeated_share"]] = share(sum(shape_letters[k] for k in repeated))
    x[_INDEX["big_group_share"]] = share(sum(g[1] for g in groups.values() if g[0] >= 5))
    x[_INDEX["groups_log"]] = math.log1p(len(groups))
    x[_INDEX["link_share"]] = share(link_letters)
    x[_INDEX["linked_block_share"]] = per_block(linked)
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
