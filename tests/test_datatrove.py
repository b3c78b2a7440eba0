"""Kitten as a datatrove extractor step: inside a ``LocalPipelineExecutor`` run over a
WARC read by datatrove's own ``WarcReader``, it gives ``kitten extract``'s text, with
Kitten's status and language in the metadata. Skipped without the ``datatrove`` extra."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kitten.cli import main
from kitten.io.warc import warc_record

pytest.importorskip("datatrove")
pytest.importorskip("warcio")
pytest.importorskip("cchardet")
pytest.importorskip("magic")

from _corpora import CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)

CORPUS = CORPORA / "cleaneval-final" / "html"


def _utf8_pages(n: int) -> list[bytes]:
    """UTF-8 pages (datatrove's reader decodes UTF-8 first; other encodings it guesses)."""
    pages = []
    if CORPUS.is_dir():
        for p in sorted(CORPUS.iterdir()):
            data = p.read_bytes()
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            pages.append(data)
            if len(pages) == n:
                return pages
    return pages + [f"<html><head><title>Page {i}</title></head><body><h1>Café {i}</h1><p>Le café de la gare "
                    f"ouvre à {i} heures. Il ferme tard.</p><ul><li>Un</li><li>Deux</li></ul></body></html>".encode()
                    for i in range(n - len(pages))]


def test_datatrove_step_gives_kittens_text(tmp_path: Path, capsys) -> None:
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader

    from kitten.datatrove import KittenExtractor

    src = tmp_path / "warc"
    src.mkdir()
    pages = _utf8_pages(20)
    (src / "crawl.warc.gz").write_bytes(b"".join(
        warc_record(f"https://example.org/{i}", page, http_headers={"Content-Type": "text/html; charset=utf-8"})
        for i, page in enumerate(pages)))
    docs = []

    def collect(data, rank: int = 0, world_size: int = 1):  # noqa: ARG001 - a datatrove step
        for doc in data:
            docs.append({"text": doc.text, "metadata": dict(doc.metadata)})
            yield doc

    LocalPipelineExecutor(pipeline=[WarcReader(str(src)), KittenExtractor(timeout=60), collect],
                          tasks=1, logging_dir=str(tmp_path / "logs")).run()
    assert main(["extract", str(src), "--format", "jsonl", "-o", str(tmp_path / "k.jsonl"), "-q"]) == 0
    capsys.readouterr()
    kitten = {r["url"]: r for r in map(json.loads, (tmp_path / "k.jsonl").read_text(encoding="utf-8").splitlines())}
    assert len(docs) == sum(1 for r in kitten.values() if r["text"]) >= 18
    for doc in docs:
        record = kitten[doc["metadata"]["url"]]
        assert doc["text"] == record["text"]
        assert doc["metadata"]["kitten_status"] == record["status"] and doc["metadata"]["language"] == record["lang"]
