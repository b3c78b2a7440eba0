"""The gate's rules that keep a unit the CRF dropped, each measured on held-out sites (its
figures in its docstring): an article's lead and its siblings, the sentences of its body,
its headline, a section's heading, a list or table inside the text and its introduction,
a figure's caption, every data table, and the repeated items of a thread or a listing."""
from __future__ import annotations

import dataclasses
import re
from collections import Counter
from bisect import bisect_left
from typing import Iterator

from kitten.boilerplate.fallback import FALLBACK
from kitten.boilerplate.items import repeated_items
from kitten.boilerplate.reading import ARTICLE_WORDS, FIGURE, LIST_KINDS, SENTENCE_WORDS, TITLE
from kitten.document import Block, Document
from kitten.log import PageLog
from kitten.tables.collect import TABLE

#: the lead rule looks past this many short lines (under :data:`SENTENCE_WORDS` words)
#: for the kept sentence after a lead (:func:`with_sibling_prose`)
LEAD_GAP = 1

#: a ``<p>`` without a sentence (a byline "Un texte de ...", a dateline) in a parent that
#: holds a kept sentence is kept when its content probability is at least this
#: (:func:`with_sibling_prose`). On the held-out sites (CLEANEVAL final / Dragnet /
#: Readability / modern full / modern hand-annotated, must-keep / must-drop snippets,
#: modern snippets on held-out sites), without the rule: 0.926 / 0.927 / 0.943 / 0.938 /
#: 0.947, 0.953 / 0.946, 96.1%; floor 0: 0.926 / 0.928 / 0.947 / 0.939 / 0.946, 0.955 /
#: 0.942, 98.7%; 0.15: 0.927 / 0.928 / 0.945 / 0.939 / 0.947, 0.955 / 0.943, 98.7%;
#: 0.25: 0.927 / 0.928 / 0.944 / 0.939 / 0.947, 0.955 / 0.945, 97.4%; 0.35: the same
#: but modern full 0.938, must-drop 0.946, 96.1%. 0.25 keeps must-drop where it was (the narrow margin
#: over trafilatura's 0.936) for one held-out snippet more.
PARAGRAPH_FLOOR = 0.25

#: a container holding at least this many kept units with a sentence is an article's body:
#: its siblings with the same tag and class hold the article too (:func:`with_sibling_prose`)
BODY_SENTENCES = 3

#: a heading right before a kept unit holding a sentence is kept when its content
#: probability is at least this (:func:`with_headings`)
HEADING_FLOOR = 0.2

#: a list or table between kept blocks is kept when one of its blocks has at least this
#: content probability (:func:`with_groups`)
GROUP_FLOOR = 0.05

#: the unit before a kept list or table is kept as its introduction when its content
#: probability is at least this (:func:`with_introductions`)
INTRO_FLOOR = 0.2

#: how far before a caption the article's kept text may end (:func:`with_captions`)
CAPTION_REACH = 10

#: the kinds of page whose main content is a run of repeated items (``kitten.page_type``):
#: a thread's posts, a listing's or a category's cards (:func:`with_items`)
LIST_PAGES = frozenset({"forum", "listing", "collection"})

#: a run of items is kept whole when its items have this many words on average ...
ITEM_WORDS = 6

#: ... and the mean content probability of its units is at least this
RUN_FLOOR = 0.1

#: when no run has a kept unit, the largest is kept if what is kept weighs less than this
#: share of its words
ITEMS_SHARE = 0.25
#: ... its units whose content probability is at least this (not a "Share" button)
ITEM_FLOOR = 0.02


#: a unit holding a sentence after kept prose is kept when the CRF gives it at least this
#: (:func:`with_following_prose`) ...
FOLLOW_FLOOR = 0.15
#: ... across at most this many short units (a section's heading) between
FOLLOW_GAP = 1


_PRE, _CODE = "{http://www.w3.org/1999/xhtml}pre", "{http://www.w3.org/1999/xhtml}code"

