"""``kitten annotate tables``: review files out and back in (hand-made page)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from kitten.train.annotate_tables import run
from kitten.train.table_corpus import page_tables, write_jsonl

PAGE = ("<html><body><p>Prices of the shop.</p><table>"
        "<tr><td>Item</td><td>Price</td></tr><tr><td>Tea</td><td>3.50</td></tr>"
        "<tr><td>Coffee</td><td>4.20</td></tr><tr><td>Cake</td><td>5.00</td></tr></table></body></html>")


def _args(corpora: Path, labels: Path, **kw) -> argparse.Namespace:
    base = dict(corpora=str(corpora), labels=str(labels), cells=False, export=None, import_file=None,
                reviewer="me", sample=0, seed=13, only_suggested=None, without_th=False, max_rows=40,
                relabel=False, paths=[])
    base.update(kw)
    return argparse.Namespace(**base)


def test_a_cell_review_keeps_the_table_review(tmp_path: Path) -> None:
    """The cells file carries the recorded label and note (not the rule's suggestion, here
    layout: no th, few numbers), so importing it leaves the table's record as it was."""
    corpora, labels = tmp_path / "corpora", tmp_path / "labels"
    page = corpora / "shop" / "html" / "1.html"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE, encoding="utf-8")
    (table,) = list(page_tables(page, "shop/html/1.html"))
    record = {"page": table.page, "locator": table.locator, "fingerprint": table.fingerprint, "label": "data",
              "suggested": "layout", "reviewer": "first", "note": "a price list"}
    labels.mkdir()
    write_jsonl(labels / "tables.jsonl", [record])
    write_jsonl(labels / "cells.jsonl", [])
    review = tmp_path / "cells.txt"
    assert run(_args(corpora, labels, cells=True, export=str(review))) == 0
    text = review.read_text(encoding="utf-8")
    assert "label: data" in text and "note: a price list" in text
    assert run(_args(corpora, labels, import_file=str(review), reviewer="second")) == 0
    tables = [json.loads(line) for line in (labels / "tables.jsonl").read_text().splitlines()]
    cells = [json.loads(line) for line in (labels / "cells.jsonl").read_text().splitlines()]
    assert tables == [record]
    assert len(cells) == 1 and len(cells[0]["cells"]) == 8 and cells[0]["reviewer"] == "second"


def test_a_missing_path_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    assert run(_args(tmp_path, labels, paths=[str(tmp_path / "nowhere")], export=str(tmp_path / "x.txt"))) == 2
    assert "no such page or folder" in capsys.readouterr().err
