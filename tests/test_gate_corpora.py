"""The boilerplate gate on every shared page that has a gold: never an empty output.

Marked ``corpus`` and ``slow`` (about a minute on 2 cores); skips without the shared
corpora (``.cache/corpora``) or python-crfsuite. A page whose gold has text must get
text from ``kitten extract --boilerplate crf``; the only pages allowed to come out
empty are those whose ungated output is empty too (a page with no text at all, such
as Dragnet R427: 156 bytes of markup, while its gold holds an article).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kitten.batch import run
from kitten.config import Config
from kitten.engine import Job
from kitten.evaluation.gold import corpus_pages
from kitten.io.records import Record
from kitten.io.sinks import MemorySink

ROOT = Path(__file__).resolve().parent.parent
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)
NAMES = ("cleaneval-dev", "cleaneval-final", "dragnet", "cleanportaleval", "readability", "modern")

pytestmark = [
    pytest.mark.corpus, pytest.mark.slow,
    pytest.mark.skipif(not all((CORPORA / n / "html").is_dir() for n in NAMES),
                       reason=ABSENT),
]


def _texts(items: list[Record], config: Config) -> dict[str, str]:
    sink = MemorySink()
    run(items, Job("text", config), sink, jobs=2)
    return {o.record.id: o.output or "" for o in sink.outcomes}


def test_no_empty_output_where_the_gold_has_text() -> None:
    pytest.importorskip("pycrfsuite")
    items = [Record(f"{corpus}/{name}", Path(corpus) / name, str(path), path=path)
             for corpus in NAMES for name, path, gold in corpus_pages(CORPORA, corpus)
             if gold is not None and gold.text.strip()]
    assert len(items) > 2000
    gated = _texts(items, Config.from_dict({"boilerplate": {"method": "crf"}}))
    empty = [rel for rel, text in gated.items() if not text.strip()]
    ungated = _texts([i for i in items if i.id in empty], Config())
    assert [rel for rel in empty if ungated[rel].strip()] == []  # every empty page is empty without the gate too
    assert len(empty) <= 3, empty