#: a code block none of whose units the CRF kept is kept when kept units lie at most this
#: many units before and after it (:func:`with_code`) ...
CODE_REACH = 8
#: ... and one of its units has at least this content probability
CODE_FLOOR = 0.05


def code_units(units: list[Block], own: list[list[str]]) -> list[bool]:
    """Is each unit code: a ``<pre>``, or inside a ``<pre>`` or ``<code>`` (its features
    name the element or a container)? The page's tree is asked first (in C): most pages
    have no such element, and reading every unit's features cost about 1 ms a page."""
    source = next((u.source for u in units if u.source is not None), None)
    if source is None or next(source.getroottree().iter(_PRE, _CODE), None) is None:
        return [False] * len(own)
    return [("tag.pre" in f or "container.pre" in f or "container.code" in f) for f in own]


def with_code(labels: list[str], code: list[bool], probs: list[float]) -> list[str]:
    """``labels`` with each code block (a run of code units, :func:`code_units`) kept whole
    when one of its units is kept (a block's closing ``}`` or a short line has too few
    letters for the CRF), or when kept units lie within :data:`CODE_REACH` units on both
    sides and one of its units has :data:`CODE_FLOOR` (an example between two paragraphs
    of a documentation page, which the CRF reads as a widget). Not with a model whose units
    are the lines of a ``<pre>`` (``pre-lines``): those are judged one by one. Measured
    with :func:`with_sibling_prose`'s look-alike containers and the structure step's
    ``display:none`` rule (web2025 held-out sites, ``benchmarks/web2025.py``): all 0.831 ->
    0.837 (article 0.946 -> 0.950, forum 0.767 -> 0.783, product 0.592 -> 0.615,
    collection 0.572 -> 0.580, documentation 0.864 -> 0.870: react.dev's examples); the
    older sets unchanged (CLEANEVAL final 0.924, Dragnet 0.921, Readability 0.935, modern
    0.953, CleanPortalEval 0.956, snippets 97.4%) but modern hand-annotated 0.939 -> 0.943."""
    out = list(labels)
    n = len(out)
    kept = [i for i, lab in enumerate(out) if lab != "other"]
    if not kept or not any(code):
        return out
    i = 0
    while i < n:
        if not code[i]:
            i += 1
            continue
        j = i
        while j < n and code[j]:
            j += 1
        run = range(i, j)
        if any(out[k] != "other" for k in run):
            keep = True
        else:
            before = bisect_left(kept, i) - 1
            after = bisect_left(kept, j)
            keep = before >= 0 and after < len(kept) and i - kept[before] <= CODE_REACH \
                and kept[after] - (j - 1) <= CODE_REACH and max(probs[i:j]) >= CODE_FLOOR
        if keep:
            for k in run:
                if out[k] == "other":
                    out[k] = "paragraph"
        i = j
    return out


def with_following_prose(labels: list[str], prose: list[int], words: list[int], probs: list[float]) -> list[str]:
    """``labels`` with the units holding a sentence that follow kept prose kept, across at
    most :data:`FOLLOW_GAP` short units (a section heading), when the CRF gives each
    :data:`FOLLOW_FLOOR`: the paragraphs of an article written one container each (site
    builders wrap every paragraph apart), which :func:`with_sibling_prose` cannot join by
    their parent. A unit the CRF all but rules out (a related-posts teaser, a comment)
    ends the run."""
    out = list(labels)
    active, gap = False, 0
    for i, lab in enumerate(out):
        if lab != "other":
            active, gap = (True, 0) if prose[i] else (active and gap < FOLLOW_GAP and words[i] < SENTENCE_WORDS, gap + 1)
            continue
        if active and prose[i] and probs[i] >= FOLLOW_FLOOR:
            out[i] = "paragraph"
            gap = 0
        elif active and words[i] < SENTENCE_WORDS and not prose[i] and gap < FOLLOW_GAP:
            gap += 1
        else:
            active = False
    return out


