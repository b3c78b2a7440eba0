"""Gate step (optional): a CRF labels each block, and boilerplate blocks are dropped.

Runs between the structure and the tables steps when ``[boilerplate] method = "crf"``
(``kitten extract --boilerplate crf``). After Marek, Pecina and Spousta's "Victor"
(CLEANEVAL 2007): cleaning as sequence labelling. Each block of the structure step gets
a label: ``header``, ``paragraph``, ``list``, ``continuation`` (goes on with the
previous content block) or ``other`` (navigation, footers, ads ...), from a
linear-chain CRF (``crf.py``, python-crfsuite) over the features of ``features.py``.

A block is kept when its probability of being content (one minus the CRF's marginal
probability of ``other``) is at least ``[boilerplate] keep_threshold``; it then takes
its likeliest content label. The kept blocks stay as they were (kinds, groups,
sources), so the tables, lists and segmentation steps read them as usual. With the unit
rules the model was trained with (``units.py``: ``<br><br>`` paragraphs, ``<pre>``
lines, image alt texts), the CRF labels those units and a block keeps the text of its
kept units.

Then rules the CRF's view of one block at a time misses, each measured on the held-out
sites: a prose block whose parent holds a kept prose block, beside a kept block of the
same parent, or before a kept prose block (across one short line) is kept
(:func:`_with_sibling_prose`: an article's lead); a list or table after a kept heading
or clause ending with a colon, or between two kept blocks when the CRF gives one of its
blocks some chance, is kept (:func:`_with_groups`); a heading, sentence or
clause ending with a colon right before a kept list or table is kept
(:func:`_with_introductions`); a figure's caption between an
article's kept headline and body is kept (:func:`_with_captions`); every data table is
kept whole (:func:`_with_data_tables`,
``[boilerplate] keep_data_tables``; the tables step's own classifier decides); readers'
comments under a kept article are dropped (:func:`_without_comments`,
``[boilerplate] drop_comments``); the page's headline and its figure captions, which
golds disagree on, are kept unless ``[boilerplate] keep_title`` or ``keep_captions`` is
false (:func:`_without`). The
pipeline reads a page without the gate when the later steps leave no text of what the
gate kept (a kept link list the lists step removes), logged the same way.

Never an empty page, never a silent loss (:func:`_plausible`): when what the labels
keep is implausible for a page that has prose (no kept block holds a sentence, or the
kept prose is under :data:`MIN_PROSE_SHARE` of the page's and under
:data:`ENOUGH_PROSE` words), the gate also keeps the page's densest text region
(``features.prose_region``: readers' comments, footers, menus and other containers of
``features.NOT_MAIN`` left out; of the region, the blocks holding a sentence or with a
content probability of :data:`REGION_FLOOR` or more) and logs a
``boilerplate-fallback`` event with its reason; when there is no such region (no prose,
or all of it in comments) and every block is labelled ``other``, it keeps the likeliest
blocks (at least half the page's highest content probability). Only a page without
words comes out empty. Each unit's label, probability and (for ``--dump-dir``) features go to the
document's ``gate`` readings (``--format json``, ``.boilerplate.json``); the counts to
the page log. Training: ``kitten train boilerplate`` (``kitten/train/boilerplate.py``),
labels from the gold standards by ``align.py``.
"""
from __future__ import annotations

import dataclasses
import re
from functools import lru_cache, partial
from typing import Callable, Iterator, NamedTuple, Sequence

from kitten.boilerplate.crf import load_model, model_path
from kitten.boilerplate.features import COMMENTS, own_features_and_words, word_count
from kitten.boilerplate.units import crf_units, kept_blocks
from kitten.config import BoilerplateConfig, TablesConfig
from kitten.document import Block, Document, Locators
from kitten.lists import link_letters
from kitten.log import PageLog
from kitten.resources import lines
from kitten.tables import data_tables
from kitten.tables.collect import TABLE

__all__ = ["gate", "Labelled", "FALLBACK"]

