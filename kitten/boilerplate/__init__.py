"""Gate step (optional): a CRF labels each block, and boilerplate blocks are dropped.

Runs between the structure and the tables steps when ``[boilerplate] method = "crf"``
(``kitten extract --boilerplate crf``). After Marek, Pecina and Spousta's "Victor"
(CLEANEVAL 2007): cleaning as sequence labelling. Each block of the structure step gets
a label: ``header``, ``paragraph``, ``list``, ``continuation`` (goes on with the
previous content block) or ``other`` (navigation, footers, ads ...), from a
linear-chain CRF (``crf.py``, python-crfsuite) over the features of ``features.py``.

A block is kept when its probability of being content (one minus the CRF's marginal
probability of ``other``) is at least the page's threshold (``thresholds.py``:
``[boilerplate] keep_threshold``, lower on the kinds ``keep_thresholds`` names and on
pages the CRF is unsure of); it then takes its likeliest content label. The kept blocks stay as they were (kinds, groups,
sources), so the tables, lists and segmentation steps read them as usual. With the unit
rules the model was trained with (``units.py``: ``<br><br>`` paragraphs, ``<pre>``
lines, image alt texts), the CRF labels those units and a block keeps the text of its
kept units.

Then rules the CRF's view of one block at a time misses, each measured on the held-out
sites: a prose block whose parent holds a kept prose block, beside a kept block of the
same parent, or before a kept prose block (across one short line) is kept
(:func:`with_sibling_prose`: an article's lead), and so is a sentence inside the
article's body between two paragraphs the CRF is fairly sure of
(:func:`with_body_prose`); a list or table after a kept heading
or clause ending with a colon, or between two kept blocks when the CRF gives one of its
blocks some chance, is kept (:func:`with_groups`); a heading, sentence or
clause ending with a colon right before a kept list or table is kept
(:func:`with_introductions`); a figure's caption between an
article's kept headline and body is kept (:func:`with_captions`), and so is the page's
headline above a kept article (:func:`with_headline`); every data table is
kept whole (:func:`with_data_tables`,
``[boilerplate] keep_data_tables``; the tables step's own classifier decides); readers'
comments under a kept article are dropped (:func:`without_comments`,
``[boilerplate] drop_comments``), and so are the page's footer, writers' author boxes,
cookie settings dialogs, buttons ("Add to cart") and sections of teasers ("You may
also like", not on documentation pages): :func:`without_footers`,
:func:`without_author_boxes`, :func:`without_consent_dialogs`, :func:`without_buttons`,
:func:`without_related_sections`); the
page's headline and its figure captions, which
golds disagree on, are kept unless ``[boilerplate] keep_title`` or ``keep_captions`` is
false (:func:`without`). The
pipeline reads a page without the gate when the later steps leave no text of what the
gate kept (a kept link list the lists step removes), logged the same way.

Never an empty page, never a silent loss (:func:`plausible`): when what the labels
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
from functools import partial
from typing import NamedTuple, Sequence

from kitten.boilerplate.crf import load_model, model_path
from kitten.boilerplate.drop_rules import (
    SHOP_PAGES,
    byline_cues,
    teaser_cues,
    without,
    without_author_boxes,
    without_buttons,
    without_comments,
    without_consent_dialogs,
    without_datelines,
    without_footers,
    without_link_lines,
    without_related_sections,
    without_repeats,
    without_teasers,
)
from kitten.boilerplate.fallback import FALLBACK, plausible
from kitten.boilerplate.features import COMMENTS, own_features_and_words
from kitten.boilerplate.keep_rules import (
    LIST_PAGES,
    code_units,
    dropped_tables,
    group_spans,
    tables_only,
    with_body_prose,
    with_captions,
    with_code,
    with_data_tables,
    with_following_prose,
    with_groups,
    with_headings,
    with_headline,
    with_introductions,
    with_items,
    with_sibling_prose,
)
from kitten.boilerplate.reading import FIGURE, TITLE, sentence_words
from kitten.boilerplate.thresholds import page_threshold
from kitten.boilerplate.units import crf_units, kept_blocks
from kitten.config import BoilerplateConfig, TablesConfig
from kitten.document import Block, Document, Locators
from kitten.log import PageLog
from kitten.tables import data_tables

__all__ = ["gate", "Labelled", "FALLBACK"]


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
         rules: str = "", tables: TablesConfig | None = None,
         page_type: str | None = None) -> tuple[Document, list[Labelled]]:
    """Label the blocks of ``doc`` and drop the ``other`` ones (``doc`` itself unchanged);
    with ``tables``, the data tables (``kitten.tables.data_tables``) are kept whole;
    ``page_type``: the page's kind (``kitten.page_type``), read by the rules of repeated
    items, comments and repeats."""
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
    prose = [sentence_words(t, n) for t, n in zip(texts, words)]
    article = doc.page_type.probabilities.get("article", 0.0) if doc.page_type is not None else 0.0
    threshold = page_threshold(config, page_type, article, probs, prose)
    labels = [names[content[k]] if p >= threshold else "other" for p, k in zip(probs, likeliest)]
    labels = with_sibling_prose(units, labels, prose, words, probs)
    labels = with_following_prose(labels, prose, words, probs)
    labels = with_body_prose(units, labels, prose, probs)
    cues = teaser_cues(rules)
    spans = list(group_spans(units))  # each list or table of the page, read by two rules
    labels = with_groups(units, with_headings(units, labels, texts, prose, probs, cues), probs, spans)
    if config.keep_captions:
        labels = with_captions(units, labels, own)
    if config.keep_title and page_type == "article":
        labels = with_headline(labels, own, prose)
    if tables is not None and config.keep_data_tables:
        dropped = dropped_tables(units, labels)
        if dropped:
            labels = with_data_tables(units, labels, data_tables(tables_only(doc, dropped), tables, classifiers))
    labels = with_introductions(units, labels, texts, prose, probs, cues, spans)
    if "pre-lines" not in model.settings.units:  # (lines of a <pre> judged one by one otherwise)
        labels = with_code(labels, code_units(units, own), probs)
    if page_type in LIST_PAGES:
        labels = with_items(units, labels, probs, words, log)
    if config.drop_comments and page_type != "forum":
        labels = without_comments(labels, prose, [COMMENTS in f for f in own])
    labels = without_footers(labels, prose, own)
    labels = without_author_boxes(units, labels, prose)
    labels = without_consent_dialogs(units, labels, prose, rules)
    labels = without_teasers(units, labels, texts, cues)
    labels = without_buttons(units, labels, texts)
    if page_type != "documentation":
        labels = without_related_sections(units, labels, texts, prose, cues)
    labels = without_link_lines(units, labels, texts, prose)
    if page_type in SHOP_PAGES:
        labels = without_repeats(labels, texts)
    labels = without_datelines(units, labels, texts, byline_cues(rules))
    if not config.keep_title:
        labels = without(labels, own, TITLE)
    if not config.keep_captions:
        labels = without(labels, own, FIGURE)
    labels = plausible(units, labels, probs, prose, log, region)
    kept = kept_blocks(doc.blocks, units, owner, labels)
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    cut = f" ({len(units)} units)" if len(units) != len(doc.blocks) else ""
    log.add("gate", "labels", ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; {len(doc.blocks) - len(kept)} of {len(doc.blocks)} blocks{cut} dropped")
    labelled = _labelled(units, labels, probs, own)
    return dataclasses.replace(doc, blocks=kept, gate=labelled), labelled
