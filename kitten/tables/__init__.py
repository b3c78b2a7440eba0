"""Tables step: leaf tables classified data or layout; data tables read one clause per row.

For each leaf table of the document (``collect.py``) the step builds the grid of the HTML
table model (``grid.py``), computes the table features (``features.py``) and asks the
data/layout tree (``classifiers/tables.json``). A data table's cells are typed by the cell
tree (``classifiers/cells.json``), corrected by the heuristics (``heuristics.py``), and its
blocks are replaced by one block per clause (``clauses.py``). Layout tables, non-leaf
tables and tables past the grid bounds keep their blocks and are read linearly.

Every leaf table gets a ``TableReading`` in ``Document.tables`` (JSON output and the
``.tables.json`` dump): leaf index, locator, class and score, text, and for data tables the
typed grid, the clauses and the records (``records.py``: one dict per data row keyed by
its column headers; ``TableReading.frame()`` gives them as a pandas DataFrame).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from kitten.config import TablesConfig
from kitten.document import Block, Document, Locators
from kitten.log import PageLog
from kitten.resources import classifiers_dir
from kitten.segment import ends_sentence
from kitten.tables.collect import leaf_tables
from kitten.tables.collect import fill_text, table_text
from kitten.tables.grid import Grid, GridTooLarge, build_grid

# The modules that read a table (features, models, cell types, heuristics, clauses,
# records, rows: 20-30 ms to import) are imported when a page first has a leaf table:
# many pages have none. A batch imports them before its workers are forked
# (kitten.engine.prepare).
if TYPE_CHECKING:
    from kitten.tables.clauses import Clause
    from kitten.tables.model import Model, Stacked
    from kitten.tables.records import Record

__all__ = ["read_tables", "data_tables", "TableReading", "TableWriter", "CLAUSES", "ROWS", "models", "table_model",
           "cell_model"]


@dataclass(slots=True)
class TableReading:
    """What the tables step found and did for one leaf table."""

    index: int
    element: Any = field(repr=False, compare=False)  # the table element
    locate: Locators = field(repr=False, compare=False)  # the document's
    label: str  # "data", "layout", or "too-large" (no grid within the bounds)
    score: float  # the classifier's probability of "data"
    text: str
    grid: Grid | None = field(default=None, repr=False)
    clauses: list[Clause] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)

    @property
    def locator(self) -> str:
        """The table's locator, computed when asked (a text output shows none)."""
        return self.locate(self.element) or ""

    def as_dict(self) -> dict:
        d = {"index": self.index, "locator": self.locator, "class": self.label,
             "score": round(self.score, 3), "text": self.text}
        if self.label == "data" and self.grid is not None:
            d["rows"], d["columns"] = self.grid.n_rows, self.grid.n_cols
            d["cells"] = [{"row": c.row, "col": c.col, "rowspan": c.rowspan, "colspan": c.colspan,
                           "tag": c.tag, "text": c.text, "type": c.type} for c in self.grid.cells]
            d["clauses"] = [c.text for c in self.clauses]
            d["heuristics"] = self.fixes
        d["records"] = self.records()  # [] for a layout table
        return d

    def records(self) -> list[Record]:
        """The data table's rows as dicts keyed by column header (``records.py``); [] for
        a layout table."""
        from kitten.tables.records import table_records

        return table_records(self.grid) if self.label == "data" and self.grid is not None else []

    def frame(self):
        """:meth:`records` as a pandas DataFrame (needs pandas)."""
        from kitten.tables.records import records_frame

        return records_frame(self.records())


#: the model files in the classifiers folder
TABLE_MODEL, CELL_MODEL = "tables.json", "cells.json"


def table_model(classifiers: str = "") -> Model:
    """The data/layout model, loaded when a page first has a table to classify (once per
    process)."""
    from kitten.tables.features import TABLE_FEATURES
    from kitten.tables.model import load_model

    return load_model(str(classifiers_dir(classifiers) / TABLE_MODEL), TABLE_FEATURES)


