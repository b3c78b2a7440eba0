"""Rules applied after the cell classifier to fix cell types that contradict their table.

Each rule is a function of the typed grid that changes ``Cell.type`` in place and returns
how many cells it changed; ``fix_types`` runs them in order and returns the names of the
rules that changed something (logged, and shown in the JSON output).

1. ``empty_is_neutral``: a cell without text is neutral, whatever the tree said.
2. ``full_width``: a cell with text spanning every column (of a table of two columns or
   more) is not a header or data cell of one column: it is ``thema`` when no data row is
   above it, ``finalImportant`` when data rows follow it (a group label), and
   ``finalNonImportant`` when it comes after the last data row (a note or a source).
3. ``narrow_thema``: ``thema`` on a cell spanning less than half of the columns is a header.
4. ``header_row``: in a row of headers, a single data cell that is not a number is a header
   too (the "one data cell in a row of headers" of the original).
5. ``first_column``: the corpus conventions for first-column cells (one column wide, with
   text, in a row holding other data), ``corpora/tables/README.md``: a ``td`` typed header
   under its own column header (the nearest row above without data, with two headers or
   more, has a header with text in column 0) is data ("Year | Deaths" over "2012 | 794":
   2012 is data), and a ``th`` typed data is a header (numbered ``th`` rows).
   ``corpora/tables/conventions.py`` applies the same function to the labels.
6. ``numeric_th``: a ``th`` typed header whose text is a number, not in the first column,
   below a numeric data cell of its column, is data: the totals rows of election and
   sports tables ("Total valid votes | 8,817 | 100.00") written in ``th``.

Two more rules were tried and left out because they lowered cell F1 under cross
validation (``data_row``: a single header among data cells becomes data;
``column_votes``: a column's body cells follow their 70% majority); ``kitten train
tables`` prints the scores with and without the rules.
"""
from __future__ import annotations

from kitten.tables.features import TableView

_HEADINGS = frozenset({"thema", "finalImportant", "finalNonImportant"})


def empty_is_neutral(v: TableView) -> int:
    n = 0
    for c in v.grid.cells:
        if not c.text and c.type != "neutral":
            c.type = "neutral"
            n += 1
    return n


def _data_rows(v: TableView) -> list[bool]:
    rows = [False] * v.grid.n_rows
    for c in v.grid.cells:
        if c.type == "data" and c.text:
            for r in range(c.row, c.row + c.rowspan):
                rows[r] = True
    return rows


def full_width(v: TableView) -> int:
    g = v.grid
    if g.n_cols < 2:
        return 0
    data_rows = _data_rows(v)
    n = 0
    for c in g.cells:
        if c.colspan < g.n_cols or not c.text or c.type in _HEADINGS:
            continue
        if not any(data_rows[: c.row]):
            new = "thema"
        elif any(data_rows[c.row + c.rowspan:]):
            new = "finalImportant"
        else:
            new = "finalNonImportant"
        if new != c.type:
            c.type = new
            n += 1
    return n


def narrow_thema(v: TableView) -> int:
    n = 0
    for c in v.grid.cells:
        if c.type == "thema" and v.grid.n_cols > 1 and c.colspan * 2 < v.grid.n_cols:
            c.type = "header"
            n += 1
    return n


def header_row(v: TableView) -> int:
    n = 0
    for r, row in enumerate(v.rows):
        own = [c for c in row if c.row == r and c.text]
        data = [c for c in own if c.type == "data"]
        headers = [c for c in own if c.type == "header"]
        if len(data) == 1 and len(headers) >= 2 and len(headers) + 1 == len(own):
            if v.types[id(data[0])] not in ("numeric", "date"):
                data[0].type = "header"
                n += 1
    return n


def _header_above(grid, cell):
    """The cell of column 0 in the nearest header row above (no data, two headers or more)."""
    for r in range(cell.row - 1, -1, -1):
        row = grid.row_cells(r)
        if any(x.type == "data" for x in row):
            continue  # a record row (or a label/value row such as Majority / Turnout)
        if sum(1 for x in row if x.text and x.type == "header") < 2:
            continue  # a label whose value is empty ("Snouts | (image)"), not a header row
        top = grid.slots[r][0]
        return top if top is not cell else None
    return None


def first_column_type(grid, cell, least: int = 2) -> str | None:
    """The type the conventions give a first-column cell, when it differs from its own
    (``least``: data cells the row must hold besides a ``td`` for it to become data)."""
    if cell.col != 0 or cell.colspan != 1 or not cell.text:
        return None
    data = sum(x.type == "data" for x in grid.row_cells(cell.row) if x is not cell)  # a record row: 1+
    if not data:
        return None
    if cell.tag == "td" and cell.type == "header" and data >= least:
        top = _header_above(grid, cell)
        if top is not None and top.text and top.type == "header":
            return "data"
    if cell.tag == "th" and cell.type == "data":
        return "header"
    return None


def first_column(v: TableView) -> int:
    # decided on the types as they are, then changed: a change must not decide another
    changes = [(c, t) for c in v.grid.cells if (t := first_column_type(v.grid, c))]
    for c, t in changes:
        c.type = t
    return len(changes)


def numeric_th(v: TableView) -> int:
    g = v.grid
    numeric_data_above: dict[int, int] = {}  # column -> first row with numeric data
    for c in g.cells:
        if c.type == "data" and v.types[id(c)] == "numeric":
            numeric_data_above[c.col] = min(numeric_data_above.get(c.col, c.row), c.row)
    changes = [c for c in g.cells if c.tag == "th" and c.col > 0 and c.type == "header"
               and v.types[id(c)] == "numeric" and numeric_data_above.get(c.col, c.row) < c.row]
    for c in changes:
        c.type = "data"
    return len(changes)


RULES = (empty_is_neutral, full_width, narrow_thema, header_row, first_column, numeric_th)


def fix_types(v: TableView) -> list[str]:
    """Run every rule in order; the names of those that changed a cell."""
    return [rule.__name__ for rule in RULES if rule(v)]
