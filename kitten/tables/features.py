"""Features of leaf tables (data vs layout) and of their cells (six cell types).

Every feature is a number; the names below are those the model files refer to.

Table features (Wang & Hu 2002, then those the original system added):

=========================  ==================================================================
``rows``, ``cols``          number of rows and columns of the grid
``cells_row_mean/sd``       mean and standard deviation of the number of cells per row
``cells_col_mean/sd``       the same per column ("rows per column")
``len_mean/sd``             mean and standard deviation of cell text length (characters)
``link_ratio``              share of non-empty cells whose text is (almost) all link text
``form_ratio``              share of cells holding a form control (input, select, textarea, button)
``image_ratio``             share of cells holding an image
``alpha_ratio``             share of non-empty cells whose text is alphabetic
``digit_ratio``             share of non-empty cells that are numbers or dates
``empty_ratio``             share of cells without text
``len_consistency_row/col`` cumulative length consistency (Wang & Hu): 1 - mean relative
                            deviation of the cell lengths along each column (row), averaged
``type_consistency_row/col`` content type consistency: share of the dominant text type along
                            each column (row), averaged
``short_ratio``,            word group feature (a proxy of Wang & Hu's): share of non-empty
``words_mean``              cells of 1-4 words, and mean words per cell
``empty_rows``,             rate of rows (columns) with at least one empty cell
``empty_cols``
``has_form``                the table holds a form control
``has_caption``             the table has a caption
``tags``                    number of elements inside the table (log2)
``embedded``                the leaf table sits inside another table
``th_ratio``                share of cells that are ``th``
``thead``                   the table has a ``thead``
``span_ratio``              share of cells spanning several rows or columns
``first_row_th``            share of first-row cells that are ``th`` or emphasized
``long_ratio``              share of non-empty cells over 80 characters
=========================  ==================================================================

Cell features:

=========================  ==================================================================
``row``, ``col``            position (0-based) and ``row_rel``, ``col_rel`` (position / size)
``first_row``,              the cell is in the first row (below title rows: rows of one cell
``first_col``, ``last_row`` across the table) / in the first column / in the last row
``rowspan``, ``colspan``    height and width, and ``full_width`` (covers every column)
``row_merged``,             rate of merged (spanning) cells in its row and in its column
``col_merged``
``breaks``                  number of line breaks in the cell
``th``                      the cell is a ``th``
``emphasis``                share of its text in b/strong/em/i/u/h1-h6 or bold/italic style
``numeric``, ``date``,      text type of the cell
``alpha``, ``empty``
``length``, ``words``       text length (characters) and words
``link``                    the text is (almost) all link text
``row_agree``,              agreement with its row and column: share of the other cells of the
``col_agree``               row (column) with the same text type
``row_th``, ``col_th``      share of ``th`` cells in its row and column
``row_empty``, ``col_empty`` share of empty cells in its row and column
``above_th``, ``left_th``   the cell above (left) is a ``th``
``section``                 0 tbody, 1 thead, 2 tfoot
``ends_colon``              the text ends with a colon (a label)
``table_th``                share of ``th`` cells in the table
``table_rows``,             size of the table
``table_cols``
``first_text``              the cell is the first non-empty cell of its row
``col_top_text``            the top cell of its column (in the first row below title rows,
                            above the cell) has text: a header row or a corner names it
``col_top_th``              that top cell is a ``th`` or emphasized
``row_numeric``             share of numbers and dates among the other cells of the row
``col_alpha``               share of alphabetic cells among the other cells of the column
``col_len_rel``             cell length over the mean length of its column
``row_emph``                share of emphasized (or ``th``) cells in the row
``top_differs``             share of columns whose top cell (below title rows) has another
                            text type than most cells below it (the row names the columns)
``top_strong``              share of emphasized (or ``th``) cells in that row
``col_distinct``,           the row's identifying column: distinct texts among the column's
``first_alpha_col``,        body cells, the column is the first whose body is mostly words,
``col_links``               share of link cells in the column's body
``same_as_top``             the cell, below the top row, has the text of the top cell of its
                            column (case and spaces ignored): a header repeated inside the
                            table ("Season | Club | League" again under a section row)
``row_same_as_top``         share of the row's cells with text for which ``same_as_top`` holds
``image``                   the cell holds an image (an icon, a flag, a thumbnail: a value even
                            without text)
``above_empty``,            the cell above (below) is empty: 1, holds text: 0, outside the
``below_empty``             grid: -1 (spacer rows and columns, missing values in a column of
                            values)
``same_as_header``          the cell, below the top row, has the text (case and spaces ignored)
                            of a cell above it in its column in a row of headers (the top
                            row, or a row whose cells with text are mostly ``th`` or
                            emphasized): a repeated header where the table has several
                            header rows or sections
``row_same_as_header``      share of the row's cells with text for which ``same_as_header``
                            holds
``col_th_body``             share of ``th`` among the column's cells below the top row (a
                            column of row headers)
``rows_below``              rows of the grid below the cell (0 in the last row)
``note_mark``               the text opens as a note: a footnote mark (``*``, ``†``, ``a)``,
                            ``[1]``) or the word of a source, note, key or legend
``row_texts``               cells with text in the cell's row (a legend is one cell)
=========================  ==================================================================
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat

from lxml import etree

from kitten.lists import letter_count
from kitten.native import checked
from kitten.tables.grid import Cell, Grid

NS = "{http://www.w3.org/1999/xhtml}"
_A, _IMG = NS + "a", NS + "img"
_FORM = frozenset(NS + t for t in ("input", "select", "textarea", "button"))
_EMPH = frozenset(NS + t for t in ("b", "strong", "em", "i", "u", "h1", "h2", "h3", "h4", "h5", "h6"))
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|[6-9]00)|font-style\s*:\s*italic", re.I)

#: a number: signs, currency, punctuation and digits, at least one digit, and a short unit;
#: the first class leaves the digits out, so the first digit ends it (no backtracking over
#: every digit of a long figure; the same texts as with the digits in both classes)
_NUMBER = re.compile(
    r"^[\s$€£¥₹%+\-–—−±~≈<>.,:;/()'\[\]#*]*\d[\s$€£¥₹%+\-–—−±~≈<>.,:;/()'\[\]#*\d]*"
    r"(?:[a-zA-Zµ°²³%]{1,5}\.?)?$")
_MONTHS = ("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|janv|févr|fevr|mars|avr|mai|juin|juil"
           "|août|aout|sept|oct|nov|déc|dec")
_DATE = re.compile(
    rf"^(?:\d{{1,4}}[-/.]\d{{1,2}}[-/.]\d{{1,4}}|(?:1[5-9]|20)\d\d|(?:\d{{1,2}}(?:st|nd|rd|th|er)?\s+)?"
    rf"(?:{_MONTHS})[a-zé]*\.?,?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?,?)?(?:\s+\d{{2,4}})?)$", re.I)
#: a text that opens as a note about the table: a footnote mark ("*", "†", "a)", "[1] ")
#: or the word of a note, source, key or legend (English words: the corpus holds English
#: tables but for a few)
_NOTE = re.compile(r"^(?:[*†‡§¶#^]|\(?[a-z1-9]\)\s|\[[a-z1-9]\]\s"
                   r"|(?:sources?|notes?|key|legend|footnotes?|abbreviations?)\b)", re.I)

def text_type(text: str) -> str:
    """``empty``, ``date``, ``numeric`` (short texts only), ``alpha`` (half the characters
    but spaces are letters) or ``other``."""
    if not text:
        return "empty"
    if len(text) <= 40:
        if _DATE.match(text):
            return "date"
        if _NUMBER.match(text):
            return "numeric"
    spaceless = text.replace(" ", "")
    if spaceless.isalpha():  # letters only (str.isalpha's letters are all letter_count's too)
        return "alpha"
    return "alpha" if letter_count(text) >= 0.5 * len(spaceless) else "other"


@dataclass(slots=True)
class Markup:
    """What a cell holds besides text (one walk of its elements)."""

    link_chars: int = 0
    images: int = 0
    forms: int = 0
    emphasis_chars: int = 0
    tags: int = 0


def markup(cell: Cell) -> Markup:
    """What ``cell`` holds besides text: its elements counted (in C when it is built,
    ``kitten/_links.c``, else by :func:`walk_markup`: the same counts), its own style."""
    m = Markup()
    if len(cell.element):  # most cells of a big table hold text only: no walk to start
        c_markup = _c_cell_markup()
        counts = c_markup(cell.element, _BOLD_STYLE.search) if c_markup is not None else None
        if counts is None:  # not built, or a style the C walk leaves to lxml
            walk_markup(cell.element, m)
        else:
            m.tags, m.link_chars, m.images, m.forms, m.emphasis_chars = counts
    style = cell.element.get("style")
    if style and _BOLD_STYLE.search(style):
        m.emphasis_chars = max(m.emphasis_chars, len(cell.text))
    return m


def walk_markup(element, m: Markup) -> None:
    """Count into ``m`` what the elements under a cell's ``element`` hold (counted in
    locals, added once): ``markup`` in Python, the reference of the C walk."""
    tags = links = images = forms = emphasis = 0
    for el in element.iterdescendants():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        tags += 1
        if tag == _A and el.get("href") is not None:
            links += _text_length(el)
        elif tag == _IMG:
            images += 1
        elif tag in _FORM:
            forms += 1
        elif tag in _EMPH:
            emphasis += _text_length(el)
        else:
            style = el.get("style")
            if style and _BOLD_STYLE.search(style):
                emphasis += _text_length(el)
    m.tags += tags
    m.link_chars += links
    m.images += images
    m.forms += forms
    m.emphasis_chars += emphasis


def _text_length(el) -> int:
    """Characters of the text under ``el`` (its own and its descendants', not its tail),
    spaces at the ends left out: an element without children is its ``text`` alone."""
    if len(el):
        return len("".join(el.itertext()).strip())
    text = el.text
    return len(text.strip()) if text else 0


#: a cell whose markup :func:`_c_cell_markup` counts in C and in Python: links with and
#: without href, nested, around comments, CDATA and non-ASCII text and spaces, images,
#: form controls, emphasis by tag and by style, an element of another namespace
_PROBE = ('<td xmlns="http://www.w3.org/1999/xhtml"> \u00a0<a href="/">\u2003 Top <b>1</b><!--c-->²\u3000</a>'
          '<a name="n">anchor</a><span style="font-weight: bold">été<![CDATA[ x<y ]]> </span>'
          '<span style="color:red">no</span><span style="">e</span><img src="i.png"/><input/>'
          '<i><a href="/x"> 日本語 </a></i><h3>  </h3><svg xmlns="http://www.w3.org/2000/svg" '
          'style="font-style:italic"><text>s</text></svg><?pi x?>t</td>')


@lru_cache(maxsize=1)
def _c_cell_markup():
    """``kitten._links.cell_markup``, or None when the module is not built (no C compiler
    or no lxml headers at install) or counts the markup of :data:`_PROBE` otherwise than
    :func:`walk_markup` (it reads lxml's element and libxml2's node structs as the
    headers of its build declare them; :func:`kitten.native.checked`)."""
    cell = etree.fromstring(_PROBE)
    m = Markup()
    walk_markup(cell, m)
    counts = (m.tags, m.link_chars, m.images, m.forms, m.emphasis_chars)
    return checked("kitten._links", "cell_markup", lambda c: c(cell, _BOLD_STYLE.search) == counts)


def is_link_cell(cell: Cell, m: Markup) -> bool:
    """The cell's text is (almost) all link text."""
    return bool(cell.text) and m.link_chars >= 0.9 * len(cell.text)


def _mean_sd(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _consistency_len(groups: list[list[int]]) -> float:
    scores = []
    for lengths in groups:
        if len(lengths) < 2:
            continue
        mean = sum(lengths) / len(lengths)
        if mean == 0:
            continue
        dev = sum(abs(x - mean) for x in lengths) / len(lengths)
        scores.append(max(0.0, 1.0 - dev / mean))
    return sum(scores) / len(scores) if scores else 0.0


def _consistency_type(groups: list[list[str]]) -> float:
    scores = []
    for types in groups:
        types = [t for t in types if t != "empty"]
        if len(types) < 2:
            continue
        counts: dict[str, int] = {}
        for t in types:
            counts[t] = counts.get(t, 0) + 1
        scores.append(max(counts.values()) / len(types))
    return sum(scores) / len(scores) if scores else 0.0


@dataclass(slots=True)
class TableView:
    """What the features of a table and of its cells are computed from (computed once)."""

    grid: Grid
    types: list[str]  # text type of each cell (by ``Cell.index``)
    marks: list[Markup]  # markup of each cell (by ``Cell.index``; shared by plain cells: read only)
    rows: list[list[Cell]]  # distinct cells covering each row
    cols: list[list[Cell]]  # distinct cells covering each column
    links: list[bool]  # each cell is a link cell (``is_link_cell``; by ``Cell.index``)
    row_ix: list[list[int]]  # ``rows`` as cell indexes
    col_ix: list[list[int]]  # ``cols`` as cell indexes


def view(grid: Grid) -> TableView:
    """The view of ``grid``: each text typed once per table (``text_type`` is a function of
    the text alone), and the cells that hold no element and no style (most cells of a big
    table) sharing one ``Markup`` of zeros, which nothing changes."""
    types = _text_types([c.text for c in grid.cells])
    plain = Markup()
    marks = [markup(c) if len(c.element) or c.element.get("style") is not None else plain for c in grid.cells]
    rows = [grid.row_cells(r) for r in range(grid.n_rows)]
    cols = [grid.col_cells(c) for c in range(grid.n_cols)]
    links = [m is not plain and is_link_cell(c, m) for c, m in zip(grid.cells, marks)]
    return TableView(grid, types, marks, rows, cols, links, [[c.index for c in row] for row in rows],
                     [[c.index for c in col] for col in cols])


def _text_types(texts: list[str]) -> list[str]:
    """``text_type`` of each of ``texts``, computed once per distinct text."""
    known: dict[str, str] = {}
    out = []
    for text in texts:
        t = known.get(text)
        if t is None:
            t = known[text] = text_type(text)
        out.append(t)
    return out


TABLE_FEATURES = (
    "rows", "cols", "cells_row_mean", "cells_row_sd", "cells_col_mean", "cells_col_sd", "len_mean",
    "len_sd", "link_ratio", "form_ratio", "image_ratio", "alpha_ratio", "digit_ratio", "empty_ratio",
    "len_consistency_row", "len_consistency_col", "type_consistency_row", "type_consistency_col",
    "short_ratio", "words_mean", "empty_rows", "empty_cols", "has_form", "has_caption", "tags",
    "embedded", "th_ratio", "thead", "span_ratio", "first_row_th", "long_ratio",
)


def table_features(v: TableView, embedded: bool) -> list[float]:
    g = v.grid
    cells = g.cells
    n = len(cells) or 1
    texts = [c.text for c in cells]
    filled = [c for c in cells if c.text]
    nf = len(filled) or 1
    per_row = [sum(1 for c in row if c.row == r) for r, row in enumerate(v.rows)]
    per_col = [len(col) for col in v.cols]
    lengths = [len(t) for t in texts]
    words = [len(c.text.split()) for c in filled]
    marks = v.marks
    types = v.types
    # the cells counted in one pass: links, numbers and dates, words and long texts among
    # those with text; form controls, images, tags, th and spanning cells among all
    links = forms = images = alpha = digit = tags = th = spans = long = 0
    thead = False
    for c in cells:
        i = c.index
        m = marks[i]
        forms += 1 if m.forms else 0
        images += 1 if m.images else 0
        tags += m.tags + 1
        th += c.tag == "th"
        spans += c.rowspan > 1 or c.colspan > 1
        thead = thead or c.section == "thead"
        if c.text:
            links += 1 if v.links[i] else 0
            t = types[i]
            alpha += t == "alpha"
            digit += t in ("numeric", "date")
            long += len(c.text) > 80
    empty_rows = sum(1 for row in v.rows if any(not c.text for c in row)) / (g.n_rows or 1)
    empty_cols = sum(1 for col in v.cols if any(not c.text for c in col)) / (g.n_cols or 1)
    first = v.rows[0] if v.rows else []
    first_th = sum(1 for c in first if c.tag == "th" or (c.text and marks[c.index].emphasis_chars >= 0.8 * len(c.text)))
    rm, rs = _mean_sd(per_row)
    cm, cs = _mean_sd(per_col)
    lm, ls = _mean_sd(lengths)
    return [
        g.n_rows, g.n_cols, rm, rs, cm, cs, lm, ls,
        links / nf, forms / n, images / n, alpha / nf, digit / nf, 1 - len(filled) / n,
        _consistency_len([[len(c.text) for c in row] for row in v.rows]),
        _consistency_len([[len(c.text) for c in col] for col in v.cols]),
        _consistency_type([[types[c.index] for c in row] for row in v.rows]),
        _consistency_type([[types[c.index] for c in col] for col in v.cols]),
        sum(1 for w in words if w <= 4) / nf, sum(words) / nf,
        empty_rows, empty_cols, float(forms > 0), float(bool(g.caption)), math.log2(tags + 1),
        float(embedded), th / n, float(thead), spans / n, first_th / (len(first) or 1), long / nf,
    ]


CELL_FEATURES = (
    "row", "col", "row_rel", "col_rel", "first_row", "first_col", "last_row", "rowspan", "colspan",
    "full_width", "row_merged", "col_merged", "breaks", "th", "emphasis", "numeric", "date", "alpha",
    "empty", "length", "words", "link", "row_agree", "col_agree", "row_th", "col_th", "row_empty",
    "col_empty", "above_th", "left_th", "section", "ends_colon", "table_th", "table_rows", "table_cols",
    "first_text", "col_top_text", "col_top_th", "row_numeric", "col_alpha", "col_len_rel", "row_emph",
    "top_differs", "top_strong",
    # the row's identifying column: distinct texts among the column's body cells, the
    # column is the first whose body is mostly words (not numbers, dates), share of
    # link cells in the column's body
    "col_distinct", "first_alpha_col", "col_links",
    # a header row repeated inside the table (finalNonImportant): the cell's text is that of
    # the top cell of its column, and the share of such cells in its row
    "same_as_top", "row_same_as_top",
    # what an empty cell is (a missing value in a column of values, an icon, or a spacer):
    # the cell holds an image; the cells above and below it are empty (1), hold text (0) or
    # are outside the grid (-1)
    "image", "above_empty", "below_empty",
    # a header repeated inside the table, compared with the whole header run above
    "same_as_header", "row_same_as_header",
    # the column's body cells written as th (a column of row headers)
    "col_th_body",
    # material at the bottom of the table (finalImportant): rows of the grid below the cell,
    # the text opens as a note, a source, a key or a footnote mark, cells with text in its row
    "rows_below", "note_mark", "row_texts",
)
_SECTION = {"tbody": 0.0, "thead": 1.0, "tfoot": 2.0}


def cell_features(v: TableView, breaks: dict) -> list[tuple]:
    """One feature vector per cell of ``v.grid.cells`` (same order), a tuple in the order
    of :data:`CELL_FEATURES`. ``breaks``: cell element -> number of line breaks.

    Computed feature by feature: each feature a list (or an iterator) over the cells, a
    value of a row or column looked up by the cell's row or column, the vectors made by
    one ``zip`` at the end; the rows and columns are read as lists of cell indexes. Each
    value is the same number, of the same type, as a cell's own expression would give:
    a 1,900 x 50 table's 95,000 vectors in a fraction of the time of a loop building a
    list per cell."""
    g = v.grid
    cells = g.cells
    n = len(cells)
    types, marks, links = v.types, v.marks, v.links
    slots, rows_total, cols_total = g.slots, g.n_rows, g.n_cols
    n_rows, n_cols = rows_total or 1, cols_total or 1
    row_ix, col_ix = v.row_ix, v.col_ix

    # per cell (by Cell.index): where it is, its text, and what is counted of it
    row = [c.row for c in cells]
    col = [c.col for c in cells]
    rowspan = [c.rowspan for c in cells]
    colspan = [c.colspan for c in cells]
    text = [c.text for c in cells]
    length = list(map(len, text))
    has_text = list(map(bool, text))
    is_th = [c.tag == "th" for c in cells]
    merged = [rs > 1 or cs > 1 for rs, cs in zip(rowspan, colspan)]
    empty = [not t for t in has_text]
    # emphasized (a th, or 80% of its text emphasized), and its text as compared with
    # other cells' (case and spaces ignored)
    is_strong = [th or bool(t) and m.emphasis_chars >= 0.8 * len(t) for th, t, m in zip(is_th, text, marks)]
    key = [" ".join(t.lower().split()) if t else "" for t in text]
    words = [k.count(" ") + 1 if k else 0 for k in key]  # the text's words, from its key
    table_th = sum(is_th) / (n or 1)

    def per_group(flags: list, groups: list[list[int]]) -> list[float]:
        """The share of the cells of each group (row or column) whose flag is set."""
        return [sum(map(flags.__getitem__, ix)) / (len(ix) or 1) for ix in groups]

    row_merged, row_th, row_empty = (per_group(x, row_ix) for x in (merged, is_th, empty))
    col_merged, col_th, col_empty = (per_group(x, col_ix) for x in (merged, is_th, empty))
    row_emph = per_group(is_strong, row_ix)
    col_len = per_group(length, col_ix)  # the mean length of the column's cells
    # the top of the grid: the first row below title rows (one cell across the table)
    top_row = next((r for r, ix in enumerate(row_ix) if len(ix) > 1), 0)
    tops = [slots[top_row][c] for c in range(cols_total)] if rows_total else []
    # per column, over its body (the cells with text below the top row): whether the top
    # cell's type differs from most of the body's, distinct texts, words, links
    differs = 0
    col_distinct, col_alpha, col_links = [], [], []
    for ix, top_cell in zip(col_ix, tops):
        body = [i for i in ix if row[i] > top_row and has_text[i]]
        below = [types[i] for i in body]
        if top_cell is not None and top_cell.text and below:
            counts: dict[str, int] = {}
            for t in below:
                counts[t] = counts.get(t, 0) + 1
            most = max(counts.values())
            differs += counts.get(types[top_cell.index], 0) != most  # a tie counts as agreement
        k = len(body) or 1
        col_distinct.append(len({text[i] for i in body}) / k)
        col_alpha.append(below.count("alpha") / k)
        col_links.append(sum(map(links.__getitem__, body)) / k)
    top_differs = differs / (len(col_ix) or 1)
    top_strong = row_emph[top_row] if row_emph else 0.0
    first_alpha = next((i for i, a in enumerate(col_alpha) if a >= 0.5), -1)
    first_text = [False] * n  # the first cell with text of each row
    for ix in row_ix:
        first = next((i for i in ix if has_text[i]), None)
        if first is not None:
            first_text[first] = True
    top_text = [top is not None and bool(top.text) for top in tops]  # per column
    top_strong_col = [top is not None and is_strong[top.index] for top in tops]
    # same_as_top: a cell below the top row with the text of its column's top cell (case and
    # spaces ignored), a header repeated inside the table; row_same_as_top: the share of
    # such cells among the row's cells with text (a whole repeated header row is near 1)
    row_texts = [sum(map(has_text.__getitem__, ix)) for ix in row_ix]  # cells with text per row
    top_key = [key[top.index] if top is not None else "" for top in tops]
    same_top = [k == top_key[cc] != "" and r > top_row and tops[cc] is not c
                for c, r, cc, k in zip(cells, row, col, key)]
    row_same = [sum(map(same_top.__getitem__, ix)) / (row_texts[r] or 1) for r, ix in enumerate(row_ix)]
    # same_as_header: a cell below the top row whose text (case and spaces ignored) is that
    # of a cell above it in its column in a row of headers (the top row, or a row whose
    # cells with text are mostly th or emphasized): a repeated header even where the table
    # has several header rows or sections that rename a column; row_same_as_header: the
    # share of such cells among the row's cells with text. The cells starting in a row are
    # a run of ``cells`` (placed row by row).
    strong_text = [s and t for s, t in zip(is_strong, has_text)]
    seen: list[set] = [set() for _ in range(cols_total)]  # texts of header rows above, per column
    same_head = [False] * n
    start = 0
    for r, ix in enumerate(row_ix):
        stop = start
        while stop < n and row[stop] == r:
            stop += 1
        if r > top_row:
            for i in range(start, stop):
                if has_text[i] and key[i] in seen[col[i]]:
                    same_head[i] = True
        texts = row_texts[r]
        if r >= top_row and texts and (r == top_row or sum(map(strong_text.__getitem__, ix)) * 2 > texts):
            for i in range(start, stop):
                if has_text[i]:
                    for cc in range(col[i], col[i] + colspan[i]):
                        seen[cc].add(key[i])
        start = stop
    row_same_head = [sum(map(same_head.__getitem__, ix)) / (row_texts[r] or 1) for r, ix in enumerate(row_ix)]
    col_th_body = []  # the share of th among the column's cells below the top row
    for ix in col_ix:
        body = [i for i in ix if row[i] > top_row]
        col_th_body.append(sum(map(is_th.__getitem__, body)) / (len(body) or 1))

    # a cell's shares of its row's (column's) other cells by text type: the types counted
    # once per row and column, each share a subtraction, not a scan
    row_by_type = [_by_type(_type_counts(ix, types), (len(ix) - 1) or 1, "numeric", "date") for ix in row_ix]
    col_by_type = [_by_type(_type_counts(ix, types), (len(ix) - 1) or 1, "alpha") for ix in col_ix]
    row_agree, row_numeric = zip(*[row_by_type[r][t] for r, t in zip(row, types)]) if n else ((), ())
    col_agree, col_alpha_share = zip(*[col_by_type[cc][t] for cc, t in zip(col, types)]) if n else ((), ())
    # the neighbours: the cell above, left of and below the cell (None: no cell there)
    above = [slots[r - 1][cc] if r else None for r, cc in zip(row, col)]
    left = [slots[r][cc - 1] if cc else None for r, cc in zip(row, col)]
    below_row = [r + rs for r, rs in zip(row, rowspan)]
    below_top = [r > top_row and tops[cc] is not c for c, r, cc in zip(cells, row, col)]

    def by_row(values: list):
        return map(values.__getitem__, row)

    def by_col(values: list):
        return map(values.__getitem__, col)

    def flag(values) -> list[float]:
        return [1.0 if x else 0.0 for x in values]

    def same(value) -> repeat:
        return repeat(value, n)

    columns = (
        row, col, [r / n_rows for r in row], [cc / n_cols for cc in col], [1.0 if r == top_row else 0.0 for r in row],
        [1.0 if cc == 0 else 0.0 for cc in col], [1.0 if b >= rows_total else 0.0 for b in below_row],
        rowspan, colspan, [1.0 if cs >= n_cols and n_cols > 1 else 0.0 for cs in colspan],
        by_row(row_merged), by_col(col_merged), [breaks.get(c.element, 0) for c in cells], flag(is_th),
        [min(1.0, m.emphasis_chars / k) if k else 0.0 for m, k in zip(marks, length)],
        *([1.0 if t == x else 0.0 for t in types] for x in ("numeric", "date", "alpha", "empty")),
        length, words, flag(links),
        row_agree, col_agree,
        by_row(row_th), by_col(col_th), by_row(row_empty), by_col(col_empty),
        [1.0 if a is not None and a.tag == "th" else 0.0 for a in above],
        [1.0 if a is not None and a.tag == "th" else 0.0 for a in left],
        [_SECTION.get(c.section, 0.0) for c in cells], [1.0 if t.endswith(":") else 0.0 for t in text],
        same(table_th), same(rows_total), same(cols_total),
        flag(first_text),
        [1.0 if b and t else 0.0 for b, t in zip(below_top, by_col(top_text))],
        [1.0 if b and t else 0.0 for b, t in zip(below_top, by_col(top_strong_col))],
        row_numeric, col_alpha_share,
        [k / mean if mean else 0.0 for k, mean in zip(length, by_col(col_len))],
        by_row(row_emph), same(top_differs), same(top_strong),
        by_col(col_distinct), [1.0 if cc == first_alpha else 0.0 for cc in col], by_col(col_links),
        flag(same_top), by_row(row_same),
        [1.0 if m.images > 0 else 0.0 for m in marks],
        [(1.0 if a is None or not a.text else 0.0) if r else -1.0 for a, r in zip(above, row)],
        [-1.0 if b >= rows_total else (1.0 if slots[b][cc] is None or not slots[b][cc].text else 0.0)
         for b, cc in zip(below_row, col)],
        flag(same_head), by_row(row_same_head), by_col(col_th_body),
        [rows_total - b for b in below_row], [1.0 if _NOTE.match(t) else 0.0 for t in text], by_row(row_texts),
    )
    return list(zip(*columns))


def _by_type(counts: dict[str, int], others: int, *kinds: str) -> dict[str, tuple[float, float]]:
    """For a cell of each text type of ``counts`` (the types of a row or column, the cell
    among them): the share of the ``others`` other cells of its type, and of those of
    ``kinds`` (the cell left out when it is of one of them)."""
    same_kind = sum(counts.get(k, 0) for k in kinds)
    return {t: ((n - 1) / others, (same_kind - (t in kinds)) / others) for t, n in counts.items()}


def _type_counts(ix: list[int], types: list[str]) -> Counter:
    """How many of the cells of indexes ``ix`` have each text type."""
    return Counter(map(types.__getitem__, ix))


#: Features of the second stage of the cell model (collective classification): what the
#: first stage thinks of the cell and of its neighbours.
CONTEXT_FEATURES = (
    "p_header",  # first-stage probability that the cell is a header
    "row_p_header",  # mean of it over the other cells of the row
    "col_p_header",  # ... over the other cells of the column
    "top_p_header",  # ... for the top cell of the column (-1: the cell is the top cell)
    "first_p_header",  # ... for the first cell of the row (-1: the cell is the first cell)
    "row_p_data",  # mean probability of data over the other cells of the row
)


def context_features(v: TableView, probs: list[list[float]], classes: tuple[str, ...]) -> list[list[float]]:
    """Second-stage features of each cell of ``v.grid.cells`` from first-stage class
    probabilities ``probs`` (same order; columns in the order of ``classes``)."""
    h, d = classes.index("header"), classes.index("data")
    p = probs  # by Cell.index
    # sums over each row and column once; a cell's mean over the others subtracts its own
    # (exactly summed, so the order of the cells does not change the result)
    row_h = [math.fsum(p[x.index][h] for x in row) for row in v.rows]
    row_d = [math.fsum(p[x.index][d] for x in row) for row in v.rows]
    col_h = [math.fsum(p[x.index][h] for x in col) for col in v.cols]
    out = []
    for c, pr in zip(v.grid.cells, probs):
        n_row, n_col = len(v.rows[c.row]) - 1, len(v.cols[c.col]) - 1
        top, first = v.cols[c.col][0], v.rows[c.row][0]
        out.append([
            pr[h],
            (row_h[c.row] - pr[h]) / n_row if n_row else 0.0,
            (col_h[c.col] - pr[h]) / n_col if n_col else 0.0,
            p[top.index][h] if top is not c else -1.0,
            p[first.index][h] if first is not c else -1.0,
            (row_d[c.row] - pr[d]) / n_row if n_row else 0.0,
        ])
    return out