#: the article's body is the deepest element holding this share of the kept prose's words
#: (:func:`with_body_prose`) ...
BODY_SHARE = 0.6
#: ... its units holding a sentence between the first and the last kept prose unit the CRF
#: is fairly sure of (this content probability or more) ...
BODY_ANCHOR = 0.3
#: ... are kept when the CRF gives them at least this
BODY_FLOOR = 0.01

_TOP = ("{http://www.w3.org/1999/xhtml}body", "{http://www.w3.org/1999/xhtml}html")


def with_body_prose(units: list[Block], labels: list[str], prose: list[int], probs: list[float]) -> list[str]:
    """``labels`` with the sentences inside the article's body kept between its first and
    last paragraphs the CRF is fairly sure of: the body is the deepest element (not
    ``body``) that holds :data:`BODY_SHARE` of the kept prose's words; a unit inside it
    that holds a sentence, lies between the first and the last kept prose unit with
    :data:`BODY_ANCHOR` or more, and has :data:`BODY_FLOOR` is kept. The CRF's probability
    sags in the middle of long texts written one wrapper a paragraph (a site builder's
    post whose middle sections fall to 0.02-0.09, a service page's sections between its
    kept introduction and closing paragraph, a listing's entries), where
    :func:`with_sibling_prose` finds no shared parent and :func:`with_following_prose`
    stops at its floor.

    Measured on web2025's training sites out of fold (``benchmarks/gate_folds.py``): all
    0.844 -> 0.847 (article 0.931 -> 0.933, listing 0.689 -> 0.704, documentation 0.905
    -> 0.917, service 0.810 -> 0.816), must-keep 78.3% -> 78.7%, must-drop 93.2% ->
    93.0%; held out (``benchmarks/web2025.py``) 0.850 -> 0.856 (article 0.949 -> 0.951,
    listing 0.665 -> 0.712, service 0.828 -> 0.837, documentation 0.879 -> 0.881);
    CLEANEVAL final 0.926 -> 0.927, Readability 0.939 -> 0.938, Dragnet, modern and the
    hand-annotated pages unchanged (must-drop snippets 93.5% -> 93.4%). Tried: the units
    after the last kept paragraph too (held out 0.860, but Dragnet 0.917 -> 0.910: blogs
    of 2012 whose readers' comments sit in the post's container); every kept paragraph as
    an anchor (Dragnet 0.915: a comment an earlier rule kept stretches the span over the
    whole thread); a body holding 0.8 of the kept words (hand-annotated 0.945 -> 0.940:
    kept comments beside a news story pull the body up to the column of teasers); gaps
    of at most 5 or 15 units (no gain: the sagging runs are long); floors of 0.05 and 0.1
    (less gain, the same losses)."""
    anchors = [i for i, (lab, w, p) in enumerate(zip(labels, prose, probs))
               if lab != "other" and w and p >= BODY_ANCHOR]
    if len(anchors) < 2:
        return labels
    candidates = [i for i in range(anchors[0] + 1, anchors[-1])
                  if labels[i] == "other" and prose[i] and probs[i] >= BODY_FLOOR and units[i].source is not None]
    if not candidates:
        return labels
    weight: dict = {}
    total = 0
    for u, lab, w in zip(units, labels, prose):
        if lab == "other" or not w or u.source is None:
            continue
        total += w
        el = u.source.getparent()
        while el is not None:
            weight[el] = weight.get(el, 0) + w
            el = el.getparent()
    # the elements holding more than half the words are one chain: its deepest holds the fewest
    held = [(w, -_depth(el), el) for el, w in weight.items() if w >= BODY_SHARE * total and el.tag not in _TOP]
    if not held:
        return labels
    body = min(held, key=lambda h: h[:2])[2]
    out = list(labels)
    for i in candidates:
        if _inside(units[i].source, body):
            out[i] = "paragraph"
    return out


def _depth(el) -> int:
    depth = 0
    while el is not None:
        depth += 1
        el = el.getparent()
    return depth