def cell_model(classifiers: str = "") -> Model | Stacked:
    """The cell-type model (3 MB of trees, a few tenths of a second to load), loaded when
    a page first has a data table (once per process)."""
    from kitten.tables.features import CELL_FEATURES, CONTEXT_FEATURES
    from kitten.tables.model import load_model

    return load_model(str(classifiers_dir(classifiers) / CELL_MODEL), CELL_FEATURES, CONTEXT_FEATURES)


def models(classifiers: str = "") -> tuple[Model, Model | Stacked]:
    """The data/layout model and the cell-type model."""
    return table_model(classifiers), cell_model(classifiers)


def data_tables(doc: Document, config: TablesConfig, classifiers: str = "") -> set:
    """The leaf table elements of ``doc`` that the data/layout classifier calls data
    (what :func:`read_tables` will read as clauses), for the boilerplate gate: a data
    table is kept or dropped whole."""
    if not config.enabled:
        return set()
    grids = [(tb, grid) for tb, grid in _leaf_grids(doc, config)
             if isinstance(grid, Grid) and grid.n_rows >= 2 and grid.n_cols >= 2]
    if not grids:
        return set()
    from kitten.tables.features import table_features, view

    model = table_model(classifiers)
    data_index = model.classes.index("data")
    return {tb.element for tb, grid in grids
            if model.proba(table_features(view(grid), tb.embedded))[data_index] >= config.data_threshold}


def _leaf_grids(doc: Document, config: TablesConfig):
    """Each leaf table of ``doc`` with its grid, text filled in, or the
    :class:`GridTooLarge` that stopped it."""
    for tb in leaf_tables(doc):
        try:
            grid = build_grid(tb.element, config.max_rows, config.max_columns, config.max_span)
        except GridTooLarge as exc:
            yield tb, exc
            continue
        fill_text(grid, tb)
        yield tb, grid


def read_tables(doc: Document, config: TablesConfig, log: PageLog, classifiers: str = "",
                writer: "TableWriter | None" = None) -> Document:
    """The document with the blocks of its data tables (and of its short one-row or
    one-column tables) replaced as ``writer`` writes them (default :data:`CLAUSES`: one
    clause per data row, the parser style; :data:`ROWS`: the rows as written)."""
    writer = writer or CLAUSES
    if not config.enabled:
        return doc
    found = list(_leaf_grids(doc, config))
    if not found:
        return doc
    from kitten.tables.celltypes import type_cells
    from kitten.tables.clauses import build_clauses
    from kitten.tables.features import table_features, view
    from kitten.tables.heuristics import fix_types

    readings: list[TableReading] = []
    replace: list[tuple[int, int, list[Block]]] = []
    for tb, grid in found:
        def locator(element=tb.element) -> str:  # the table's, made when the log is read
            return doc.locate(element) or ""

        if isinstance(grid, GridTooLarge):
            log.add("tables", "table-too-large", f"read linearly: {grid}", where=locator)
            text = " | ".join(x for x in (tb.caption, *tb.cell_text.values()) if x)
            readings.append(TableReading(tb.index, tb.element, doc.locate, "too-large", 0.0, text))
            continue
        if grid.clipped:
            log.add("tables", "span-clipped", f"{grid.clipped} spans clipped to the bounds", where=locator)
        if grid.n_rows < 2 or grid.n_cols < 2:
            # one row or one column: layout without asking the model (no such data table
            # in the annotated corpus; the model agrees on all of its 550 examples)
            readings.append(TableReading(tb.index, tb.element, doc.locate, "layout", 0.0, table_text(grid)))
            if _cells_only(doc.blocks, tb) and _short_cells(grid) is not None:
                # short cells side by side: one sentence (rows as written), not a paragraph each
                replace.append((tb.first, tb.last, writer.short(grid, tb.element)))
                log.add("tables", "one-line-table", f"{len(grid.cells)} short cells read as {writer.short_reading}",
                        where=locator)
            continue
        v = view(grid)
        model = table_model(classifiers)
        score = model.proba(table_features(v, tb.embedded))[model.classes.index("data")]
        label = "data" if score >= config.data_threshold else "layout"
        reading = TableReading(tb.index, tb.element, doc.locate, label, score, table_text(grid, v.texts))
        readings.append(reading)
        if reading.label != "data":
            continue
        type_cells(v, tb.cell_breaks, cell_model(classifiers))
        if config.heuristics:
            reading.fixes = fix_types(v)
        reading.grid = grid
        reading.clauses = build_clauses(grid, config)
        rows = [c for c in reading.clauses if c.kind == "row"]
        if not rows:  # nothing read as a row: keep the linear reading rather than lose text
            reading.label = "layout"
            log.add("tables", "no-data-row", "typed as data but no data row: read linearly", where=locator)
            continue
        replace.append((tb.first, tb.last, writer.data(grid, reading.clauses, tb.element)))
        log.add("tables", "data-table", f"{len(rows)} rows read as {writer.data_reading} (p={score:.2f})",
                where=locator)
    if not replace:
        return dataclasses.replace(doc, tables=readings)
    blocks = list(doc.blocks)
    for first, last, new in reversed(replace):
        blocks[first:last + 1] = new
    return dataclasses.replace(doc, blocks=blocks, tables=readings)


