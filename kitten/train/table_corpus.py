"""The annotated table corpus: labels of leaf tables and of their cells, found again in pages.

Each label is keyed by the page (path under the corpora root, e.g.
``cleaneval-final/html/12.html``) and the locator of the table in Kitten's XHTML, and
carries a fingerprint of the table's text, so a label whose table changed (a different
normalizer, a different page) is detected instead of silently applied to something else.

Files (JSON lines, one record per table, in ``corpora/tables/``):

* ``tables.jsonl``: ``{"page", "locator", "fingerprint", "label": "data"|"layout",
  "suggested", "reviewer", "note"}``
* ``cells.jsonl``: ``{"page", "locator", "fingerprint", "cells": [[row, col, type], ...],
  "changed", "reviewer", "note"}`` (one entry per cell, at its top-left slot; ``changed``:
  how many cells the reviewer changed from the suggestion)
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from kitten.config import Config
from kitten.document import Document
from kitten.page import Page
from kitten.tables.collect import TableBlocks, fill_text, leaf_tables, table_text
from kitten.tables.grid import Grid, GridTooLarge, build_grid

CELL_TYPES = ("header", "data", "neutral", "thema", "finalImportant", "finalNonImportant")
CODES = {"h": "header", "d": "data", "n": "neutral", "t": "thema", "i": "finalImportant",
         "f": "finalNonImportant"}
CODE_OF = {v: k for k, v in CODES.items()}
TABLE_LABELS = ("data", "layout")


def fingerprint(grid: Grid) -> str:
    return hashlib.sha1(table_text(grid).encode("utf-8")).hexdigest()[:12]


@dataclass
class PageTable:
    """A leaf table of a corpus page, ready for labelling, training or checking."""

    page: str
    locator: str
    fingerprint: str
    grid: Grid
    blocks: TableBlocks
    doc: Document


def page_document(path: Path, config: Config) -> Document | None:
    """Run the pipeline up to the structure step on a page file."""
    from kitten.pipeline import run_page

    result = run_page(Page(data=path.read_bytes(), name=str(path)), config, "text")
    return result.products.get("structure")


def page_tables(path: Path, page: str, config: Config | None = None) -> Iterator[PageTable]:
    """The leaf tables of one page (those without a grid within the bounds are skipped)."""
    config = config or Config()
    doc = page_document(path, config)
    if doc is None:
        return
    t = config.tables
    for tb in leaf_tables(doc):
        try:
            grid = build_grid(tb.element, t.max_rows, t.max_columns, t.max_span)
        except GridTooLarge:
            continue
        fill_text(grid, tb)
        yield PageTable(page, doc.locate(tb.element) or "", fingerprint(grid), grid, tb, doc)


def read_jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_jsonl(path: Path, records: list[dict]) -> None:
    """Write records sorted by (page, locator), one per line (stable diffs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    records = sorted(records, key=lambda r: (r["page"], r["locator"]))
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    tmp.replace(path)


def labelled_tables(corpora: Path, records: list[dict], config: Config | None = None,
                    stale: list | None = None) -> Iterator[tuple[dict, PageTable]]:
    """Each labelled record with its table found again in its page (fingerprints checked;
    records whose table is missing or changed go to ``stale``). Records marked
    ``retired`` (their table is no longer read: corpora/tables/refresh_fingerprints.py)
    are skipped."""
    by_page: dict[str, list[dict]] = {}
    for r in records:
        if not r.get("retired"):
            by_page.setdefault(r["page"], []).append(r)
    for page in sorted(by_page):
        path = corpora / page
        tables = {t.locator: t for t in page_tables(path, page, config)} if path.is_file() else {}
        for r in by_page[page]:
            t = tables.get(r["locator"])
            if t is None or t.fingerprint != r["fingerprint"]:
                if stale is not None:
                    stale.append(r)
                continue
            yield r, t