def with_sibling_prose(units: list[Block], labels: list[str], prose: list[int], words: list[int],
                        probs: list[float]) -> list[str]:
    """``labels`` with every unit that holds a sentence (:func:`sentence_words`) kept
    when a unit beside it is kept and has the same parent element, or when the unit
    right after it is kept and holds a sentence (sweeps forward and backward until
    nothing changes: linear in the units, a few sweeps). An
    article's first paragraph (a lead in a container of its own, after a byline the
    CRF rightly drops) is often labelled as its neighbour. On the held-out sites
    (``benchmarks/boilerplate.py``, mean F1 CLEANEVAL final / Dragnet / Readability /
    modern full gold, modern snippets found) the same parent alone 0.928 / 0.904 / 0.933 /
    0.934, 81.1% -> 0.931 / 0.905 / 0.934 / 0.943, 82.5%; the lead rule 83.9%, the
    rest unchanged. With the model trained on the hand-annotated modern pages (the same
    figures, then modern hand-annotated, snippets on held-out sites): 0.927 / 0.926 /
    0.941 / 0.926 / 0.929, 89.6%; a parent holding a kept sentence keeps its other
    sentences (across "Related:" lines and ad labels between them) 0.928 / 0.927 /
    0.944 / 0.926 / 0.940, 92.2%; the lead looks past one short line (:data:`LEAD_GAP`;
    an "Advertisement" label) Dragnet -0.001, snippets of training sites +0.7 points
    (three lines: Dragnet -0.002). A ``<p>`` of that parent without a sentence (a
    byline, a dateline) is kept too when the CRF gives it :data:`PARAGRAPH_FLOOR`.

    An article written in several containers alike (a site builder's rich-text blocks, one
    a section, each in a wrapper of its own): the sentences of a container with the same
    tag and class as one holding :data:`BODY_SENTENCES` kept sentences, beside it or in a
    wrapper beside its wrapper (:func:`_container_keys`), are kept too (a catering article
    whose CRF probabilities fall to 0.02 after its fourth section: F1 0.65 -> 0.92; the
    figures with :func:`with_code`'s)."""
    out = list(labels)
    n = len(units)
    parents = [u.source.getparent() if u.source is not None else None for u in units]
    # a parent holding a kept sentence holds the article: its other sentences are kept
    # too, across the short lines between them ("Related: ...", an ad label), and so are
    # its paragraphs the CRF gives some chance (a byline)
    kept_prose = Counter(id(parents[i]) for i in range(n) if out[i] != "other" and prose[i] and parents[i] is not None)
    # an article's body written in several containers alike (a site builder's rich-text
    # blocks, one a section): a container beside one holding kept sentences, with the same
    # tag and class, holds the article too
    bodies = {key for parent in {id(p): p for p in parents if p is not None
                                 and kept_prose.get(id(p), 0) >= BODY_SENTENCES}.values()
              for key in _container_keys(parent)}
    for i in range(n):
        parent = parents[i]
        if out[i] == "other" and parent is not None and (
                prose[i] or (units[i].kind == "paragraph" and probs[i] >= PARAGRAPH_FLOOR)) and (
                id(parent) in kept_prose or (bodies and prose[i] and not bodies.isdisjoint(_container_keys(parent)))):
            out[i] = "paragraph"
    # the next unit holding a sentence, across at most LEAD_GAP short lines (an ad label)
    after: list[int | None] = [None] * n
    nxt: int | None = None
    gap = 0
    for i in range(n - 1, -1, -1):
        after[i] = nxt if gap <= LEAD_GAP else None
        if prose[i]:
            nxt, gap = i, 0
        elif words[i] < SENTENCE_WORDS:
            gap += 1
        else:
            nxt = None
    changed = True
    while changed:  # a sweep forward, then backward: each carries a change along its direction
        changed = False
        for order in (range(n), range(n - 1, -1, -1)):
            for i in order:
                if out[i] != "other" or not prose[i] or parents[i] is None:
                    continue
                j = after[i]
                if (i + 1 < n and out[i + 1] != "other" and (prose[i + 1] or parents[i + 1] is parents[i])) \
                        or (j is not None and out[j] != "other") \
                        or (i > 0 and out[i - 1] != "other" and parents[i - 1] is parents[i]):
                    out[i] = "paragraph"  # a sibling of kept text, or the lead before a kept body
                    changed = True
    return out


