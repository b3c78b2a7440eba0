"""One clause per data row of a typed grid, after the paper's pattern

    thema? ;;? section? ;;? (column header? ; row header? : data /?)+ .

The cell types are the paper's (``corpora/tables/README.md``):

* **thema**: the texts of the table's thema cells (its caption when it has none); it
  starts every clause.
* **section**: a header alone in its row inside the table (a group row: "Europe",
  "Group A", "Singles"), a section header for the rows below it until the next one; it
  follows the thema in their clauses, and it is no column header.
* For each data cell of the row (cells spanning several rows count in each of them;
  empty data cells, missing values, are skipped): its **column header** (the header
  cells covering its columns in the last run of header rows above it, joined from top
  to bottom, so that multi-level headers read "Chart positions - UK") and its **row
  header** (the header cells left of it in the row, else right of it: the row's
  entity, "Anna Meares (AUS)", or a key, "Length"), as ``column ; row: data``: each
  value is bound to its entity ("Time (s) ; Anna Meares (AUS): 11.291", "Rank ; Anna
  Meares (AUS): 1"). A row header whose column has a header of its own comes first with
  it ("Name: Anna Meares (AUS)"), so that the name of the entities' column is read too.
* **finalImportant** cells (a legend, a note or source about every value, at the
  bottom) are sentences of their own, where they stand.
* **finalNonImportant** cells (a header repeated inside the table) are not written.

Separators are settings (``[tables]``): ``thema_separator`` " ;; ",
``header_separator`` " ; ", ``value_separator`` ": ", ``cell_separator`` " / ",
``level_separator`` " - ".
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from operator import attrgetter

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
    """``texts`` joined with ``sep``, empty ones and a repeat of the one before left out."""
    out: list[str] = []
    for t in texts:
        if t and (not out or out[-1] != t):
            out.append(t)
    return sep.join(out)


def _has_alnum(text: str) -> bool:
    """Some character of ``text`` is a letter or a digit (``str.isalnum``); the first one
    looked at alone first (most cells of a big table start with one)."""
    return bool(text) and (text[0].isalnum() or any(ch.isalnum() for ch in text))


def table_thema(grid: Grid, sep: str) -> str:
    """What applies to every data cell of the table: its thema cells' texts joined with
    ``sep``, else its caption ("" when neither)."""
    return _join([c.text for c in grid.cells if c.type == "thema"], sep) or grid.caption


def header_rows(grid: Grid) -> list[bool]:
    """Rows made of headers: at least one header cell starts there and no data cell covers
    it. An empty data cell right of a header (a missing value after the row's key) makes
    a data row too, unless the row's text is one cell (a section header: "01: Ain" over
    empty cells): "13 July 1918 | Albatros D.V | Poperinghe | ∅" is a row of values the
    classifier took for headers, not the column headers of the rows below (an empty
    cell left of the headers is a corner, as in "∅ | m | ft" under "Level"). Not in the
    table's first row of headers or data (under a title row, "Rank | Date | Level | ∅"
    names the columns: no header above it could be bound to its values)."""
    n = grid.n_rows
    has_header = [False] * n
    has_data = [False] * n
    first_header = [grid.n_cols] * n  # leftmost column of a header with text covering the row
    texts = [0] * n  # cells with text covering the row
    blanks = []  # the data cells without text (missing values)
    for c in grid.cells:
        if not c.text:
            if c.type == "data":
                blanks.append(c)
            continue
        kind, row = c.type, c.row
        if kind == "header":
            has_header[row] = True
        if c.rowspan == 1:  # most cells: their own row alone
            texts[row] += 1
            if kind == "data":
                has_data[row] = True
            elif kind == "header" and c.col < first_header[row]:
                first_header[row] = c.col
            continue
        for r in range(row, row + c.rowspan):
            texts[r] += 1
            if kind == "data":
                has_data[r] = True
            elif kind == "header" and c.col < first_header[r]:
                first_header[r] = c.col
    # the first row of headers or data (a thema title row above does not count) names the
    # columns: no column header above it to bind values to, so never a row of values
    first = next((r for r in range(n) if has_header[r] or has_data[r]), n)
    missing = [False] * n
    for c in blanks:
        for r in range(max(c.row, first + 1), c.row + c.rowspan):
            missing[r] = missing[r] or c.col > first_header[r]
    return [h and not d and not (m and t > 1) for h, d, m, t in zip(has_header, has_data, missing, texts)]


def section_rows(grid: Grid, is_header_row: list[bool]) -> dict[int, str]:
    """Header rows that are a section header of the rows below (row -> its text): one
    header with text alone in its row (not the first row), below a row that is not a
    header row, above one, or spanning every column ("01: Ain" between the column
    headers and the airports of that department)."""
    texts: dict[int, list] = {}  # the cells with a letter or digit starting in each header row
    for c in grid.cells:
        if is_header_row[c.row] and _has_alnum(c.text):
            texts.setdefault(c.row, []).append(c)
    out: dict[int, str] = {}
    is_header_row = list(is_header_row)  # a section found is no header row for the next one
    for r in range(1, grid.n_rows):
        own = texts.get(r, [])
        if not is_header_row[r] or len(own) != 1 or own[0].type != "header" or own[0].rowspan > 1:
            continue
        covered = any(c is not own[0] and c.text for c in grid.row_cells(r))  # a rowspan from above
        if covered:
            continue
        below_is_data = r + 1 < grid.n_rows and not is_header_row[r + 1]
        if not is_header_row[r - 1] or below_is_data or (grid.n_cols > 1 and own[0].colspan == grid.n_cols):
            out[r] = own[0].text
            is_header_row[r] = False
    return out


def header_runs(is_header_row: list[bool]) -> list[range]:
    """For each row, the last run of header rows above it (an empty range when none),
    found in one pass over the rows."""
    out: list[range] = []
    last, start = range(0), None
    for r, is_header in enumerate(is_header_row):
        out.append(last if start is None else range(start, r))
        if is_header:
            start = r if start is None else start
        elif start is not None:
            last, start = range(start, r), None
    return out


def column_headers(grid: Grid, run: range, cols: range, sep: str, runs: list[range] | None = None) -> str:
    """Headers over ``cols`` in the header rows of ``run`` (``header_runs``), top to bottom.
    When ``run`` has no header over ``cols`` but a repeated header (finalNonImportant: the
    header of the column again, "Year" in "Year | Title | Role" repeated under a section
    row), the column keeps the headers of the run above (``runs[run.start]``), and so on
    up (a loop, not recursion: a long table may repeat its header hundreds of times)."""
    while True:
        texts: list[str] = []
        seen: set[int] = set()
        repeated = False
        for rr in run:
            for col in cols:
                c = grid.slots[rr][col]
                if c is not None and id(c) not in seen and c.type == "header" and c.text:
                    seen.add(id(c))
                    texts.append(_label(c.text))
                elif c is not None and c.type == "finalNonImportant" and c.text:
                    repeated = True
        if not texts and repeated and runs is not None and run and runs[run.start]:
            run = runs[run.start]
            continue
        return _join(texts, sep)


def build_clauses(grid: Grid, config: TablesConfig) -> list[Clause]:
    """The clauses of a data table whose cells are typed, in row order."""
    is_header_row = header_rows(grid)
    sections = section_rows(grid, is_header_row)
    for r in sections:  # a section header is no column header
        is_header_row[r] = False
    thema = table_thema(grid, config.level_separator)
    runs = header_runs(is_header_row)
    # the column headers of a value, joined once per run of header rows and columns (the
    # columns named by their first and width, or by the first alone when no cell spans)
    known: dict[tuple[int, int], dict] = {}
    value_sep, header_sep, level_sep = config.value_separator, config.header_separator, config.level_separator
    cell_sep = config.cell_separator
    spanning = bool(grid.spanning)

    def headers_over(run: range, col: int, span: int) -> str:
        in_run = known.setdefault((run.start, run.stop), {})
        key = (col, span) if spanning else col
        text = in_run.get(key)
        if text is None:
            text = in_run[key] = column_headers(grid, run, range(col, col + span), level_sep, runs)
        return text

    out: list[Clause] = []
    prefix = "".join(x + config.thema_separator for x in (thema,) if x)
    for r in range(grid.n_rows):
        row = grid.row_cells(r)
        if r in sections:
            prefix = "".join(x + config.thema_separator for x in (thema, sections[r]) if x)
            continue
        data, headers = [], []  # the row's data and header cells with text, left to right
        for c in row:
            kind = c.type
            if kind == "data":
                if c.text:
                    data.append(c)
            elif kind == "header":
                if c.text:
                    headers.append(c)
            elif kind == "finalImportant" and c.row == r and c.text:
                out.append(Clause(r, c.text, "note"))
        if is_header_row[r] or not data:
            continue
        parts = []
        for h in headers:  # the entity with the name of its column ("Name: Anna Meares (AUS)")
            corner = headers_over(runs[h.row], h.col, h.colspan)
            if corner and corner != _label(h.text):
                parts.append(f"{corner}{value_sep}{h.text}")
        run = runs[r]
        in_run = known.setdefault((run.start, run.stop), {})
        # the row headers bound to a value are those left of it, else those right of it (a
        # rank before the name): the same for every value with as many headers left of it
        # (or, with none, right of it), joined once per row and count, not once per value
        header_cols = sorted(h.col for h in headers)
        keys = [(d.col, d.colspan) for d in data] if spanning else list(map(_COL, data))  # each value's columns
        for key in set(keys).difference(in_run):
            col, span = key if spanning else (key, 1)
            headers_over(run, col, span)
        columns = list(map(in_run.__getitem__, keys))
        first_col = min(keys)[0] if spanning else min(keys)
        if not headers or header_cols[-1] < first_col:  # every header left of every value: one row header
            row_header = _join([_label(h.text) for h in headers], level_sep)
            parts += _values(columns, map(_TEXT, data), row_header, header_sep, value_sep)
            out.append(Clause(r, prefix + cell_sep.join(parts)))
            continue
        row_headers: dict[int, str] = {}
        for d, column in zip(data, columns):
            left = bisect_left(header_cols, d.col)
            count = left if left else -1 - (len(header_cols) - bisect_right(header_cols, d.col))
            row_header = row_headers.get(count)
            if row_header is None:
                bound = [h for h in headers if h.col < d.col] or [h for h in headers if h.col > d.col]
                row_header = row_headers[count] = _join([_label(h.text) for h in bound], level_sep)
            label = column + header_sep + row_header if column and row_header else column or row_header
            parts.append(f"{label}{value_sep}{d.text}" if label else d.text)
        out.append(Clause(r, prefix + cell_sep.join(parts)))
    return out


_TEXT, _COL = attrgetter("text"), attrgetter("col")


def _values(columns, texts, row_header: str, header_sep: str, value_sep: str) -> list[str]:
    """``column ; row: value`` of the values of a row that share one row header (``""``:
    none), from their column headers (``""``: none) and texts, as :func:`build_clauses`
    writes each value (one with neither is its text alone): the separators joined once
    per row, not once per value."""
    if row_header:
        both, alone = header_sep + row_header + value_sep, row_header + value_sep
        return [f"{c}{both}{t}" if c else f"{alone}{t}" for c, t in zip(columns, texts)]
    return [f"{c}{value_sep}{t}" if c else t for c, t in zip(columns, texts)]


def unused_cells(grid: Grid, clauses: list[Clause]) -> list[Cell]:
    """Cells with words whose text no clause carries (a header over no data, a cell the
    classifier called neutral although it has words): kept as sentences, so no text is
    lost. Not the repeated headers (finalNonImportant): they are not written; nor the
    header over a column of row headers ("Name" above the names: the paper's clause
    binds each value to the entity, not to the name of the entities' column)."""
    text = "\n".join(c.text for c in clauses)
    by_row: dict[int, list[str]] = {}
    for clause in clauses:
        by_row.setdefault(clause.row, []).append(clause.text)

    def carried(c: Cell) -> bool:
        """Some clause holds the cell's label: the clauses of its own rows first (a row
        header is in its row's clause), the whole text only if not (a search of the whole
        text for each of a long table's row headers would be quadratic)."""
        label = _label(c.text)
        return any(label in t for r in range(c.row, c.row + c.rowspan) for t in by_row.get(r, ())) \
            or label in text

    candidates = [c for c in grid.cells if c.type not in ("data", "finalNonImportant") and c.text]
    kept = {c.index: carried(c) for c in candidates}
    entity_columns = {col for c in candidates if c.type == "header" and kept[c.index]
                      for col in range(c.col, c.col + c.colspan)}
    return [c for c in candidates if _has_alnum(c.text) and not kept[c.index]
            and not (c.type == "header" and entity_columns.issuperset(range(c.col, c.col + c.colspan)))]
