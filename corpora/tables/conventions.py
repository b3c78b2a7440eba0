"""Labelling conventions applied over cells.jsonl after review (run once per new batch).

Reviewers of different batches drew two lines differently; the README decides them and
this script applies the decision to every record, noting in each record what changed
(the rule is ``kitten.tables.heuristics.first_column_type``, which the cell typing also
applies after the classifier, there with two data cells beside the cell, not one):

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

from kitten.train.table_corpus import labelled_tables, read_jsonl, write_jsonl
from kitten.tables.heuristics import first_column_type

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / ".cache" / "corpora"


#: the passes, in order: (name noted in the records, the cells' tag)
PASSES = (("first_column_data", "td"), ("first_column_th", "th"))


def main(apply: bool) -> int:
    path = HERE / "cells.jsonl"
    records = read_jsonl(path)
    total = 0
    for rec, table in labelled_tables(CORPORA, records):
        grid = table.grid
        types = {(r, c): t for r, c, t in rec["cells"]}
        for cell in grid.cells:
            cell.type = types[(cell.row, cell.col)]
        for name, tag in PASSES:
            n = 0
            for cell in grid.cells:
                new = first_column_type(grid, cell, least=1) if cell.tag == tag else None
                if new:
                    cell.type = new  # later cells see it, as the reviewers' labels would
                    n += 1
            if n:
                total += n
                print(f"{rec['page']} {rec['locator']}: {name} x{n}")
                rec["note"] = f"{rec.get('note', '')} [convention {name}: {n} cells]".strip()
        typed = {(cell.row, cell.col): cell.type for cell in grid.cells}
        rec["cells"] = [[r, c, typed[(r, c)]] for r, c, _ in rec["cells"]]
    print(f"{total} cells to change")
    if apply and total:
        write_jsonl(path, records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main("--apply" in sys.argv))
