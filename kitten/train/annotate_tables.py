"""``kitten annotate tables``: show leaf tables as grids and record their labels.

Two ways to label, same records (``kitten/train/table_corpus.py``):

* interactive, in a terminal: each unlabelled table is drawn as a grid and one key
  records its class (``d`` data, ``l`` layout, ``s`` skip, ``q`` quit); with ``--cells``
  one line of cell-type letters per grid row;
* review files, for labelling in an editor or by several people: ``--export FILE``
  writes the tables with a suggested label to correct, ``--import FILE`` records them
  and counts how many labels the reviewer changed from the suggestion.

A suggestion comes from the shipped classifiers when they exist, else from the simple
rules below; it is only a starting point: every label in the corpus is reviewed.

Cell-type letters: ``h`` header, ``d`` data, ``n`` neutral, ``t`` thema,
``i`` finalImportant, ``f`` finalNonImportant (definitions: corpora/tables/README.md).
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Iterable, TextIO

from kitten.train.table_corpus import CODE_OF, CODES, TABLE_LABELS, PageTable
from kitten.tables.features import is_link_cell, markup
from kitten.tables.grid import Grid

WIDTH = 38  # characters of a cell shown in a grid line


def _short(text: str, width: int = WIDTH) -> str:
    text = text.replace("|", "¦")
    return text if len(text) <= width else text[: width - 1] + "…"


def _cell_label(cell) -> str:
    span = f"{cell.col}" if cell.colspan == 1 else f"{cell.col}-{cell.col + cell.colspan - 1}"
    extra = []
    if cell.tag == "th":
        extra.append("th")
    if cell.rowspan > 1:
        extra.append(f"rs{cell.rowspan}")
    if cell.section != "tbody":
        extra.append(cell.section)
    tail = f"[{','.join(extra)}]" if extra else ""
    return f"c{span}{tail} {_short(cell.text) or '∅'}"


def origin_rows(grid: Grid) -> list[list]:
    """The cells starting on each row, left to right (the order of the label letters)."""
    rows: list[list] = [[] for _ in range(grid.n_rows)]
    for cell in sorted(grid.cells, key=lambda c: (c.row, c.col)):
        rows[cell.row].append(cell)
    return rows


def draw(grid: Grid, max_rows: int | None = None) -> list[str]:
    """The grid as text: one line per row, each cell with its column(s), flags and text."""
    lines = []
    if grid.caption:
        lines.append(f"caption: {_short(grid.caption, 200)}")
    rows = origin_rows(grid)
    for r, cells in enumerate(rows):
        if max_rows is not None and r >= max_rows:
            lines.append(f"... {len(rows) - r} more rows")
            break
        lines.append(f"r{r} | " + " | ".join(_cell_label(c) for c in cells))
    return lines


# ---- suggestions (used only when no shipped classifier exists) ---------------------------

_NUMERIC = re.compile(r"^[\s$€£%+\-–−.,:/()\d]*\d[\s$€£%+\-–−.,:/()\d]*[a-zA-Z%]{0,4}$")


def suggest_table(grid: Grid) -> str:
    """A rule of thumb: several rows and columns, mostly short non-empty cells, few links."""
    if grid.n_rows < 2 or grid.n_cols < 2:
        return "layout"
    texts = [c.text for c in grid.cells]
    filled = [t for t in texts if t]
    if len(filled) < 4 or len(filled) < 0.5 * len(texts):
        return "layout"
    links = sum(1 for c in grid.cells if is_link_cell(c, markup(c)))
    long_cells = sum(1 for t in filled if len(t) > 80)
    if links > 0.5 * len(filled) or long_cells > 0.25 * len(filled):
        return "layout"
    has_th = any(c.tag == "th" for c in grid.cells)
    numeric = sum(1 for t in filled if _NUMERIC.match(t))
    return "data" if has_th or numeric >= 0.2 * len(filled) else "layout"


def suggest_cells(grid: Grid) -> dict[tuple[int, int], str]:
    """Rule-of-thumb cell types for a data table."""
    out = {}
    header_rows = set()
    for r, cells in enumerate(origin_rows(grid)):
        if cells and all(c.tag == "th" or not c.text for c in cells):
            header_rows.add(r)
    if 0 not in header_rows and grid.n_rows > 1:
        first = origin_rows(grid)[0]
        if first and not any(_NUMERIC.match(c.text) for c in first if c.text):
            header_rows.add(0)
    for c in grid.cells:
        if not c.text:
            t = "neutral"
        elif c.colspan == grid.n_cols and grid.n_cols > 1:
            t = "thema" if c.row == 0 else "finalImportant"
        elif c.row in header_rows or c.tag == "th":
            t = "header"
        else:
            t = "data"
        out[(c.row, c.col)] = t
    return out


# ---- review files --------------------------------------------------------------------------

_HEAD = re.compile(r"^### (\S+) (\S+) (\S+) fp=(\w+)")


def export(tables: Iterable[PageTable], out: TextIO, cells: bool, suggest_table_fn=suggest_table,
           suggest_cells_fn=suggest_cells, max_rows: int | None = 60, recorded: dict | None = None) -> int:
    """Write a review file; returns the number of tables written. ``recorded``: the table
    records already in the corpus by (page, locator): a table labelled there is written
    with its recorded label and note (a cell review does not undo a table review)."""
    n = 0
    for t in tables:
        g = t.grid
        th = "yes" if any(c.tag == "th" for c in g.cells) else "no"
        label = suggest_table_fn(g)
        known = (recorded or {}).get((t.page, t.locator))
        out.write(f"### T{n:04d} {t.page} {t.locator} fp={t.fingerprint} rows={g.n_rows} cols={g.n_cols} th={th}\n")
        out.write(f"suggested: {label}\n")
        for line in draw(g, None if cells else max_rows):
            out.write(line + "\n")
        out.write(f"label: {known['label'] if known else label}\n")
        if cells:
            types = suggest_cells_fn(g)
            codes = [" ".join(CODE_OF[types[(c.row, c.col)]] for c in row) for row in origin_rows(g)]
            out.write("suggested-cells: " + " / ".join(codes) + "\n")
            for r, line in enumerate(codes):
                out.write(f"cells r{r}: {line}\n")
        out.write(f"note: {known.get('note', '') if known else ''}".rstrip() + "\n\n")
        n += 1
    return n


def parse_review(text: str) -> list[dict]:
    """The records of a review file (as written by ``export`` and edited by a reviewer)."""
    records = []
    current: dict | None = None
    for line in text.splitlines():
        m = _HEAD.match(line)
        if m:
            current = {"id": m.group(1), "page": m.group(2), "locator": m.group(3),
                       "fingerprint": m.group(4), "cells": {}}
            records.append(current)
            continue
        if current is None:
            continue
        if line.startswith("suggested: "):
            current["suggested"] = line[11:].strip()
        elif line.startswith("label: "):
            current["label"] = line[7:].strip()
        elif line.startswith("suggested-cells: "):
            current["suggested_cells"] = [row.split() for row in line[17:].split(" / ")]
        elif line.startswith("cells r"):
            key, _, letters = line[7:].partition(":")
            current["cells"][int(key)] = letters.split()
        elif line.startswith("note:"):
            current["note"] = line[5:].strip()
    return records


def cell_records(record: dict, grid: Grid) -> tuple[list[list], int]:
    """The reviewed cell types of a table as ``[[row, col, type], ...]`` and the number
    changed from the suggestion. Raises ValueError when the letters do not fit the grid."""
    rows = origin_rows(grid)
    out: list[list] = []
    changed = 0
    suggested = record.get("suggested_cells") or [[] for _ in rows]
    for r, cells in enumerate(rows):
        letters = record["cells"].get(r, [])
        if len(letters) != len(cells):
            raise ValueError(f"{record['id']}: row {r} has {len(cells)} cells, {len(letters)} labels")
        for i, (cell, letter) in enumerate(zip(cells, letters)):
            if letter not in CODES:
                raise ValueError(f"{record['id']}: row {r}: unknown cell type {letter!r}")
            out.append([cell.row, cell.col, CODES[letter]])
            if i < len(suggested[r]) and suggested[r][i] != letter:
                changed += 1
    return out, changed


def interactive(tables: Iterable[PageTable], cells: bool, done: set, save, stdin: TextIO = sys.stdin,
                stdout: TextIO = sys.stdout) -> int:
    """Label tables one by one in a terminal; ``save(record)`` stores each label at once."""
    n = 0
    for t in tables:
        if (t.page, t.locator) in done:
            continue
        suggestion = suggest_table(t.grid)
        stdout.write(f"\n{t.page} {t.locator} ({t.grid.n_rows} x {t.grid.n_cols})\n")
        stdout.write("\n".join(draw(t.grid, 40)) + "\n")
        stdout.write(f"[d]ata / [l]ayout / [s]kip / [q]uit (suggested: {suggestion}) > ")
        stdout.flush()
        key = (stdin.readline() or "q").strip().lower()[:1] or suggestion[0]
        if key == "q":
            break
        if key not in ("d", "l"):
            continue
        label = "data" if key == "d" else "layout"
        record = {"page": t.page, "locator": t.locator, "fingerprint": t.fingerprint, "label": label,
                  "suggested": suggestion, "reviewer": "interactive", "note": ""}
        if cells and label == "data":
            types = suggest_cells(t.grid)
            rows = origin_rows(t.grid)
            labels: dict[int, list[str]] = {}
            for r, row in enumerate(rows):
                sug = " ".join(CODE_OF[types[(c.row, c.col)]] for c in row)
                stdout.write(f"r{r} types ({sug}) > ")
                stdout.flush()
                answer = (stdin.readline() or "").strip()
                labels[r] = (answer or sug).split()
            record["cells"] = labels
            record["suggested_cells"] = [[CODE_OF[types[(c.row, c.col)]] for c in row] for row in rows]
            record["id"] = f"{t.page} {t.locator}"
        save(record, t)
        n += 1
    return n


def sample(items: list, k: int, seed: int = 13) -> list:
    rng = random.Random(seed)
    items = list(items)
    rng.shuffle(items)
    return items[:k]


def corpus_page(path: Path, corpora: Path) -> str:
    """The page key of a file: its path relative to the corpora root."""
    try:
        return str(path.resolve().relative_to(corpora.resolve()))
    except ValueError:
        return str(path)


def run(args) -> int:
    """The ``kitten annotate tables`` command (arguments from ``kitten.cli``)."""
    from kitten.io.files import walk
    from kitten.train.table_corpus import labelled_tables, page_tables, read_jsonl, write_jsonl

    corpora = Path(args.corpora)
    labels_dir = Path(args.labels)
    tables_file, cells_file = labels_dir / "tables.jsonl", labels_dir / "cells.jsonl"
    table_records = read_jsonl(tables_file)
    cell_records_ = read_jsonl(cells_file)

    if args.import_file:
        return _import(Path(args.import_file), corpora, tables_file, cells_file, table_records,
                       cell_records_, args.reviewer)

    if getattr(args, "relabel", False):
        if not (args.cells and args.export):
            print("--relabel goes with --cells --export FILE", file=sys.stderr)
            return 2
        return _export_relabel(corpora, cell_records_, Path(args.export), args.sample, args.seed)

    done = {(r["page"], r["locator"]) for r in (cell_records_ if args.cells else table_records)}
    if args.cells and not args.paths:
        # cell labelling: tables already labelled data, not yet cell-labelled
        wanted = [r for r in table_records if r["label"] == "data" and (r["page"], r["locator"]) not in done]
        pool = [t for _, t in labelled_tables(corpora, wanted)
                if t.grid.n_rows <= args.max_rows]
    else:
        pool = []
        missing = [p for p in args.paths if not Path(p).exists()]
        if missing:
            print(f"no such page or folder: {missing[0]} (paths are read as given; their key in the corpus "
                  f"is their path under --corpora {corpora})", file=sys.stderr)
            return 2
        for item in walk(args.paths):
            page = corpus_page(item.path, corpora)
            pool.extend(t for t in page_tables(item.path, page)
                        if (t.page, t.locator) not in done and t.grid.cells)
        if args.only_suggested:
            pool = [t for t in pool if suggest_table(t.grid) == args.only_suggested]
        if args.without_th:
            pool = [t for t in pool if not any(c.tag == "th" for c in t.grid.cells)]
        if args.cells:
            pool = [t for t in pool if t.grid.n_rows <= args.max_rows]
    if args.sample:
        pool = sample(pool, args.sample, args.seed)

    if args.export:
        with open(args.export, "w", encoding="utf-8") as out:
            n = export(pool, out, args.cells,
                       recorded={(r["page"], r["locator"]): r for r in table_records})
        print(f"{n} tables written to {args.export}; edit the 'label:'"
              f"{' and cells' if args.cells else ''} lines, then: kitten annotate tables --import {args.export}",
              file=sys.stderr)
        return 0

    def save(record, table):
        record = dict(record)
        if args.cells:
            cells, changed = cell_records(record, table.grid)
            cell_records_.append({"page": table.page, "locator": table.locator,
                                  "fingerprint": table.fingerprint, "cells": cells, "changed": changed,
                                  "reviewer": "interactive", "note": ""})
            write_jsonl(cells_file, cell_records_)
        else:
            table_records.append(record)
            write_jsonl(tables_file, table_records)

    n = interactive(pool, args.cells, done, save)
    print(f"{n} labels recorded in {labels_dir}", file=sys.stderr)
    return 0


def _export_relabel(corpora: Path, cell_records_: list, path: Path, k: int = 0, seed: int = 13) -> int:
    """A review file of the cell-labelled tables, each with its recorded types as the
    suggestion (``--relabel``): reviewers correct them under new definitions, and
    ``--import`` counts what they changed."""
    from kitten.train.table_corpus import labelled_tables

    records = [r for r in cell_records_ if not r.get("retired")]
    if k:
        records = sample(records, k, seed)
    pairs = list(labelled_tables(corpora, records))
    recorded = {id(t.grid): {(r, c): typ for r, c, typ in rec["cells"]} for rec, t in pairs}
    with open(path, "w", encoding="utf-8") as out:
        n = export([t for _, t in pairs], out, True, lambda g: "data", lambda g: recorded[id(g)])
    print(f"{n} cell-labelled tables written to {path} with their recorded types; edit the cells lines, then: "
          f"kitten annotate tables --import {path} --reviewer NAME", file=sys.stderr)
    return 0


def _import(path: Path, corpora: Path, tables_file: Path, cells_file: Path, table_records: list,
            cell_records_: list, reviewer: str) -> int:
    from kitten.train.table_corpus import labelled_tables, write_jsonl

    reviewed = parse_review(path.read_text(encoding="utf-8"))
    errors = []
    by_key = {(r["page"], r["locator"]): r for r in table_records}
    cells_by_key = {(r["page"], r["locator"]): r for r in cell_records_}
    changed_tables = changed_cells = n_cells = 0
    for r in reviewed:
        if r.get("label") not in TABLE_LABELS:
            errors.append(f"{r['id']}: label must be data or layout, not {r.get('label')!r}")
    has_cells = [r for r in reviewed if r["cells"] and r.get("label") == "data"]
    grids = {}
    if has_cells:
        stale: list = []
        for rec, t in labelled_tables(corpora, has_cells, stale=stale):
            grids[(rec["page"], rec["locator"])] = t.grid
        errors += [f"{r['id']}: table not found or changed in {r['page']}" for r in stale]
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 2
    for r in reviewed:
        key = (r["page"], r["locator"])
        known = by_key.get(key)
        if not (r["cells"] and known and known["label"] == r["label"]):  # (a cell review keeps the table's record)
            changed_tables += r["label"] != r.get("suggested")
            by_key[key] = {"page": r["page"], "locator": r["locator"], "fingerprint": r["fingerprint"],
                           "label": r["label"], "suggested": r.get("suggested", ""), "reviewer": reviewer,
                           "note": r.get("note", "")}
        if key in grids:
            try:
                cells, changed = cell_records(r, grids[key])
            except ValueError as exc:
                print(exc, file=sys.stderr)
                return 2
            changed_cells += changed
            n_cells += len(cells)
            cells_by_key[key] = {"page": r["page"], "locator": r["locator"], "fingerprint": r["fingerprint"],
                                 "cells": cells, "changed": changed, "reviewer": reviewer,
                                 "note": r.get("note", "")}
    write_jsonl(tables_file, list(by_key.values()))
    if grids:
        write_jsonl(cells_file, list(cells_by_key.values()))
    print(f"{len(reviewed)} tables recorded ({changed_tables} changed from the suggestion); "
          f"{len(grids)} cell-labelled tables, {n_cells} cells ({changed_cells} changed)", file=sys.stderr)
    return 0