def _container_keys(parent) -> tuple:
    """The shapes of a container with a class: ``(its parent, tag, class)``, and
    ``(its grandparent, its parent's tag and class, tag, class)`` (a section wrapper
    around each block); none for a container without a class."""
    cls = parent.get("class")
    up = parent.getparent()
    if not cls or up is None:
        return ()
    top = up.getparent()
    if top is None:
        return ((up, parent.tag, cls),)
    return (up, parent.tag, cls), (top, up.tag, up.get("class"), parent.tag, cls)


def with_headings(units: list[Block], labels: list[str], texts: list[str], prose: list[int],
                   probs: list[float], cues: re.Pattern) -> list[str]:
    """``labels`` with a heading kept when the unit right after it is kept and holds a
    sentence, the CRF gives the heading :data:`HEADING_FLOOR` and it does not start with
    a teaser cue ("Related stories": :func:`teaser_cues`): the heading of a section of
    the article ("Web Console" above its paragraph), which the CRF reads as a short line.
    On the held-out sites (CLEANEVAL final / Dragnet / Readability / modern full / modern
    hand-annotated, must-keep / must-drop, modern snippets held out): 0.927 / 0.929 /
    0.944 / 0.939 / 0.948, 95.5% / 94.9%, 97.4% -> the same but Readability 0.945 (105
    headings more on 2,121 pages, mostly blog post and section titles; with a floor of
    0.05 the same)."""
    out = list(labels)
    for i in range(len(units) - 1):
        if out[i] == "other" and units[i].kind == "heading" and probs[i] >= HEADING_FLOOR \
                and out[i + 1] != "other" and prose[i + 1] and not cues.match(texts[i].lower()):
            out[i] = "header"
    return out


def with_groups(units: list[Block], labels: list[str], probs: list[float],
                 spans: list[tuple[int, int]]) -> list[str]:
    """``labels`` with every unit of a list or table (nested lists and tables included)
    kept when the unit before it is kept and introduces it (a heading, or a clause
    ending with a colon), or when the units on both sides of it are kept and one of its
    units has a content probability of :data:`GROUP_FLOOR` or more (a share bar between
    the byline and the body has none): a data table
    or list inside an article is part of it, though its short cells and items look
    like navigation to the CRF. On the held-out sites: CLEANEVAL final 0.931 -> 0.930,
    the other sets unchanged; Wikipedia table facts kept (``benchmarks/table_facts.py``)
    39.9% -> 56.8% (98.3% with :func:`with_data_tables`). The probability floor
    (:data:`GROUP_FLOOR`): modern full gold 0.932 -> 0.938 (a BBC share bar of 28
    links between the date and the body), the other sets unchanged."""
    out = list(labels)
    n = len(units)
    for i, j in spans:
        if i > 0 and out[i - 1] != "other":
            if _introduces(units[i - 1], units[i - 1].text()) or (j < n and out[j] != "other" and max(probs[i:j]) >= GROUP_FLOOR):
                out[i:j] = [lab if lab != "other" else "list" if units[k].kind in LIST_KINDS else "paragraph"
                            for k, lab in enumerate(out[i:j], i)]
    return out


def group_spans(units: list[Block]) -> Iterator[tuple[int, int]]:
    """``(i, j)`` for each list or table of ``units``: ``units[i:j]`` are its units (those
    of the lists and tables nested in it included), ``units[i].group`` is it."""
    n = len(units)
    i = 0
    while i < n:
        group = units[i].group
        j = i + 1
        while j < n and group is not None and _inside(units[j].group, group):
            j += 1
        if group is not None:
            yield i, j
        i = j


def _introduces(unit: Block, text: str) -> bool:
    """Does ``unit`` (its ``text``) read as the introduction of what follows it: a
    heading, or a clause ending with a colon?"""
    return unit.kind == "heading" or text.rstrip().endswith(":")


