"""Measuring Kitten against the shared corpora (GUIDE section 3).

- :mod:`kitten.evaluation.gold`: readers of the gold standards (CLEANEVAL,
  Dragnet, Readability) into one :class:`~kitten.evaluation.gold.Gold` shape;
- :mod:`kitten.evaluation.overlap`: the SOW token-sequence overlap (P, R, F1 and
  the boundary cases), with an exact fast replacement of difflib's matching blocks;
- :mod:`kitten.evaluation.segmentation`: missed and false sentence boundaries and
  the share of tokens in long sentences, against the gold's blocks, and the floor.
- :mod:`kitten.evaluation.report`: ``kitten eval``, output folders scored against a
  gold folder, one table row per system; :mod:`kitten.evaluation.histogram`: the
  per-document histograms as SVG.

Nothing here is used by the conversion pipeline. The segmentation metric needs
pysbd (the ``bench`` extra), imported only when a splitter is made.
"""
from __future__ import annotations

from kitten.evaluation.gold import Gold, GoldBlock, corpus_pages, decode_gold, read_gold
from kitten.evaluation.overlap import OverlapScore, OverlapSummary, overlap, summarize, tokenize
from kitten.evaluation.segmentation import (
    SegmentationScore,
    SegmentationSummary,
    floor_text,
    prepare_gold,
    pysbd_splitter,
    score_output,
    score_segmentation,
    summarize_segmentation,
)

__all__ = [
    "Gold",
    "GoldBlock",
    "corpus_pages",
    "decode_gold",
    "read_gold",
    "OverlapScore",
    "OverlapSummary",
    "overlap",
    "summarize",
    "tokenize",
    "SegmentationScore",
    "SegmentationSummary",
    "floor_text",
    "prepare_gold",
    "pysbd_splitter",
    "score_output",
    "score_segmentation",
    "summarize_segmentation",
]
