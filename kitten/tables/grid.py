"""The HTML table model: a leaf table's cells placed on a grid of rows and columns.

Follows the "forming a table" algorithm of the HTML standard: row groups (``thead``,
``tbody``, ``tfoot``, and rows directly in ``table``) in source order, each cell placed
in the first free slot of its row, ``colspan`` and ``rowspan`` occupying the slots they
cover, ``rowspan="0"`` extending to the end of the row group, and spans clipped at the
end of their row group.

Bounds (``[tables]`` settings) keep hostile tables cheap: a span is clipped to
``max_span`` (100; HTML itself allows 1,000 columns and 65,534 rows); a table with more
than ``max_rows`` rows (2,000) or ``max_columns`` columns (100) is not given a grid at all
(``GridTooLarge``) and stays linear. So a grid never has more than 200,000 slots and
``rowspan="65534"`` or ``colspan="1000"`` cost no more than an ordinary cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

from lxml import etree

NS = "{http://www.w3.org/1999/xhtml}"
_TR, _TD, _TH = NS + "tr", NS + "td", NS + "th"
_GROUPS = {NS + "thead": "thead", NS + "tbody": "tbody", NS + "tfoot": "tfoot"}
_CAPTION = NS + "caption"
_TAG = attrgetter("tag")
_SHORT = {_TD: "td", _TH: "th"}
#: some element inside the table (a cell, or any other) has a ``colspan`` or a ``rowspan``:
#: one query in libxml2 for the whole table, the attributes read in one walk (the fastest
#: of those measured: a walk for each attribute takes twice as long, a path to the cells or
#: a predicate of both attributes on the elements two to four times)
_HAS_SPANS = etree.XPath('boolean(descendant::*/@*[name() = "colspan" or name() = "rowspan"])')


class GridTooLarge(ValueError):
    """The table has more rows or columns than the configured bounds."""


@dataclass(slots=True)
class Cell:
    """One ``td``/``th`` of the table, at the top-left slot it covers."""

    row: int
    col: int
    rowspan: int
    colspan: int
    tag: str  # "td" or "th"
    section: str  # "thead", "tbody", "tfoot"
    element: Any = field(repr=False, compare=False)
    text: str = ""  # white space collapsed; filled from the document's blocks
    type: str = ""  # cell type, set by the cell classifier
    index: int = -1  # position in ``Grid.cells`` (per-cell data of a table is kept in lists)

    def covers(self, row: int, col: int) -> bool:
        return self.row <= row < self.row + self.rowspan and self.col <= col < self.col + self.colspan


@dataclass(slots=True)
class Grid:
    cells: list[Cell]  # in source order
    n_rows: int
    n_cols: int
    slots: list[list[Cell | None]]  # slots[row][col]: the cell covering it, None if none
    rows: list[Any] = field(default_factory=list, repr=False)  # the tr element of each row
    caption: str = ""
    clipped: int = 0  # spans clipped by the bounds or by the end of a row group
    spanning: int = 0  # cells covering more than one slot

    @property
    def full(self) -> bool:
        """Every slot holds a cell of its own (no span, no hole): cell ``r * n_cols + c``
        is at row r, column c."""
        return not self.spanning and len(self.cells) == self.n_rows * self.n_cols

    def row_cells(self, row: int) -> list[Cell]:
        """The distinct cells covering ``row``, left to right."""
        if self.full:  # every slot its own cell
            return list(self.slots[row])
        out: list[Cell] = []
        for c in self.slots[row]:
            if c is not None and (not out or out[-1] is not c):
                out.append(c)
        return out

    def col_cells(self, col: int) -> list[Cell]:
        """The distinct cells covering ``col``, top to bottom."""
        if self.full:
            return [row[col] for row in self.slots]
        out: list[Cell] = []
        for r in range(self.n_rows):
            c = self.slots[r][col]
            if c is not None and (not out or out[-1] is not c):
                out.append(c)
        return out


def _span(value: str | None, default: int, zero: int, bound: int) -> tuple[int, bool]:
    """A span attribute's value: digits only (as browsers parse them), ``0`` -> ``zero``,
    clipped to ``bound``. Returns (span, clipped)."""
    if not value:
        return default, False
    digits = ""
    for ch in value.strip():
        if ch.isdigit():
            digits += ch
        else:
            break
    if not digits:
        return default, False
    n = int(digits[:7])
    if n == 0:
        return zero, False
    if n > bound:
        return bound, True
    return n, False


def row_elements(table) -> list[tuple[str, Any]]:
    """The table's rows in source order with their row group name."""
    rows = []
    for child in table:
        tag = child.tag
        if tag == _TR:
            rows.append(("tbody", child))
        elif tag in _GROUPS:
            section = _GROUPS[tag]
            for tr in child:
                if tr.tag == _TR:
                    rows.append((section, tr))
    return rows