def with_introductions(units: list[Block], labels: list[str], texts: list[str], prose: list[int],
                        probs: list[float], cues: re.Pattern, spans: list[tuple[int, int]]) -> list[str]:
    """``labels`` with the introduction of a kept list or table kept: the unit right
    before a list or table one of whose units is kept (after :func:`with_groups` and the
    data tables), when it is a heading, holds a sentence or ends with a colon ("The party
    standings were as follows:"), is not itself in a list or table, does not start with
    a teaser cue ("Related stories": :func:`teaser_cues`) and the CRF gives it
    :data:`INTRO_FLOOR`. The lists and tables steps read a list with its introductory
    clause; without it a list is torn from what it enumerates. On the held-out sites
    (CLEANEVAL final / Dragnet / Readability / modern full / CleanPortalEval, modern
    hand-annotated, must-keep / must-drop, snippets): 0.9268 / 0.9282 / 0.9402 / 0.9529 /
    0.9616, 0.951, 95.5% / 95.7%, 97.4% -> 0.9271 / 0.9282 / 0.9423 / 0.9529 / 0.9616,
    the rest the same (10 pages of 1,100 change; a floor of 0.05: 13, the same figures)."""
    out = list(labels)
    for i, j in spans:
        if i > 0 and out[i - 1] == "other" and probs[i - 1] >= INTRO_FLOOR \
                and units[i - 1].group is None and any(lab != "other" for lab in out[i:j]):
            before, text = units[i - 1], texts[i - 1]
            if (prose[i - 1] or _introduces(before, text)) and not cues.match(text.lower()):
                out[i - 1] = "header" if before.kind == "heading" else "paragraph"
    return out


def with_captions(units: list[Block], labels: list[str], own: list[list[str]]) -> list[str]:
    """``labels`` with the caption of a figure kept (a ``figcaption``, or a block inside a
    ``figure``) when the block right after it, or the one after that, is kept and a kept
    block comes at most :data:`CAPTION_REACH` blocks before it: the lead image's caption
    and credit between an article's headline and its first paragraph, which the CRF
    reads as a short line among share buttons. On the held-out sites: modern snippets
    found 93.5% -> 96.1% (Postlight's content starts with the lead image's credit),
    Dragnet 0.930 -> 0.929, the other sets unchanged."""
    out = list(labels)
    n = len(units)
    last = -CAPTION_REACH - 1  # the last kept unit so far
    for i in range(n):
        if out[i] != "other":
            last = i
            continue
        if i - last > CAPTION_REACH or not any(out[j] != "other" for j in range(i + 1, min(n, i + 3))):
            continue
        if units[i].kind == "caption" or not FIGURE.isdisjoint(own[i]):
            out[i] = "paragraph"
    return out


def with_headline(labels: list[str], own: list[list[str]], prose: list[int]) -> list[str]:
    """``labels`` with the page's headline kept (the unit with the feature of
    ``reading.TITLE``: the heading that matches the page's title, or its first ``h1``) when
    the kept units hold an article (``reading.ARTICLE_WORDS`` words of prose or more): the
    default keeps the headline, which the CRF drops when a byline, a date and share buttons
    stand between it and the text. The gate calls it on pages the page-type classifier
    reads as articles, with ``[boilerplate] keep_title`` (the article preset leaves the
    headline out). On the held-out sites: the hand-annotated recent pages (their gold
    keeps the headline) 0.945 -> 0.949, must-keep snippets 94.4% -> 96.4%, must-drop 93.4%
    -> 93.2%; Dragnet 0.918 -> 0.919; CleanPortalEval 0.956 -> 0.964; CLEANEVAL final and
    the modern snippets unchanged; the convention checks whose golds leave the headline out:
    Readability tests 0.938 -> 0.937, newspaper4k's modern pages 0.953 -> 0.947. web2025
    (its gold leaves the title out): held out 0.857 either way (article 0.951 -> 0.950),
    out of fold 0.848 either way. On every kind of page: the same but the hand-annotated
    must-drop 93.2% -> 92.9% and web2025's forums and products lower."""
    if sum(w for w, lab in zip(prose, labels) if lab != "other") < ARTICLE_WORDS:
        return labels
    return ["header" if lab == "other" and not TITLE.isdisjoint(f) else lab for lab, f in zip(labels, own)]


