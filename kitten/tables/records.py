"""A data table as records: one dict per data row, keyed by its column headers.

Built from the typed grid of the tables step (``grid.py``, cell types of
``celltypes.py``), with the row analysis of ``clauses.py``, so that a table's records and
its clauses describe the same rows:

* **Which rows.** A row is a record when it makes a row clause: not a header row, not a
  section row ("Group A" alone in its row), and with at least one data cell with text.
  Legends and notes (finalImportant) and repeated headers (finalNonImportant) are not
  records.
* **Keys.** Each grid column's key is the text of the header cells over it in the last
  run of header rows above the record (as the clauses read it), top to bottom, joined
  with :data:`LEVEL_SEPARATOR` (``"Chart positions / UK"``); a header spanning two header
  rows counts once, a trailing colon is dropped. A column without a header is
  ``"column N"`` (N from 1). Two columns with the same key are told apart by
  ``" (2)"``, ``" (3)"``... in column order.
* **Values.** The text of the cell covering the slot (white space collapsed): a cell
  spanning several rows or columns gives its text to each slot it covers (as the
  Wikipedia CSVs do); a slot no cell covers is ``None``; an empty cell is ``""``. Row
  header cells (the row's entity, "Anna Meares (AUS)") are values like any other, under
  their own column's key ("Name": "Anna Meares (AUS)").
* **Thema and section.** When the table has a thema (its thema cells, else its caption)
  every record has it under :data:`THEMA_KEY`; a record under a section row has that
  section's text under :data:`SECTION_KEY`. Both keys start with ``@`` so that no column
  header takes them (a column named "Section" is common).

Keys keep the column order. Pure functions of the grid; nothing is changed.
"""
from __future__ import annotations

from kitten.tables.clauses import column_headers, header_rows, header_runs, section_rows, table_thema
from kitten.tables.grid import Grid

#: separator of the levels of a multi-row column header
LEVEL_SEPARATOR = " / "
#: key of the table's thema (thema cells, else caption) in each record
THEMA_KEY = "@thema"
#: key of the section a record is under ("Group A")
SECTION_KEY = "@section"

Record = dict[str, "str | None"]


def column_keys(grid: Grid, run: range, level_separator: str = LEVEL_SEPARATOR) -> list[str]:
    """The key of each column of ``grid`` under the header rows of ``run``: its headers
    joined top to bottom, ``"column N"`` when it has none, repeated keys numbered."""
    keys = []
    seen: dict[str, int] = {}
    for col in range(grid.n_cols):
        key = column_headers(grid, run, range(col, col + 1), level_separator) or f"column {col + 1}"
        n = seen.get(key, 0) + 1
        seen[key] = n
        keys.append(key if n == 1 else f"{key} ({n})")
    return keys


def table_records(grid: Grid, level_separator: str = LEVEL_SEPARATOR,
                  thema_separator: str = " - ") -> list[Record]:
    """The records of a data table whose cells are typed (see the module docstring)."""
    is_header_row = header_rows(grid)
    sections = section_rows(grid, is_header_row)
    for r in sections:  # a section header is no column header
        is_header_row[r] = False
    thema = table_thema(grid, thema_separator)
    runs = header_runs(is_header_row)
    keys_of: dict[tuple[int, int], list[str]] = {}  # one key list per header run
    out: list[Record] = []
    section = ""
    for r in range(grid.n_rows):
        if r in sections:
            section = sections[r]
            continue
        if is_header_row[r] or not any(c.type == "data" and c.text for c in grid.row_cells(r)):
            continue
        run = runs[r]
        keys = keys_of.get((run.start, run.stop))
        if keys is None:
            keys = keys_of[(run.start, run.stop)] = column_keys(grid, run, level_separator)
        record: Record = {}
        if thema:
            record[THEMA_KEY] = thema
        if section:
            record[SECTION_KEY] = section
        for key, cell in zip(keys, grid.slots[r]):
            record[key] = None if cell is None else cell.text
        out.append(record)
    return out


def records_frame(records: list[Record]):
    """The records as a pandas DataFrame (columns in first-seen order); needs pandas."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("records_frame needs pandas: pip install pandas") from None
    return pd.DataFrame.from_records(records)