def build_grid(table, max_rows: int = 2000, max_columns: int = 100, max_span: int = 100) -> Grid:
    """Place the cells of ``table`` (an lxml ``table`` element of Kitten's XHTML) on a grid.

    Raises ``GridTooLarge`` past the bounds (the caller reads the table linearly)."""
    rows = row_elements(table)
    if len(rows) > max_rows:
        raise GridTooLarge(f"{len(rows)} rows > {max_rows}")
    if not _HAS_SPANS(table):
        return _plain_grid(table, rows, max_columns)
    return _placed_grid(table, rows, max_columns, max_span)


def _placed_grid(table, rows: list[tuple[str, Any]], max_columns: int, max_span: int) -> Grid:
    """:func:`build_grid` cell by cell, each in the first free slot of its row, spans
    parsed, clipped and placed (any table; :func:`_plain_grid` gives the same grid of a
    table without spans)."""
    # group boundaries: index of the last row of each row's group
    group_end: list[int] = [0] * len(rows)
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i][1].getparent() is not rows[start][1].getparent():
            for j in range(start, i):
                group_end[j] = i - 1
            start = i
    slots: list[list[Cell | None]] = [[] for _ in rows]
    cells: list[Cell] = []
    n_cols = 0
    clipped = spanning = 0
    for r, (section, tr) in enumerate(rows):
        row = slots[r]
        col = 0
        for td in tr:
            tag = td.tag
            if tag != _TD and tag != _TH:
                continue
            while col < len(row) and row[col] is not None:
                col += 1
            cs, rs = td.get("colspan"), td.get("rowspan")
            if cs is None and rs is None:  # most cells: one slot, nothing to parse or clip
                if col >= max_columns:
                    raise GridTooLarge(f"more than {max_columns} columns")
                cell = Cell(r, col, 1, 1, "th" if tag == _TH else "td", section, td, "", "", len(cells))
                cells.append(cell)
                if col == len(row):  # most cells: at the end of the row so far
                    row.append(cell)
                else:
                    if len(row) < col:
                        row.extend([None] * (col - len(row)))
                        row.append(cell)
                    else:
                        row[col] = cell
                col += 1
                if col > n_cols:
                    n_cols = col
                continue
            colspan, c1 = _span(cs, 1, 1, max_span)
            rowspan, c2 = _span(rs, 1, group_end[r] - r + 1, max_span)
            last = group_end[r]
            if r + rowspan - 1 > last:
                rowspan = last - r + 1
                c2 = True
            clipped += c1 + c2
            spanning += rowspan > 1 or colspan > 1
            if col + colspan > max_columns:
                raise GridTooLarge(f"more than {max_columns} columns")
            cell = Cell(r, col, rowspan, colspan, "th" if tag == _TH else "td", section, td, index=len(cells))
            cells.append(cell)
            for rr in range(r, r + rowspan):
                target = slots[rr]
                if len(target) < col + colspan:
                    target.extend([None] * (col + colspan - len(target)))
                for cc in range(col, col + colspan):
                    if target[cc] is None:  # overlapping spans: the first cell keeps the slot
                        target[cc] = cell
            col += colspan
            if col > n_cols:
                n_cols = col
    for row in slots:
        if len(row) < n_cols:
            row.extend([None] * (n_cols - len(row)))
    return Grid(cells, len(rows), n_cols, slots, [tr for _, tr in rows], _caption(table), clipped, spanning)


def _plain_grid(table, rows: list[tuple[str, Any]], max_columns: int) -> Grid:
    """:func:`build_grid` of a table without ``colspan`` or ``rowspan``: each row's cells
    side by side from the first column, no slot to search, no span to parse, the cells
    made in C loops (``map``, ``chain``) rather than one by one (the grid of a big table
    of plain cells, 95,000 of them, in a fraction of :func:`_placed_grid`'s time)."""
    by_row = [list(tr.iterchildren(_TD, _TH)) for _, tr in rows]
    widths = list(map(len, by_row))
    n_cols = max(widths, default=0)
    if n_cols > max_columns:
        raise GridTooLarge(f"more than {max_columns} columns")
    elements = list(chain.from_iterable(by_row))
    n = len(elements)
    cells = list(map(Cell, chain.from_iterable(map(repeat, range(len(rows)), widths)),
                     chain.from_iterable(map(range, widths)), repeat(1, n), repeat(1, n),
                     map(_SHORT.__getitem__, map(_TAG, elements)),
                     chain.from_iterable(map(repeat, (section for section, _ in rows), widths)),
                     elements, repeat("", n), repeat("", n), range(n)))
    slots: list[list[Cell | None]] = []
    start = 0
    for k in widths:
        slots.append(cells[start:start + k] + [None] * (n_cols - k))
        start += k
    return Grid(cells, len(rows), n_cols, slots, [tr for _, tr in rows], _caption(table))


def _caption(table) -> str:
    """The text of the table's ``caption``, white space collapsed ("" when it has none)."""
    for child in table:
        if child.tag == _CAPTION:
            return " ".join("".join(child.itertext()).split())
    return ""