#: a one-row or one-column table is read as one sentence when it has at most this many
#: cells, each of at most ONE_LINE_WORDS words and none ending a sentence
ONE_LINE_CELLS = 30
ONE_LINE_WORDS = 12


def _cells_only(blocks: list[Block], tb) -> bool:
    """Every block of the table is a whole cell (no paragraph, list or heading inside)."""
    return all(b.kind == "table_cell" for b in blocks[tb.first:tb.last + 1])


def _short_cells(grid: Grid) -> list[str] | None:
    """The non-empty cell texts of a one-row or one-column table of short cells (read as
    one line), or None when they read as text of their own."""
    texts = [" ".join(c.text.split()) for c in grid.cells]
    texts = [t for t in texts if t]
    if not 2 <= len(texts) <= ONE_LINE_CELLS:
        return None
    if any(len(t.split()) > ONE_LINE_WORDS or ends_sentence(t) or t.endswith(":") for t in texts):
        return None
    return texts


def _one_line(grid: Grid, table) -> list[Block]:
    """The parser style's short table: its cells as one sentence with separators
    (``Home / News / Contact``)."""
    return [Block("table_row", "tr", table, [" / ".join(_short_cells(grid) or ())], table)]


def _clause_blocks(grid: Grid, clauses: list[Clause], table) -> list[Block]:
    """The parser style's data table: a block per clause, then the cells no clause read."""
    from kitten.tables.clauses import unused_cells

    out = []
    for c in clauses:
        source = grid.rows[c.row] if c.row < len(grid.rows) else table
        kind = "table_row" if c.kind == "row" else "table_cell"
        out.append(Block(kind, "tr" if c.kind == "row" else "td", source, [c.text], table))
    out += [Block("table_cell", c.tag, c.element, [c.text], table) for c in unused_cells(grid, clauses)]
    return out


@dataclass(frozen=True)
class TableWriter:
    """How the tables step writes the tables it reads whole: a data table's blocks (from
    its grid, its clauses and its element) and a short one-row or one-column table's
    (from its grid and element), with the words its log lines say they were read as."""

    data: Callable[[Grid, list[Clause], Any], list[Block]]
    short: Callable[[Grid, Any], list[Block]]
    data_reading: str
    short_reading: str


#: the parser style: one clause per data row; a short table as one sentence
CLAUSES = TableWriter(_clause_blocks, _one_line, "clauses", "one sentence")
def _rows(grid: Grid, table, *_) -> list[Block]:
    """The faithful style's table: the rows as written, one a line (``rows.py``)."""
    from kitten.tables.rows import row_blocks

    return row_blocks(grid, table)


#: the faithful style: the rows as written, one a line (``rows.py``)
ROWS = TableWriter(lambda grid, _, table: _rows(grid, table), _rows, "rows as written", "rows as written")
