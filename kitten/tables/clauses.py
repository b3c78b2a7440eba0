"""One clause per data row of a typed grid, after the original pattern

    thema? ;;? finalImportant? ;;? (header? ; header : data /?)+ .

* **thema**: the texts of the table's thema cells (its caption when it has none); it
  starts every clause.
* **finalImportant**: the last finalImportant cell above the row (a group label); it
  applies to the rows after it.
* For each data cell of the row (cells spanning several rows count in each of them;
  empty data cells are skipped): its **column header** (the header cells covering its
  columns in the last run of header rows above it, joined from top to bottom, so that
  multi-level headers read "Chart positions - UK") and its **row header** (the header
  cells left of it in the row), as ``column ; row: data``.
* When the row headers have column headers of their own (a non-empty corner cell such
  as "Year" or "Country"), the row header is the subject of the clause: it comes first as
  ``Country: France`` and the data cells follow as ``Population: 67M``.
* finalNonImportant cells (notes, sources) are not part of any row: each is a sentence of
  its own, where it stands.

Separators are settings (``[tables]``): ``thema_separator`` " ;; ",
``header_separator`` " ; ", ``value_separator`` ": ", ``cell_separator`` " / ",
``level_separator`` " - ".
"""
from __future__ import annotations

from dataclasses import dataclass

from kitten.config import TablesConfig
from kitten.tables.grid import Cell, Grid


@dataclass(frozen=True, slots=True)
class Clause:
    row: int
    text: str
    kind: str = "row"  # "row" or "note" (a finalNonImportant cell)


def _label(text: str) -> str:
    """A header as a label: without the colon it may already end with ("Start:")."""
    return text.rstrip(" :")


def _join(texts: list[str], sep: str) -> str:
    out: list[str] = []
    for t in texts:
        if t and (not out or out[-1] != t):
            out.append(t)
    return sep.join(out)


def header_rows(grid: Grid) -> list[bool]:
    """Rows made of headers: at least one header cell starts there and no data cell covers it."""
    has_header = [False] * grid.n_rows
    has_data = [False] * grid.n_rows
    for c in grid.cells:
        if c.type == "header" and c.text:
            has_header[c.row] = True
        elif c.type == "data" and c.text:
            for r in range(c.row, c.row + c.rowspan):
                has_data[r] = True
    return [h and not d for h, d in zip(has_header, has_data)]


def column_headers(grid: Grid, is_header_row: list[bool], row: int, cols: range, sep: str) -> str:
    """Headers over ``cols`` in the last run of header rows above ``row``, top to bottom."""
    r = row - 1
    while r >= 0 and not is_header_row[r]:
        r -= 1
    if r < 0:
        return ""
    end = r
    while r >= 0 and is_header_row[r]:
        r -= 1
    texts: list[str] = []
    seen: set[int] = set()
    for rr in range(r + 1, end + 1):
        for col in cols:
            c = grid.slots[rr][col]
            if c is not None and id(c) not in seen and c.type == "header" and c.text:
                seen.add(id(c))
                texts.append(_label(c.text))
    return _join(texts, sep)


def build_clauses(grid: Grid, config: TablesConfig) -> list[Clause]:
    """The clauses of a data table whose cells are typed, in row order."""
    is_header_row = header_rows(grid)
    thema = _join([c.text for c in grid.cells if c.type == "thema"], config.level_separator) or grid.caption
    out: list[Clause] = []
    group = ""
    for r in range(grid.n_rows):
        row = grid.row_cells(r)
        for c in row:
            if c.row == r and c.text:
                if c.type == "finalImportant":
                    group = c.text
                elif c.type == "finalNonImportant":
                    out.append(Clause(r, c.text, "note"))
        if is_header_row[r]:
            continue
        data = [c for c in row if c.type == "data" and c.text]
        if not data:
            continue
        row_headers = [c for c in row if c.type == "header" and c.text and c.col < data[0].col + data[0].colspan]
        subject_parts = []
        for h in row_headers:
            corner = column_headers(grid, is_header_row, h.row, range(h.col, h.col + h.colspan),
                                    config.level_separator)
            if corner:
                subject_parts.append(f"{corner}{config.value_separator}{h.text}")
        subject = bool(subject_parts)
        parts = list(subject_parts)
        for d in data:
            column = column_headers(grid, is_header_row, r, range(d.col, d.col + d.colspan),
                                    config.level_separator)
            row_header = "" if subject else _join(
                [_label(h.text) for h in row if h.type == "header" and h.text and h.col < d.col],
                config.level_separator)
            label = config.header_separator.join(x for x in (column, row_header) if x)
            parts.append(f"{label}{config.value_separator}{d.text}" if label else d.text)
        prefix = "".join(x + config.thema_separator for x in (thema, group) if x)
        out.append(Clause(r, prefix + config.cell_separator.join(parts)))
    return out


def unused_cells(grid: Grid, clauses: list[Clause]) -> list[Cell]:
    """Cells with words whose text no clause carries (a header over no data, a cell the
    classifier called neutral although it has words): kept as sentences, so no text is lost."""
    text = "\n".join(c.text for c in clauses)
    return [c for c in grid.cells if c.type != "data" and c.text and any(ch.isalnum() for ch in c.text)
            and _label(c.text) not in text]
