"""The hand-annotated gold of ``corpora/boilerplate/gold/`` (``corpora/boilerplate/annotate.py``):
one annotation per gold, for pages the shared corpus has no gold for, and texts that
are the page's own (training aligns them back to the page's units)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kitten.config import Config
from kitten.evaluation.overlap import tokenize
from kitten.train.boilerplate import ANNOTATED, page_units

ROOT = Path(__file__).resolve().parent.parent
ANNOTATIONS = ROOT / "corpora" / "boilerplate" / "annotations"
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)
sys.path.insert(0, str(ROOT / "corpora" / "boilerplate"))

from annotate import parse_ranges  # noqa: E402


def _golds() -> list[Path]:
    return sorted(ANNOTATED.glob("*/*.txt"))


def test_every_gold_has_its_annotation_and_the_reverse():
    golds = {(p.parent.name, p.name) for p in _golds()}
    notes = {(p.parent.name, p.name) for p in ANNOTATIONS.glob("*/*.txt")}
    assert golds and golds == notes


def test_annotations_parse_and_empty_golds_say_why():
    for path in ANNOTATIONS.glob("*/*.txt"):
        text = path.read_text(encoding="utf-8")
        numbers = parse_ranges(text)
        if not numbers:  # a page without main text: the annotator's note says so
            assert "#" in text, path
        gold = ANNOTATED / path.parent.name / path.name
        assert bool(numbers) == bool(gold.read_text(encoding="utf-8").strip()), path


@pytest.mark.skipif(not (CORPORA / "modern" / "html").is_dir(), reason=ABSENT)
def test_golds_are_pages_without_a_shared_gold_and_their_text_is_the_pages():
    config = Config()
    for gold in _golds()[::10]:  # every 10th page: the check reads the page through the structure step
        corpus = gold.parent.name
        page = CORPORA / corpus / "html" / (gold.stem + ".html")
        assert page.is_file(), page
        assert not (CORPORA / corpus / "gold" / gold.name).is_file(), gold
        text = gold.read_text(encoding="utf-8")
        if not text.strip():
            continue
        units = page_units(page.read_bytes(), config)
        texts = {" ".join(u.text().split()) for u in units}
        paragraphs = [p for p in text.split("\n\n") if p.strip()]
        found = sum(p.strip() in texts for p in paragraphs)
        assert found >= 0.95 * len(paragraphs), (gold, found, len(paragraphs))
        assert tokenize(text)