def with_data_tables(units: list[Block], labels: list[str], data: set) -> list[str]:
    """``labels`` with every cell of a data table kept (``[boilerplate] keep_data_tables``)."""
    if not data:
        return labels
    return [lab if lab != "other" or u.group not in data else "paragraph" for u, lab in zip(units, labels)]


def dropped_tables(units: list[Block], labels: list[str]) -> set:
    """The tables that are the group of a unit labelled ``other``: the only ones
    :func:`with_data_tables` can keep, and so the only ones to classify (none on most
    pages)."""
    return {u.group for u, lab in zip(units, labels) if lab == "other" and u.group is not None
            and u.group.tag == TABLE}


def tables_only(doc: Document, tables: set) -> Document:
    """``doc`` with only the blocks whose group is inside one of ``tables`` (the blocks of
    their cells, lists in cells included): ``data_tables`` classifies each leaf table on
    its own element and its own blocks' text, so its answer for ``tables`` is the same,
    without building the grids of the page's other tables."""
    inside: dict[int, bool] = {}  # per group element: is it inside one of tables?
    blocks = []
    for b in doc.blocks:
        if b.group is None:
            continue
        key = id(b.group)
        if key not in inside:
            inside[key] = any(_inside(b.group, t) for t in tables)
        if inside[key]:
            blocks.append(b)
    return dataclasses.replace(doc, blocks=blocks)


def _inside(element, group) -> bool:
    """Is ``element`` (a unit's list or table, or its element) ``group`` or inside it?"""
    while element is not None:
        if element is group:
            return True
        element = element.getparent()
    return False


def with_items(units: list[Block], labels: list[str], probs: list[float], words: list[int],
                log: PageLog) -> list[str]:
    """``labels`` with every run of repeated items (``items.repeated_items``: a thread's
    posts, a listing's cards) kept whole when one of its items has a kept unit, its items
    hold :data:`ITEM_WORDS` words on average (not a menu) and the CRF gives its units
    :data:`RUN_FLOOR` on average: on a page whose kind is a list of things, the CRF is
    sure of a card or two, and the others, made the same way, are the same kind of text.
    Only units with :data:`ITEM_FLOOR` are kept. Logged (``items``) with the count.

    Never worse than no gate where the CRF is unsure: when no such run has a kept unit and
    what is kept weighs under :data:`ITEMS_SHARE` of the largest such run's words, that run
    is kept (logged ``boilerplate-fallback``, reason ``items``)."""
    out = list(labels)
    added = 0
    candidates = []
    for run in repeated_items(units):
        if run.items < 3:
            continue
        idx = run.units
        total = sum(words[i] for i in idx)
        if total < ITEM_WORDS * run.items or sum(probs[i] for i in idx) < RUN_FLOOR * len(idx):
            continue
        if not any(out[i] != "other" for i in idx):
            candidates.append((total, run))
            continue
        added += _keep_run(units, out, probs, idx)
    if added:
        log.add("gate", "items", f"kept {added} units of repeated items")
    elif candidates:
        total, run = max(candidates, key=lambda c: c[0])
        kept = sum(w for w, lab in zip(words, out) if lab != "other")
        if kept < ITEMS_SHARE * total:
            n = _keep_run(units, out, probs, run.units)
            log.add("gate", FALLBACK, f"items: {kept} words kept beside a run of {run.items} repeated items of "
                                      f"{total} words; kept the run ({n} units)")
    return out


def _keep_run(units: list[Block], out: list[str], probs: list[float], idx: tuple[int, ...]) -> int:
    """Keep (in ``out``) the units ``idx`` of a run that have :data:`ITEM_FLOOR`; how many."""
    n = 0
    for i in idx:
        if out[i] == "other" and probs[i] >= ITEM_FLOOR:
            out[i] = "list" if units[i].kind in LIST_KINDS else "paragraph"
            n += 1
    return n