#: the log event of a page whose labels were overridden
FALLBACK = "boilerplate-fallback"
#: when every block is labelled ``other`` on a page without prose, the blocks kept are
#: those whose content probability is at least this share of the page's highest
KEEP_SHARE = 0.5
#: a block holds a sentence when it has this many words and a sentence end
SENTENCE_WORDS = 8
#: the kept prose (words of blocks holding a sentence) must be at least this share of
#: the page's, else the densest region is kept too
MIN_PROSE_SHARE = 0.2
#: ... unless it has this many words (an article above a long comment thread)
ENOUGH_PROSE = 100
#: the fallback keeps the blocks of the densest region that hold a sentence or whose
#: content probability is at least this (not the region's tag lists and buttons). With
#: the region's exclusions (``features.NOT_MAIN``), on the held-out sites: modern
#: hand-annotated 0.940 -> 0.950, Dragnet 0.927 -> 0.930, modern snippets 92.2% -> 93.5%
REGION_FLOOR = 0.05
#: the lead rule looks past this many short lines (under :data:`SENTENCE_WORDS` words)
#: for the kept sentence after a lead (:func:`_with_sibling_prose`)
LEAD_GAP = 1
#: a list or table between kept blocks is kept when one of its blocks has at least this
#: content probability (:func:`_with_groups`)
GROUP_FLOOR = 0.05
#: a ``<p>`` without a sentence (a byline "Un texte de ...", a dateline) in a parent that
#: holds a kept sentence is kept when its content probability is at least this
#: (:func:`_with_sibling_prose`). On the held-out sites (CLEANEVAL final / Dragnet /
#: Readability / modern full / modern hand-annotated, must-keep / must-drop snippets,
#: modern snippets on held-out sites), without the rule: 0.926 / 0.927 / 0.943 / 0.938 /
#: 0.947, 0.953 / 0.946, 96.1%; floor 0: 0.926 / 0.928 / 0.947 / 0.939 / 0.946, 0.955 /
#: 0.942, 98.7%; 0.15: 0.927 / 0.928 / 0.945 / 0.939 / 0.947, 0.955 / 0.943, 98.7%;
#: 0.25: 0.927 / 0.928 / 0.944 / 0.939 / 0.947, 0.955 / 0.945, 97.4%; 0.35: the same
#: but modern full 0.938, must-drop 0.946, 96.1%. 0.25 keeps must-drop where it was (the narrow margin
#: over trafilatura's 0.936) for one held-out snippet more.
PARAGRAPH_FLOOR = 0.25
#: a heading right before a kept unit holding a sentence is kept when its content
#: probability is at least this (:func:`_with_headings`)
HEADING_FLOOR = 0.2
#: the unit before a kept list or table is kept as its introduction when its content
#: probability is at least this (:func:`_with_introductions`)
INTRO_FLOOR = 0.2
#: a kept unit starting with a cue of ``rules/related.txt`` ("Related:", "Lire aussi") is
#: dropped when at least this share of its letters are in links (:func:`_without_teasers`)
TEASER_LINKS = 0.5
#: a kept paragraph between kept prose is an in-article teaser when at least this share
#: of its letters are in links (:func:`_without_link_lines`)
LINK_LINE_SHARE = 0.95
#: ... and at least this many words (white-space separated), not ending with :data:`_STOPS`
LINK_LINE_WORDS = 4
#: a sentence that ends with one of these is no headline (:func:`_without_link_lines`)
_STOPS = (".", "!", "。", "！")
#: a kept line of at most this many words with a time of day and a year is a dateline
#: (:func:`_without_datelines`)
DATELINE_WORDS = 25
#: a time of day: 10:44, 2:24 pm, 07.46 EST, 14h30 UTC, 9.10 Uhr (digits and a colon, or a
#: point or an "h" followed by a meridiem or a time zone)
_TIME_OF_DAY = re.compile(r"\b\d{1,2}(?::\d{2}(?!\d)|[.h]\d{2}\s*(?:[ap]\.?m\b|uhr\b|utc\b|gmt\b|[ecmp][sd]t\b"
                          r"|cet\b|cest\b|bst\b|ist\b))", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: prose words kept outside comment containers that make an article (:func:`_without_comments`)
ARTICLE_WORDS = 50
#: the characters that end a sentence (one search for any of them: :data:`_END_MARK`)
_ENDS = (".", "!", "?", "。", "！", "？", "”", '"', "»", "؟", "।", "။", "።")
_END_MARK = re.compile("[" + re.escape("".join(_ENDS)) + "]")
#: scripts that end sentences with a space, not a mark (Thai, Lao, Khmer): a block holds
#: a sentence when it has twice :data:`SENTENCE_WORDS` words
_NO_END_MARK = re.compile(r"[\u0e00-\u0eff\u1780-\u17ff]")


class Labelled(NamedTuple):
    """One unit the CRF labelled (the gate step's reading, for JSON and dumps). A named
    tuple: the gate makes one per unit of every page, all in one C-level call
    (:func:`_labelled`)."""

    block: Block
    label: str
    #: probability that the unit is content (not ``other``)
    probability: float
    #: the unit's own features, as the feature builder made them (its list, not a copy:
    #: no one changes it after the gate)
    features: Sequence[str] = ()

    def as_dict(self, locate: Locators, features: bool = False) -> dict:
        out = {"label": self.label, "probability": round(self.probability, 4), "kind": self.block.kind,
               "locator": locate(self.block.source) or "", "text": " ".join(self.block.text().split())}
        if features:
            out["features"] = list(self.features)
        return out


def _labelled(units: list[Block], labels: list[str], probs: list[float], own: list[list[str]]) -> list[Labelled]:
    """A :class:`Labelled` per unit: ``Labelled(*fields)`` without a Python call each."""
    return list(map(partial(tuple.__new__, Labelled), zip(units, labels, probs, own)))


def gate(doc: Document, config: BoilerplateConfig, log: PageLog, classifiers: str = "",
         rules: str = "", tables: TablesConfig | None = None) -> tuple[Document, list[Labelled]]:
    """Label the blocks of ``doc`` and drop the ``other`` ones (``doc`` itself unchanged);
    with ``tables``, the data tables (``kitten.tables.data_tables``) are kept whole."""
    if config.method == "none" or not doc.blocks:
        return doc, []
    model = load_model(str(model_path(config.model, classifiers)))
    units, owner = crf_units(doc.blocks, model.settings.units)
    texts = [u.text() for u in units]
    own, words, region = own_features_and_words(units, model.settings, doc.lang, rules, doc.json_ld, texts)
    marginals = model.marginals_own(own)
    names = model.labels
    other = names.index("other")
    content = [i for i in range(len(names)) if i != other]
    # a unit's content probability, and its likeliest content label (the first of equals)
    probs: list[float] = (1.0 - marginals[:, other]).tolist()
    likeliest = marginals[:, content].argmax(axis=1).tolist()
    labels = [names[content[k]] if p >= config.keep_threshold else "other" for p, k in zip(probs, likeliest)]
    prose = [_sentence_words(t, n) for t, n in zip(texts, words)]
    labels = _with_sibling_prose(units, labels, prose, words, probs)
    cues = _teaser_cues(rules)
    spans = list(_group_spans(units))  # each list or table of the page, read by two rules
    labels = _with_groups(units, _with_headings(units, labels, texts, prose, probs, cues), probs, spans)
    if config.keep_captions:
        labels = _with_captions(units, labels, own)
    if tables is not None and config.keep_data_tables:
        dropped = _dropped_tables(units, labels)
        if dropped:
            labels = _with_data_tables(units, labels, data_tables(_tables_only(doc, dropped), tables, classifiers))
    labels = _with_introductions(units, labels, texts, prose, probs, cues, spans)
    if config.drop_comments:
        labels = _without_comments(labels, prose, [COMMENTS in f for f in own])
    labels = _without_teasers(units, labels, texts, cues)
    labels = _without_link_lines(units, labels, texts, prose)
    labels = _without_datelines(units, labels, texts, _byline_cues(rules))
    if not config.keep_title:
        labels = _without(labels, own, _TITLE)
    if not config.keep_captions:
        labels = _without(labels, own, _FIGURE)
    labels = _plausible(units, labels, probs, prose, log, region)
    kept = kept_blocks(doc.blocks, units, owner, labels)
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    cut = f" ({len(units)} units)" if len(units) != len(doc.blocks) else ""
    log.add("gate", "labels", ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; {len(doc.blocks) - len(kept)} of {len(doc.blocks)} blocks{cut} dropped")
    labelled = _labelled(units, labels, probs, own)
    return dataclasses.replace(doc, blocks=kept, gate=labelled), labelled


def _sentence_words(text: str, n: int) -> int:
    """``n``, the words of a unit's ``text``, when it holds a sentence
    (:data:`SENTENCE_WORDS` words or more and a sentence end; in Thai, Lao and Khmer twice
    as many words), else 0."""
    if n < SENTENCE_WORDS:
        return 0
    if _END_MARK.search(text):
        return n
    return n if n >= 2 * SENTENCE_WORDS and _NO_END_MARK.search(text) else 0


def _with_sibling_prose(units: list[Block], labels: list[str], prose: list[int], words: list[int],
                        probs: list[float]) -> list[str]:
    """``labels`` with every unit that holds a sentence (:func:`_sentence_words`) kept
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
    byline, a dateline) is kept too when the CRF gives it :data:`PARAGRAPH_FLOOR`."""
    out = list(labels)
    n = len(units)
    parents = [u.source.getparent() if u.source is not None else None for u in units]
    # a parent holding a kept sentence holds the article: its other sentences are kept
    # too, across the short lines between them ("Related: ...", an ad label), and so are
    # its paragraphs the CRF gives some chance (a byline)
    with_prose = {id(parents[i]) for i in range(n) if out[i] != "other" and prose[i] and parents[i] is not None}
    for i in range(n):
        if out[i] == "other" and parents[i] is not None and id(parents[i]) in with_prose and (
                prose[i] or (units[i].kind == "paragraph" and probs[i] >= PARAGRAPH_FLOOR)):
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


def _with_headings(units: list[Block], labels: list[str], texts: list[str], prose: list[int],
                   probs: list[float], cues: re.Pattern) -> list[str]:
    """``labels`` with a heading kept when the unit right after it is kept and holds a
    sentence, the CRF gives the heading :data:`HEADING_FLOOR` and it does not start with
    a teaser cue ("Related stories": :func:`_teaser_cues`): the heading of a section of
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


def _with_groups(units: list[Block], labels: list[str], probs: list[float],
                 spans: list[tuple[int, int]]) -> list[str]:
    """``labels`` with every unit of a list or table (nested lists and tables included)
    kept when the unit before it is kept and introduces it (a heading, or a clause
    ending with a colon), or when the units on both sides of it are kept and one of its
    units has a content probability of :data:`GROUP_FLOOR` or more (a share bar between
    the byline and the body has none): a data table
    or list inside an article is part of it, though its short cells and items look
    like navigation to the CRF. On the held-out sites: CLEANEVAL final 0.931 -> 0.930,
    the other sets unchanged; Wikipedia table facts kept (``benchmarks/table_facts.py``)
    39.9% -> 56.8% (98.3% with :func:`_with_data_tables`). The probability floor
    (:data:`GROUP_FLOOR`): modern full gold 0.932 -> 0.938 (a BBC share bar of 28
    links between the date and the body), the other sets unchanged."""
    out = list(labels)
    n = len(units)
    for i, j in spans:
        if i > 0 and out[i - 1] != "other":
            if _introduces(units[i - 1], units[i - 1].text()) or (j < n and out[j] != "other" and max(probs[i:j]) >= GROUP_FLOOR):
                out[i:j] = [lab if lab != "other" else "list" if units[k].kind in _LIST_KINDS else "paragraph"
                            for k, lab in enumerate(out[i:j], i)]
    return out


def _group_spans(units: list[Block]) -> Iterator[tuple[int, int]]:
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


def _with_introductions(units: list[Block], labels: list[str], texts: list[str], prose: list[int],
                        probs: list[float], cues: re.Pattern, spans: list[tuple[int, int]]) -> list[str]:
    """``labels`` with the introduction of a kept list or table kept: the unit right
    before a list or table one of whose units is kept (after :func:`_with_groups` and the
    data tables), when it is a heading, holds a sentence or ends with a colon ("The party
    standings were as follows:"), is not itself in a list or table, does not start with
    a teaser cue ("Related stories": :func:`_teaser_cues`) and the CRF gives it
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


def _with_captions(units: list[Block], labels: list[str], own: list[list[str]]) -> list[str]:
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
        if units[i].kind == "caption" or not _FIGURE.isdisjoint(own[i]):
            out[i] = "paragraph"
    return out


def _without(labels: list[str], own: list[list[str]], marks: frozenset) -> list[str]:
    """``labels`` with every unit that has one of the features ``marks`` dropped:
    :data:`_TITLE` (``[boilerplate] keep_title = false``) or :data:`_FIGURE`
    (``keep_captions = false``)."""
    return [lab if marks.isdisjoint(f) else "other" for lab, f in zip(labels, own)]


#: the feature of the page's headline (``features.py``, the ``page`` family)
_TITLE = frozenset({"title.at"})
#: the features of a block inside a figure (``features.py``)
_FIGURE = frozenset({"tag.figure", "tag.figcaption", "container.figure", "container.figcaption"})
#: how far before a caption the article's kept text may end (:func:`_with_captions`)
CAPTION_REACH = 10


def _without_comments(labels: list[str], prose: list[int], comments: list[bool]) -> list[str]:
    """``labels`` with the units inside containers named for comments (``comment``,
    ``reply``, ``discussion``, ``disqus`` ...: ``features.VOCABULARY``) dropped, when the
    units kept outside them hold an article (:data:`ARTICLE_WORDS` words of prose or
    more): readers' comments under an article are not its text. The CRF learnt both
    conventions (CLEANEVAL's golds keep comments, Dragnet's leave them out); on the
    held-out sites Dragnet 0.915 -> 0.931 (with 100 words: 0.928), CLEANEVAL final
    0.926 -> 0.924, the others unchanged. A forum whose replies sit in such containers
    keeps its first post only: ``[boilerplate] drop_comments = false`` keeps them."""
    outside = sum(w for w, lab, c in zip(prose, labels, comments) if lab != "other" and not c)
    if outside < ARTICLE_WORDS:
        return labels
    return [lab if not c else "other" for lab, c in zip(labels, comments)]


@lru_cache(maxsize=8)
def _byline_cues(rules: str) -> re.Pattern:
    """The words of ``rules/byline.txt`` as one pattern searched in a unit's text
    (case-insensitive, whole words)."""
    words = sorted(lines(rules, "", "byline.txt"), key=len, reverse=True)
    if not words:
        return re.compile("(?!)")
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(re.escape(w) for w in words) + r")(?![^\W\d_])", re.I)


@lru_cache(maxsize=8)
def _teaser_cues(rules: str) -> re.Pattern:
    """The cues of ``rules/related.txt`` as one pattern matched at the start of a unit's
    lower-cased text (after bullets and punctuation), followed by a non-letter."""
    cues = sorted(lines(rules, "", "related.txt"), key=len, reverse=True)
    if not cues:
        return re.compile("(?!)")
    return re.compile(r"[\W\d_]*(?:" + "|".join(re.escape(c.lower()) for c in cues) + r")(?![^\W\d_])")


def _without_teasers(units: list[Block], labels: list[str], texts: list[str], cues: re.Pattern) -> list[str]:
    """``labels`` with the kept teaser lines dropped: a unit whose text starts with a cue of
    ``rules/related.txt`` ("Related: <headline>", "READ MORE: ...", "Lire aussi ...")
    and has :data:`TEASER_LINKS` of its letters in links (``lists.link_letters``, the
    lists step's count of an item's link letters) is a link to another article,
    even inside the article's parent (where :func:`_with_sibling_prose` keeps its
    sentences). Of the units of the 171 hand-annotated recent pages, 13 start with a cue,
    all outside the gold. On the held-out sites (CLEANEVAL final / Dragnet / Readability /
    modern full / modern hand-annotated, must-keep / must-drop): 0.926 / 0.929 / 0.944 /
    0.939 / 0.947, 95.5% / 94.5% -> the same but 0.948, 95.5% / 94.9% (six teasers of
    five held-out sites fewer, no must-keep snippet lost)."""
    out = list(labels)
    for i, (u, lab, text) in enumerate(zip(units, labels, texts)):
        if lab != "other" and u.source is not None and cues.match(text.lower()) \
                and link_letters(u.source).share() >= TEASER_LINKS:
            out[i] = "other"
    return out


def _without_link_lines(units: list[Block], labels: list[str], texts: list[str],
                        prose: list[int]) -> list[str]:
    """``labels`` with in-article teasers dropped: a kept paragraph (or text directly in a
    ``div``) of :data:`LINK_LINE_WORDS` words or more, not ending with a full stop or an
    exclamation mark, whose letters are all in links (:data:`LINK_LINE_SHARE`;
    ``lists.link_letters``) and whose nearest kept units before and after it hold
    sentences that are not links: a headline linking to another article set between two
    paragraphs of this one ("Standing Rock protest: North Dakota governor orders immediate
    evacuation"), which the rules that keep a paragraph beside kept prose keep. A run of
    link lines (a list of deals, of references) is not between prose, so it stays; a
    linked sentence ("Check out Serve.gov to find a service opportunity in your area.")
    and a linked name stay too. Of the units of the 171 hand-annotated recent pages, it
    drops 13, 12 of them outside the gold. On the held-out sites (CLEANEVAL final /
    Dragnet / Readability / modern full / modern hand-annotated, must-keep / must-drop):
    0.927 / 0.929 / 0.940 / 0.949 / 0.950, 95.5% / 94.7% -> 0.927 / 0.929 / 0.940 /
    0.948 / 0.950, 95.5% / 95.5% (modern full: newspaper4k's gold of a CNN page keeps
    its in-article teasers)."""
    kept = [i for i, lab in enumerate(labels) if lab != "other"]
    links: dict[int, float] = {}

    def share(i: int) -> float:
        if i not in links:
            src = units[i].source
            links[i] = link_letters(src).share() if src is not None else 0.0
        return links[i]

    out = list(labels)
    for k in range(1, len(kept) - 1):
        before, i, after = kept[k - 1], kept[k], kept[k + 1]
        if (units[i].kind in ("paragraph", "block") and prose[before] and prose[after]
                and len(texts[i].split()) >= LINK_LINE_WORDS and not texts[i].rstrip().endswith(_STOPS)
                and share(i) >= LINK_LINE_SHARE and share(before) < 0.5 and share(after) < 0.5):
            out[i] = "other"
    return out


def _without_datelines(units: list[Block], labels: list[str], texts: list[str], byline: re.Pattern) -> list[str]:
    """``labels`` with kept datelines dropped: a paragraph (or text directly in a ``div``)
    of at most :data:`DATELINE_WORDS` words, not ending a sentence (:data:`_STOPS`), that
    holds a time of day and a year ("Dec. 20, 2016, 12:44 PM UTC / Updated ...", "By
    Kathy Wise Published in FrontBurner December 14, 2016 2:24 pm", "Written by Michael
    Larabel in Valve on 1 June 2019 at 08:34 PM EDT. 51 Comments"): when a page was
    published is metadata (``metadata.py`` reads it), not text of the article. A line
    with a word of ``byline`` (``rules/byline.txt``: "by", "par", "von" ...) stays: a
    byline with its date is part of a post for some golds (Dragnet's keep 140 of the 170
    such lines of its held-out pages; the hand-annotated recent pages drop them).

    On the 171 hand-annotated pages it drops 10 units, none in the gold (with the bylines:
    14, none in the gold); on Dragnet's held-out pages 55, 47 in its gold ("Thursday,
    October 25, 2012 at 9:15AM" over a post). On the held-out sites (CLEANEVAL final /
    Dragnet / Readability / modern full / modern hand-annotated, must-keep / must-drop):
    0.927 / 0.929 / 0.940 / 0.948 / 0.950, 95.5% / 95.5% -> 0.927 / 0.928 / 0.940 /
    0.953 / 0.951, 95.5% / 95.7%; with the bylines dropped too, Dragnet 0.927 (under
    readability-lxml's 0.927), modern 0.953, hand-annotated 0.952, must-drop 96.0%."""
    out = list(labels)
    for i, (u, lab, text) in enumerate(zip(units, labels, texts)):
        # the word count first (split at most DATELINE_WORDS times: more words leave one
        # item more), the searches only in short lines
        if (lab != "other" and u.kind in ("paragraph", "block")
                and len(text.split(maxsplit=DATELINE_WORDS)) <= DATELINE_WORDS
                and _TIME_OF_DAY.search(text) and _YEAR.search(text)
                and not text.rstrip().endswith(_STOPS) and not byline.search(text)):
            out[i] = "other"
    return out


def _with_data_tables(units: list[Block], labels: list[str], data: set) -> list[str]:
    """``labels`` with every cell of a data table kept (``[boilerplate] keep_data_tables``)."""
    if not data:
        return labels
    return [lab if lab != "other" or u.group not in data else "paragraph" for u, lab in zip(units, labels)]


def _dropped_tables(units: list[Block], labels: list[str]) -> set:
    """The tables that are the group of a unit labelled ``other``: the only ones
    :func:`_with_data_tables` can keep, and so the only ones to classify (none on most
    pages)."""
    return {u.group for u, lab in zip(units, labels) if lab == "other" and u.group is not None
            and u.group.tag == TABLE}


def _tables_only(doc: Document, tables: set) -> Document:
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
    """Is ``element`` (a unit's list or table) ``group`` or inside it?"""
    while element is not None:
        if element is group:
            return True
        element = element.getparent()
    return False


_LIST_KINDS = frozenset({"list_item", "term", "definition"})


def _plausible(units: list[Block], labels: list[str], probs: list[float], prose: list[int],
               log: PageLog, prose_region: Callable[[], list[bool] | None]) -> list[str]:
    """``labels``, or better ones when what they keep cannot be a page's main text
    (each override logged as :data:`FALLBACK` with its reason; ``prose``: each unit's
    :func:`_sentence_words`; ``prose_region``: the units' ``features.prose_region``, called
    only when needed)."""
    total = sum(prose)
    kept = sum(w for w, lab in zip(prose, labels) if lab != "other")
    if total and (kept >= MIN_PROSE_SHARE * total or kept >= ENOUGH_PROSE):
        return labels
    anything = any(lab != "other" for lab in labels)
    region = prose_region() if total else None  # readers' comments left out
    if region is None or not any(w for w, r in zip(prose, region) if r):
        # no prose, or all of it in comments: what the labels keep (a short post above a
        # long thread), else the likeliest blocks; never every block
        if anything or not any(word_count(u.text()) for u in units):
            return labels
        best = max(probs)
        out = [lab if lab != "other" else "paragraph" if p >= best * KEEP_SHARE else "other"
               for lab, p in zip(labels, probs)]
        log.add("gate", FALLBACK, f"all-other: every block labelled other, no text region; kept the "
                                  f"{len(out) - out.count('other')} likeliest (content probability "
                                  f"{best:.2f} at most)")
        return out
    reason = "no-sentence" if not kept else "low-share"
    out = [lab if lab != "other" or not r or not (w or p >= REGION_FLOOR) else "paragraph"
           for lab, r, w, p in zip(labels, region, prose, probs)]
    added = sum(1 for a, b in zip(labels, out) if a != b)
    log.add("gate", FALLBACK, f"{reason}: {kept / total:.0%} of the page's prose kept; kept the densest "
                              f"text region too ({added} blocks)")
    return out
