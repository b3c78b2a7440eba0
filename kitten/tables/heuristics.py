"""Rules applied after the cell classifier to fix cell types that contradict their table.

Each rule is a function of the typed grid that changes ``Cell.type`` in place and returns
how many cells it changed; ``fix_types`` runs them in order and returns the names of the
rules that changed something (logged, and shown in the JSON output). The types are the
paper's (``corpora/tables/README.md``).

1. ``full_width``: a cell with text spanning every column (of a table of two columns or
   more) is not a header or data cell of one column: it is ``thema`` when no data row is
   above it, a ``header`` of the rows below (a section header: "Europe", "Group A")
   when data rows follow it, and ``finalImportant`` when it comes after the last data
   row (a legend, a note or source about every value).
2. ``narrow_thema``: ``thema`` on a cell spanning less than half of the columns is a header.
3. ``header_row``: in a row of headers, a single data cell that is not a number is a header
   too (the "one data cell in a row of headers" of the original).
4. ``numeric_th``: a ``th`` typed header whose text is a number, not in the first column,
   below a numeric data cell of its column, is data: the totals rows of election and
   sports tables ("Total valid votes | 8,817 | 100.00") written in ``th``.

Rules of the earlier conventions were removed with them: ``empty_is_neutral`` (an empty
cell under a header is a missing value: data) and ``first_column`` (a first-column
``td`` under its own header was data; it names the row's entity: a header). Two more
were tried and left out because they lowered cell F1 under cross validation
(``data_row``: a single header among data cells becomes data; ``column_votes``: a
column's body cells follow their 70% majority); ``kitten train tables`` prints the
scores with and without the rules.
"""
from __future__ import annotations

from kitten.tables.features import TableView

_HEADINGS = frozenset({"thema", "finalImportant", "finalNonImportant"})


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
            new = "header"  # a section header of the rows below
        else:
            new = "finalImportant"
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
            if v.types[data[0].index] not in ("numeric", "date"):
                data[0].type = "header"
                n += 1
    return n


def numeric_th(v: TableView) -> int:
    g = v.grid
    numeric_data_above: dict[int, int] = {}  # column -> first row with numeric data
    for c in g.cells:
        if c.type == "data" and v.types[c.index] == "numeric":
            numeric_data_above[c.col] = min(numeric_data_above.get(c.col, c.row), c.row)
    changes = [c for c in g.cells if c.tag == "th" and c.col > 0 and c.type == "header"
               and v.types[c.index] == "numeric" and numeric_data_above.get(c.col, c.row) < c.row]
    for c in changes:
        c.type = "data"
    return len(changes)


RULES = (full_width, narrow_thema, header_row, numeric_th)


def fix_types(v: TableView) -> list[str]:
    """Run every rule in order; the names of those that changed a cell."""
    return [rule.__name__ for rule in RULES if rule(v)]
