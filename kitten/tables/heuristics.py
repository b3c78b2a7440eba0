"""Rules applied after the cell classifier to fix cell types that contradict their table.

Each rule is a function of the typed grid that changes ``Cell.type`` in place and returns
how many cells it changed; ``fix_types`` runs them in order and returns the names of the
rules that changed something (logged, and shown in the JSON output). The types are the
paper's (``corpora/tables/README.md``).

1. ``narrow_thema``: ``thema`` on a cell spanning less than half of the columns is a header.
2. ``header_row``: in a row of headers, a single data cell that is not a number is a header
   too (the "one data cell in a row of headers" of the original). Only above the table's
   first row with data (the header rows: below it, two headers and a value are a body
   row whose entity the classifier read over two columns, "1892 by-election | Thomas
   Usborne | Conservative"), and not when each of the row's headers is in a column of
   row headers (most of the column's other cells with
   text are headers): such a row names its entity over two columns ("Gortynia |
   Dimitsana" under "New municipality | Old municipalities") and its one data cell is the
   value ("Seat"), not a header.
3. ``numeric_th``: a ``th`` typed header whose text is a number, not in the first column,
   below a numeric data cell of its column, is data: the totals rows of election and
   sports tables ("Total valid votes | 8,817 | 100.00") written in ``th``.
4. ``value_row``: a body row with a missing value (an empty data cell right of its first
   header) but no other data cell, and two header cells or more, is a row of values the
   classifier took for headers ("13 July 1918 | Albatros D.V | Poperinghe | ∅" under
   "Date and time | Opponent | Location | Notes"): its header cells become data in the
   columns where the table's data rows (rows with a data cell with text) mostly have
   data, and stay headers in the columns of row headers. Not in the table's first row
   of headers or data (a title row above it, thema, does not make it a body row: under
   "Largest floods" the row "Rank | Date | Level | Peak Flow | ∅" names the columns); an
   empty cell left of the headers is a corner ("∅ | m | ft" under
   "Level"), not a missing value. Without the rule the row's values are lost: a row of
   headers over no value writes no clause.
5. ``th_column``: a column whose cells below the first row are all ``th`` (three or more)
   and mostly typed header is a column of row headers: its ``th`` cells with text typed
   data become headers (years written in ``th`` down a list of winners, the classifier
   typed some header and some data; a column half read as values splits the rows'
   clauses into two forms). Under cross validation it changes macro F1 with the
   heuristics by -0.0002; table QA rank 1 78.4% -> 78.7%.

6. ``repeated_header``: below the table's first row with data, a row whose cells with
   text are, for four in five of them and at least two, the first header row's texts in
   the same columns is that header row written again (a long table's repeated header,
   "Season | Club | League"): those cells are finalNonImportant, the paper's type for
   it; the others keep their type. Under cross validation by site (``kitten train
   tables``, forest + heuristics) finalNonImportant F1 0.623 -> 0.784 (precision 0.887
   -> 0.918, recall 0.480 -> 0.684), the other types unchanged: macro F1 0.875 -> 0.902;
   table facts 98.2% and table QA rank 1 78.8% unchanged, table records 226 of 241 both.

Rules of the earlier conventions were removed with them: ``empty_is_neutral`` (an empty
cell under a header is a missing value: data) and ``first_column`` (a first-column
``td`` under its own header was data; it names the row's entity: a header). Two more
were tried and left out because they lowered cell F1 under cross validation
(``data_row``: a single header among data cells becomes data; ``column_votes``: a
column's body cells follow their 70% majority); ``kitten train tables`` prints the
scores with and without the rules. ``full_width`` (a cell with text across every column
became thema above the first data row, a section header between data rows,
finalImportant below the last) was removed after batch N: the cell forest reads such
cells from the labels (its ``full_width`` feature), and the rule contradicted them in 57
of the 62 cells it changed under cross validation by page (header -> thema 15, data ->
header 17, data -> finalImportant 7 ...): macro F1 with the heuristics 0.890 -> 0.914
(thema 0.872 -> 0.936, finalImportant 0.815 -> 0.894), table facts 98.2% both, table
QA rank 1 78.7% -> 78.5% (15 of 7,744 questions).
"""
from __future__ import annotations

from collections import Counter
from itertools import compress, groupby, takewhile
from operator import attrgetter

from kitten.tables.features import TableView, own_rows

_ROW = attrgetter("row")

def narrow_thema(v: TableView) -> int:
    n = 0
    for c in v.grid.cells:
        if c.type == "thema" and v.grid.n_cols > 1 and c.colspan * 2 < v.grid.n_cols:
            c.type = "header"
            n += 1
    return n


