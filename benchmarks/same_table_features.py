"""Are the table and cell features the same before and after a change? This checkout's
``kitten.tables.features`` against another checkout's, on every labelled table of
``corpora/tables`` (the tables ``kitten train tables`` learns from).

    git worktree add /tmp/before HEAD~1 && (cd /tmp/before && python setup.py build_ext --inplace)
    python benchmarks/same_table_features.py --before /tmp/before

For each table: the view (text types, link cells, markup counts), ``table_features``,
``cell_features`` (each value with its Python type: an int is no float) and
``context_features`` of made-up first-stage probabilities, hashed. Each checkout runs in
its own subprocess (its ``kitten`` first on the path). Prints how many tables and cells
were compared and how many tables differ (the first few named); exit code 1 when any does.

    python benchmarks/same_table_features.py --columns

compares, in this checkout only, on the same tables: ``cell_columns`` (the features of a
big table given feature by feature to the forest in C) expanded by
``model.expand_columns`` against ``cell_features``, value for value (as numbers: C
reads them as doubles), and the cell model's ``predict_columns`` and ``label_columns``
against ``predict_many``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _typed(values: list) -> list[str]:
    """Each value with the name of its type (``1`` and ``1.0`` differ)."""
    return [type(x).__name__ + repr(x) for x in values]


def worker(out: Path, corpora: Path, labels: Path) -> int:
    from kitten.tables.features import cell_features, context_features, table_features, view
    from kitten.train.table_corpus import labelled_tables, read_jsonl

    tables = read_jsonl(labels / "tables.jsonl")
    cells = {(r["page"], r["locator"]): r for r in read_jsonl(labels / "cells.jsonl")}
    table_keys = {(t["page"], t["locator"]) for t in tables}
    records = tables + [r for k, r in cells.items() if k not in table_keys]
    digests, n_cells = {}, 0
    for rec, t in labelled_tables(corpora, records, stale=[]):
        v = view(t.grid)
        xs = cell_features(v, t.blocks.cell_breaks)
        n_cells += len(xs)
        probs = [[x[0] / 100.0, x[1] / 100.0, 0.5] for x in xs]  # any numbers: the same in both
        blob = repr((v.types, v.links, [(m.link_chars, m.images, m.forms, m.emphasis_chars, m.tags) for m in v.marks],
                     _typed(table_features(v, t.blocks.embedded)), [_typed(x) for x in xs],
                     context_features(v, probs, ("header", "data", "other"))))
        digests[f'{rec["page"]} {rec["locator"]}'] = hashlib.sha256(blob.encode()).hexdigest()
    out.write_text(json.dumps({"cells": n_cells, "tables": digests}), encoding="utf-8")
    return 0


def columns(corpora: Path, labels: Path) -> int:
    from kitten.tables import cell_model
    from kitten.tables.features import cell_columns, cell_features, view
    from kitten.tables.model import Model, expand_columns
    from kitten.train.table_corpus import labelled_tables, read_jsonl

    model = cell_model()
    model = model if isinstance(model, Model) else model.stage1
    tables = read_jsonl(labels / "tables.jsonl")
    cells = {(r["page"], r["locator"]): r for r in read_jsonl(labels / "cells.jsonl")}
    table_keys = {(t["page"], t["locator"]) for t in tables}
    records = tables + [r for k, r in cells.items() if k not in table_keys]
    n_tables = n_cells = 0
    differ = []
    for rec, t in labelled_tables(corpora, records, stale=[]):
        v = view(t.grid)
        xs = cell_features(v, t.blocks.cell_breaks)
        cols = cell_columns(v, t.blocks.cell_breaks)
        same = len(cols) == len(xs[0]) if xs else True
        same = same and [[float(x) for x in row] for row in xs] == expand_columns(len(xs), cols)
        expected = model.predict_many(xs)
        same = same and model.predict_columns(len(xs), cols) == expected
        same = same and model.label_columns(len(xs), cols) == [label for label, _ in expected]
        n_tables, n_cells = n_tables + 1, n_cells + len(xs)
        if not same:
            differ.append(f'{rec["page"]} {rec["locator"]}')
    print(f"{n_tables} tables, {n_cells} cells: cell_columns and predict_columns differ on {len(differ)} tables "
          f"(C forest {'built' if model.packed is not None else 'NOT built: Python only'})")
    for k in differ[:10]:
        print("  ", k)
    return 1 if differ else 0


def run(checkout: Path, args: argparse.Namespace, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = [sys.executable, __file__, "--worker", str(out), "--corpora", str(args.corpora), "--labels", str(args.labels)]
    subprocess.run(cmd, check=True, env=env, cwd=tempfile.gettempdir())
    return json.loads(out.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="the other checkout")
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--labels", type=Path, default=ROOT / "corpora" / "tables")
    ap.add_argument("--columns", action="store_true", help="cell_columns against cell_features, this checkout")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.corpora, args.labels = args.corpora.resolve(), args.labels.resolve()
    if args.columns:
        return columns(args.corpora, args.labels)
    if args.worker:
        return worker(Path(args.worker), args.corpora, args.labels)
    if args.before is None:
        ap.error("--before CHECKOUT is required")
    with tempfile.TemporaryDirectory() as tmp:
        before = run(args.before.resolve(), args, Path(tmp) / "before.json")
        after = run(ROOT, args, Path(tmp) / "after.json")
    keys = sorted(set(before["tables"]) | set(after["tables"]))
    differ = [k for k in keys if before["tables"].get(k) != after["tables"].get(k)]
    print(f"{len(keys)} tables, {after['cells']} cells (before: {before['cells']}): {len(differ)} differ")
    for k in differ[:10]:
        print("  differs:", k)
    return 1 if differ or before["cells"] != after["cells"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
