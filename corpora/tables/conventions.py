"""Labelling conventions applied over cells.jsonl after review (run once per new batch).

Reviewers of different batches drew two lines differently; the README decides them and
this script applies the decision to every record, noting in each record what changed:

1. ``first-column-data``: a first-column ``td`` (one column wide) in a record row, under
   its own column header (a header row above: no data, at least two headers), is data
   ("Year | Deaths" over "2012 | 794": 2012 is data).
2. ``first-column-th``: a first-column ``th`` (one column wide) in a record row is a
   header (episode numbers written as ``th`` are row headers).

    python corpora/tables/conventions.py          # show what would change
    python corpora/tables/conventions.py --apply  # rewrite cells.jsonl
"""
from __future__ import annotations

import sys
from pathlib import Path

from kitten.tables.corpus import labelled_tables, read_jsonl, write_jsonl

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / ".cache" / "corpora"


def _record_row(grid, types, cell) -> bool:
    """The cell's row holds data besides the cell."""
    return any(types[(x.row, x.col)] == "data" for x in grid.row_cells(cell.row) if x is not cell)


def _header_above(grid, types, cell):
    """The cell of column 0 in the nearest header row above (no data, two headers or more)."""
    for r in range(cell.row - 1, -1, -1):
        row = grid.row_cells(r)
        if any(types[(x.row, x.col)] == "data" for x in row):
            continue  # a record row (or a label/value row such as Majority / Turnout)
        if sum(1 for x in row if x.text and types[(x.row, x.col)] == "header") < 2:
            continue  # a label whose value is empty ("Snouts | (image)"), not a header row
        top = grid.slots[r][0]
        return top if top is not cell else None
    return None


def first_column_data(grid, types, cell) -> str | None:
    if cell.tag == "td" and types[(cell.row, cell.col)] == "header" and _record_row(grid, types, cell):
        top = _header_above(grid, types, cell)
        if top is not None and top.text and types[(top.row, top.col)] == "header":
            return "data"
    return None


def first_column_th(grid, types, cell) -> str | None:
    if cell.tag == "th" and types[(cell.row, cell.col)] == "data" and _record_row(grid, types, cell):
        return "header"
    return None


PASSES = (first_column_data, first_column_th)


def main(apply: bool) -> int:
    path = HERE / "cells.jsonl"
    records = read_jsonl(path)
    total = 0
    for rec, table in labelled_tables(CORPORA, records):
        types = {(r, c): t for r, c, t in rec["cells"]}
        for rule in PASSES:
            n = 0
            for cell in table.grid.cells:
                if cell.col == 0 and cell.colspan == 1 and cell.text:
                    new = rule(table.grid, types, cell)
                    if new:
                        types[(cell.row, cell.col)] = new
                        n += 1
            if n:
                total += n
                print(f"{rec['page']} {rec['locator']}: {rule.__name__} x{n}")
                rec["note"] = f"{rec.get('note', '')} [convention {rule.__name__}: {n} cells]".strip()
        rec["cells"] = [[r, c, types[(r, c)]] for r, c, _ in rec["cells"]]
    print(f"{total} cells to change")
    if apply and total:
        write_jsonl(path, records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main("--apply" in sys.argv))