def header_row(v: TableView) -> int:
    votes: dict[int, list[int]] | None = None  # column -> [header, data] among its cells with text

    def row_header_column(c) -> bool:  # most of the column's other cells are headers too
        nonlocal votes
        if votes is None:  # counted when a row first asks (most tables: never)
            votes = {}
            for x in v.grid.cells:
                if x.text and x.type in ("header", "data"):
                    votes.setdefault(x.col, [0, 0])[x.type == "data"] += 1
        h, d = votes.get(c.col, (0, 0))
        return h - 1 > d

    n = 0
    for r, row in enumerate(v.rows):
        # below a row with a data cell with text (as the classifier typed it) the rule
        # changes nothing: the rows above the first data row only are looked at
        own = [c for c in row if c.row == r and c.text]
        data = [c for c in own if c.type == "data"]
        headers = [c for c in own if c.type == "header"]
        if len(data) == 1 and len(headers) >= 2 and len(headers) + 1 == len(own):
            if all(row_header_column(c) for c in headers):
                break  # the row's entity in columns of row headers, then its value: a data row
            if v.types[data[0].index] not in ("numeric", "date"):
                data[0].type = "header"
                n += 1
        if data:
            break
    return n


def numeric_th(v: TableView) -> int:
    g = v.grid
    types = v.types
    th = list(map(g.cells.__getitem__, compress(range(len(g.cells)), v.th)))  # (by index: no pass over the cells)
    candidates = [c for c in th if c.col > 0 and c.type == "header" and types[c.index] == "numeric"]
    if not candidates:  # most tables: no numeric th header, no data cell to look at
        return 0
    numeric_data_above: dict[int, int] = {}  # column -> first row with numeric data
    for c in g.cells:
        if c.type == "data" and types[c.index] == "numeric":
            first = numeric_data_above.get(c.col)
            if first is None or c.row < first:
                numeric_data_above[c.col] = c.row
    changes = [c for c in candidates if numeric_data_above.get(c.col, c.row) < c.row]
    for c in changes:
        c.type = "data"
    return len(changes)


def value_row(v: TableView) -> int:
    own = own_rows(v)  # cells starting in each row
    data_rows = [any(c.type == "data" and c.text for c in cells) for cells in own]
    votes: dict[int, list[int]] | None = None  # column -> [header, data] among the data rows' cells
    n = 0
    above = False  # a row of headers or data above: the row is not the table's first
    for r, cells in enumerate(own):
        if not data_rows[r] and above:
            headers = [c for c in cells if c.type == "header" and c.text]
            if len(headers) >= 2 and any(c.type == "data" and c.col > min(h.col for h in headers) for c in cells):
                if votes is None:  # counted when a row first needs them
                    votes = {}
                    for rr, row_cells in enumerate(own):
                        if data_rows[rr]:
                            for c in row_cells:
                                if c.text and c.type in ("header", "data"):
                                    votes.setdefault(c.col, [0, 0])[c.type == "data"] += 1
                for c in headers:
                    h, d = votes.get(c.col, (0, 0))
                    if d > h:
                        c.type = "data"
                        n += 1
        above = above or any(c.text and c.type in ("header", "data") for c in cells)
    return n


def th_column(v: TableView) -> int:
    n = 0
    for col in v.cols:
        if any(c.tag != "th" for c in col if c.row > 0):  # (most columns: at their second cell)
            continue
        body = [c for c in col if c.row > 0]
        if len(body) < 3:
            continue
        typed = [c for c in body if c.text and c.type in ("header", "data")]
        if sum(1 for c in typed if c.type == "header") * 2 > len(typed):
            for c in typed:
                if c.type == "data":
                    c.type = "header"
                    n += 1
    return n


def repeated_header(v: TableView) -> int:
    """Rule 6: the cells of a header row written again inside the table (looked at in
    the rows where two cells hold its texts, found by the view's numbers of the texts)."""
    cells = v.grid.cells  # (in row order)
    first_data = next((c.row for c in cells if c.type == "data" and c.text), -1)
    head: dict[int, str] = {}  # column -> text, of the first row above it with two headers or more
    for _, row_cells in groupby(takewhile(lambda c: c.row < first_data, cells), key=_ROW):
        head = {c.col: c.text for c in row_cells if c.type == "header" and c.text}
        if len(head) >= 2:
            break
    if len(head) < 2:
        return 0
    # a row can repeat the header row only where two of its cells hold its texts in its
    # columns: the cells holding one of them found in one pass (by their texts' numbers)
    ids = v.text_ids
    wanted = {ids.get(t, -1) for t in head.values()}
    found = Counter(c.row for c in map(cells.__getitem__, compress(range(len(cells)), map(wanted.__contains__, v.text_of)))
                    if c.row > first_data and head.get(c.col) == c.text)
    own = own_rows(v)
    n = 0
    for r in sorted(r for r, k in found.items() if k >= 2):
        texts = [c for c in own[r] if c.text]
        same = [c for c in texts if head.get(c.col) == c.text]
        if len(same) >= 2 and len(same) * 5 >= len(texts) * 4:
            for c in same:
                if c.type != "finalNonImportant":
                    c.type = "finalNonImportant"
                    n += 1
    return n


RULES = (narrow_thema, header_row, numeric_th, value_row, th_column, repeated_header)


def fix_types(v: TableView) -> list[str]:
    """Run every rule in order; the names of those that changed a cell."""
    return [rule.__name__ for rule in RULES if rule(v)]
