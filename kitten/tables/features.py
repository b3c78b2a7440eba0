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
``key_col``                 the cell's column is the table's identifying column: the first
                            column whose body (cells with text below the top row, two or more)
                            holds distinct texts none of which is a number or a date, with a
                            column right of it whose body is mostly numbers or dates
``top_words``               the table's top row has two cells with text or more, each of at
                            most four words and none a number or a date, and some column's body
                            is mostly numbers or dates (a header row, th or not)
``emph_vs_below``           the share of emphasized (or ``th``) cells of the cell's row minus
                            its mean over the rows below (0 in the last row)
=========================  ==================================================================
"""
from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from itertools import chain, compress, groupby, repeat
from operator import and_, attrgetter, not_, sub
from dataclasses import dataclass
from functools import lru_cache

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
    if text.isdigit() and text.isascii() and len(text) <= 40:  # what _DATE and _NUMBER say of digits alone
        return "date" if len(text) == 4 and (text[:2] == "20" or text[0] == "1" and text[1] in "56789") \
            else "numeric"
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


def _mean_sd(values: list[int]) -> tuple[float, float]:
    """Mean and standard deviation of ``values`` (ints): each distinct value's squared
    deviation computed once, summed cell by cell in order (the same sum as squaring each)."""
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    squares = {x: pow(x - mean, 2) for x in set(values)}
    return mean, math.sqrt(sum(map(squares.__getitem__, values)) / len(values))


def _consistency_len(groups: list[list[int]]) -> float:
    scores = []
    for lengths in groups:
        if len(lengths) < 2:
            continue
        mean = sum(lengths) / len(lengths)
        if mean == 0:
            continue
        dev = sum(map(abs, map(sub, lengths, repeat(mean)))) / len(lengths)
        scores.append(max(0.0, 1.0 - dev / mean))
    return sum(scores) / len(scores) if scores else 0.0


#: the text types but ``empty``
_FILLED_TYPES = ("numeric", "date", "alpha", "other")


def _consistency_type(groups: list[list[str]]) -> float:
    """The share of the dominant type among each group's cells with text (groups of two
    such cells or more), averaged: counted with ``list.count``, not a Counter a group."""
    scores = []
    for types in groups:
        k = len(types) - types.count("empty")
        if k < 2:
            continue
        scores.append(max(map(types.count, _FILLED_TYPES)) / k)
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
    plain: Markup | None = None  # the Markup of zeros the plain cells share
    groups: tuple | None = None  # ``rows`` and ``cols`` as groups of cell indexes (``_groups``)
    #: the distinct texts of the cells, each mapped to its number (in the order of first
    #: use), and the number of each cell's text (by ``Cell.index``): what is computed of
    #: a text is computed once per distinct text
    text_ids: dict | None = None
    text_of: list[int] | None = None
    #: per cell (by ``Cell.index``), read once from the cells for every feature that needs
    #: them: the text, its length, the cell is a ``th``; and the cells with markup of
    #: their own (not ``plain``), and the row groups the cells are in
    texts: list[str] | None = None
    lengths: list[int] | None = None
    th: list[bool] | None = None
    marked: list[int] | None = None
    sections: frozenset = frozenset()
    own: list[list[Cell]] | None = None  # the cells starting in each row (``own_rows``)
    facts: tuple | None = None  # of each distinct text: key, words, ends_colon, note_mark (``text_facts``)


def view(grid: Grid) -> TableView:
    """The view of ``grid``: each text typed once per table (``text_type`` is a function of
    the text alone), and the cells that hold no element and no style (most cells of a big
    table) sharing one ``Markup`` of zeros, which nothing changes."""
    cells = grid.cells
    texts = list(map(_TEXT, cells))
    ids: dict[str, int] = {}
    text_of = [ids.setdefault(t, len(ids)) for t in texts]  # a new text gets the next number
    types = list(map(list(map(text_type, ids)).__getitem__, text_of))  # each text typed once
    plain = Markup()
    # (an element's attribute names are listed faster than its style is looked up; ``in el``
    # would look among its children)
    marked = [i for i, el in enumerate(map(_ELEMENT, cells)) if len(el) or "style" in el.keys()]  # noqa: SIM118
    marks, links = [plain] * len(cells), [False] * len(cells)
    for i in marked:
        marks[i] = m = markup(cells[i])
        links[i] = is_link_cell(cells[i], m)
    if grid.full:  # each row of slots is its cells; column c is every n_cols-th cell from c
        rows = [list(row) for row in grid.slots]
        cols = [cells[c::grid.n_cols] for c in range(grid.n_cols)]
    else:
        rows = [grid.row_cells(r) for r in range(grid.n_rows)]
        cols = [grid.col_cells(c) for c in range(grid.n_cols)]
    th = [t == "th" for t in map(_TAG, cells)]
    return TableView(grid, types, marks, rows, cols, links, plain, text_ids=ids, text_of=text_of, texts=texts,
                     lengths=list(map(len, texts)), th=th, marked=marked,
                     sections=frozenset(map(_SECTION_OF, cells)))


def _groups(v: TableView) -> tuple[list, list]:
    """The rows and the columns of ``v`` as groups of cell indexes, made once per table: in
    a full grid (``Grid.full``: cell ``r * n_cols + c``) slices, else lists of indexes.
    :func:`_pick` reads a per-cell list over a group (a column's values from per-cell
    lists of numbers or strings, not from Cell objects scattered over memory)."""
    if v.groups is None:
        g = v.grid
        if g.full and g.cells:
            n, cols = len(g.cells), g.n_cols
            v.groups = ([slice(r * cols, (r + 1) * cols) for r in range(g.n_rows)],
                        [slice(c, n, cols) for c in range(cols)])
        else:
            v.groups = ([list(map(_INDEX, row)) for row in v.rows], [list(map(_INDEX, col)) for col in v.cols])
    return v.groups


def own_rows(v: TableView) -> list[list[Cell]]:
    """The cells starting in each row of ``v``, left to right (``grid.cells`` is in row
    order): slices of the cells, made once per table."""
    if v.own is None:
        g = v.grid
        cells = g.cells
        if g.full and cells:
            v.own = [cells[s:s + g.n_cols] for s in range(0, len(cells), g.n_cols)]
        else:
            v.own = [[] for _ in range(g.n_rows)]
            for r, in_row in groupby(cells, key=_ROW):
                v.own[r] = list(in_row)
    return v.own


def _pick(values: list, group) -> list:
    """The items of the per-cell list ``values`` of the cells of a group of ``_groups``."""
    return values[group] if type(group) is slice else list(map(values.__getitem__, group))


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
    lengths = v.lengths
    empty = lengths.count(0)
    filled = len(cells) - empty  # cells with text
    nf = filled or 1
    # the cells starting in each row (a cell whose slots another span splits counted each time)
    per_row = [g.n_cols] * g.n_rows if g.full else [sum(1 for c in row if c.row == r) for r, row in enumerate(v.rows)]
    per_col = [len(col) for col in v.cols]
    # the words of each cell's text, counted once per distinct text (an empty text: 0)
    words = list(map(text_facts(v)[1].__getitem__, v.text_of))
    types = v.types
    # counted over the cells with markup of their own (the plain ones have none): form
    # controls, images, tags (one per cell besides); the text types (an empty text's is
    # "empty"), th, spanning cells and links (a link cell has text) over all
    marked = list(map(v.marks.__getitem__, v.marked))
    forms = sum(1 for m in marked if m.forms)
    images = sum(1 for m in marked if m.images)
    tags = len(cells) + sum(m.tags for m in marked)
    alpha, digit = types.count("alpha"), types.count("numeric") + types.count("date")
    th = v.th.count(True)
    spans = g.spanning
    thead = "thead" in v.sections
    links = v.links.count(True)
    long = sum(map((80).__lt__, lengths))  # longer than 80 characters
    row_groups, col_groups = _groups(v)
    row_lengths = [_pick(lengths, x) for x in row_groups]
    col_lengths = [_pick(lengths, x) for x in col_groups]
    empty_rows = sum(1 for x in row_lengths if 0 in x) / (g.n_rows or 1)  # an empty text: length 0
    empty_cols = sum(1 for x in col_lengths if 0 in x) / (g.n_cols or 1)
    marks = v.marks
    first = v.rows[0] if v.rows else []
    first_th = sum(1 for c in first if c.tag == "th" or (c.text and marks[c.index].emphasis_chars >= 0.8 * len(c.text)))
    rm, rs = _mean_sd(per_row)
    cm, cs = _mean_sd(per_col)
    lm, ls = _mean_sd(lengths)
    short = sum(map(words.count, range(5))) - empty  # cells of at most four words, with text
    return [
        g.n_rows, g.n_cols, rm, rs, cm, cs, lm, ls,
        links / nf, forms / n, images / n, alpha / nf, digit / nf, 1 - filled / n,
        _consistency_len(row_lengths),
        _consistency_len(col_lengths),
        _consistency_type([_pick(types, x) for x in row_groups]),
        _consistency_type([_pick(types, x) for x in col_groups]),
        short / nf, sum(words) / nf,  # over the cells with text
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
    # header typing (issue 39): the row's identifying column written in td (the first
    # column whose body texts are all distinct words, left of a column of numbers), a top
    # row of short words over columns of numbers (a header row without th), and how much
    # more emphasized the row is than the rows below it (a row styled unlike the rest)
    "key_col", "top_words", "emph_vs_below",
)
_SECTION = {"tbody": 0.0, "thead": 1.0, "tfoot": 2.0}


def _key_column(stats: list[tuple[int, int, int]]) -> int:
    """The identifying column (``key_col``) from each column's body: (cells with text, distinct
    texts, numbers and dates); -1 when none."""
    numeric = [k > 0 and 2 * num > k for k, _, num in stats]
    for j, (k, distinct, num) in enumerate(stats):
        if k >= 2 and distinct == k and num == 0 and any(numeric[j + 1:]):
            return j
    return -1


def _top_words(top: list[tuple[str, int]], stats: list[tuple[int, int, int]]) -> float:
    """``top_words`` from the top row's cells with text, (text type, words) each, and the
    columns' body counts of :func:`_key_column`."""
    return 1.0 if len(top) >= 2 and all(t not in ("numeric", "date") and w <= 4 for t, w in top) \
        and any(k > 0 and 2 * num > k for k, _, num in stats) else 0.0


def _emph_vs_below(row_emph: list[float]) -> list[float]:
    """``emph_vs_below`` of each row from the rows' shares of emphasized cells."""
    out = [0.0] * len(row_emph)
    below = 0.0  # the sum of the rows below, from the last row up
    for r in range(len(row_emph) - 2, -1, -1):
        below += row_emph[r + 1]
        out[r] = row_emph[r] - below / (len(row_emph) - 1 - r)
    return out


def cell_features(v: TableView, breaks: dict) -> list[list[float]]:
    """One feature vector per cell of ``v.grid.cells`` (same order). ``breaks``: cell element
    -> number of line breaks."""
    g = v.grid
    types, marks = v.types, v.marks
    n_rows, n_cols = g.n_rows or 1, g.n_cols or 1
    table_th = sum(1 for c in g.cells if c.tag == "th") / (len(g.cells) or 1)

    def stats(group: list[Cell]) -> tuple[float, float, float]:
        k = len(group) or 1
        merged = th = empty = 0
        for c in group:  # one pass, not three
            merged += c.rowspan > 1 or c.colspan > 1
            th += c.tag == "th"
            empty += not c.text
        return merged / k, th / k, empty / k

    row_stats = [stats(row) for row in v.rows]
    col_stats = [stats(col) for col in v.cols]

    # per cell (by Cell.index), computed once: emphasized (a th, or 80% of its text
    # emphasized), and its text as compared with other cells' (case and spaces ignored)
    is_strong = [c.tag == "th" or bool(c.text) and marks[c.index].emphasis_chars >= 0.8 * len(c.text)
                 for c in g.cells]
    key = [" ".join(c.text.lower().split()) if c.text else "" for c in g.cells]
    words = [k.count(" ") + 1 if k else 0 for k in key]  # the text's words, from its key
    row_emph = [sum(1 for c in row if is_strong[c.index]) / (len(row) or 1) for row in v.rows]
    col_len = [sum(len(c.text) for c in col) / (len(col) or 1) for col in v.cols]
    # the top of the grid: the first row below title rows (one cell across the table)
    top_row = next((r for r, row in enumerate(v.rows) if len(row) > 1), 0)
    tops = [g.slots[top_row][col] for col in range(g.n_cols)] if g.n_rows else []
    # per column, over its body (the cells with text below the top row): whether the top
    # cell's type differs from most of the body's, distinct texts, words, links
    differs = 0
    col_distinct, col_alpha, col_links = [], [], []
    stats = []  # per column: cells of the body, distinct texts, numbers and dates
    links = v.links
    for col, top_cell in zip(v.cols, tops):
        body = [c for c in col if c.row > top_row and c.text]
        below = [types[c.index] for c in body]
        distinct = len({c.text for c in body})
        stats.append((len(body), distinct, below.count("numeric") + below.count("date")))
        if top_cell is not None and top_cell.text and below:
            counts: dict[str, int] = {}
            for t in below:
                counts[t] = counts.get(t, 0) + 1
            most = max(counts.values())
            differs += counts.get(types[top_cell.index], 0) != most  # a tie counts as agreement
        k = len(body) or 1
        col_distinct.append(distinct / k)
        col_alpha.append(below.count("alpha") / k)
        col_links.append(sum(1 for c in body if links[c.index]) / k)
    top_differs = differs / (len(v.cols) or 1)
    top_strong = row_emph[top_row] if row_emph else 0.0
    key_col = _key_column(stats)
    top_words = _top_words([(types[c.index], words[c.index]) for c in v.rows[top_row] if c.text] if v.rows else [],
                           stats)
    emph_below = _emph_vs_below(row_emph)
    first_alpha = next((i for i, a in enumerate(col_alpha) if a >= 0.5), -1)
    first_text = [False] * len(g.cells)  # the first cell with text of each row (by Cell.index)
    for row in v.rows:
        for c in row:
            if c.text:
                first_text[c.index] = True
                break
    # text types counted once per row and column: a cell's "others" are its row (column)
    # but itself, so each share is a subtraction, not a scan (linear in the cells)
    row_types = [_type_counts(row, types) for row in v.rows]
    col_types = [_type_counts(col, types) for col in v.cols]
    top_text = [top is not None and bool(top.text) for top in tops]  # per column
    # same_as_top: a cell below the top row with the text of its column's top cell (case and
    # spaces ignored), a header repeated inside the table; row_same_as_top: the share of
    # such cells among the row's cells with text (a whole repeated header row is near 1)
    row_texts = [sum(1 for c in row if c.text) for row in v.rows]  # cells with text per row
    top_key = [key[top.index] if top is not None else "" for top in tops]
    same_top = [False] * len(g.cells)  # by Cell.index
    for c in g.cells:
        if c.text and c.row > top_row and tops[c.col] is not c and top_key[c.col] \
                and key[c.index] == top_key[c.col]:
            same_top[c.index] = True
    row_same = [sum(1 for c in row if same_top[c.index]) / (row_texts[r] or 1) for r, row in enumerate(v.rows)]
    top_strong_col = [top is not None and is_strong[top.index] for top in tops]
    # same_as_header: a cell below the top row whose text (case and spaces ignored) is that
    # of a cell above it in its column in a row of headers (the top row, or a row whose
    # cells with text are mostly th or emphasized): a repeated header even where the table
    # has several header rows or sections that rename a column; row_same_as_header: the
    # share of such cells among the row's cells with text
    seen: list[set] = [set() for _ in range(g.n_cols)]  # texts of header rows above, per column
    same_head = [False] * len(g.cells)
    for r, row in enumerate(v.rows):
        own = [c for c in row if c.row == r]
        if r > top_row:
            for c in own:
                if c.text and key[c.index] in seen[c.col]:
                    same_head[c.index] = True
        with_text = [c for c in row if c.text]
        if r >= top_row and with_text and (r == top_row or sum(is_strong[c.index] for c in with_text) * 2
                                           > len(with_text)):
            for c in own:
                if c.text:
                    for col in range(c.col, c.col + c.colspan):
                        seen[col].add(key[c.index])
    row_same_head = [sum(1 for c in row if same_head[c.index]) / (row_texts[r] or 1)
                     for r, row in enumerate(v.rows)]
    col_th_body = [sum(1 for c in col if c.row > top_row and c.tag == "th") /
                   (sum(1 for c in col if c.row > top_row) or 1) for col in v.cols]

    # what the vector takes from the cell's row and column, by text type, computed once
    # per row (column) with the expressions a cell would use
    n_r = [(len(row) - 1) or 1 for row in v.rows]
    n_c = [(len(col) - 1) or 1 for col in v.cols]
    row_by_type = [_by_type(in_row, k, "numeric", "date") for in_row, k in zip(row_types, n_r)]
    col_by_type = [_by_type(in_col, k, "alpha") for in_col, k in zip(col_types, n_c)]
    slots, rows_total, cols_total = g.slots, g.n_rows, g.n_cols
    out = []
    append = out.append
    for c in g.cells:
        r, col, i, text = c.row, c.col, c.index, c.text
        rowspan, colspan = c.rowspan, c.colspan
        below_top = r > top_row and tops[col] is not c
        t = types[i]
        m = marks[i]
        row_agree, row_numeric = row_by_type[r][t]
        col_agree, col_alpha_share = col_by_type[col][t]
        if r:
            above = slots[r - 1][col]
            above_th = 1.0 if above is not None and above.tag == "th" else 0.0
            above_empty = 1.0 if above is None or not above.text else 0.0
        else:
            above_th, above_empty = 0.0, -1.0
        left = slots[r][col - 1] if col else None
        below = r + rowspan
        below_empty = -1.0 if below >= rows_total else (1.0 if slots[below][col] is None or not slots[below][col].text
                                                        else 0.0)
        length = len(text)
        rm, rth, rem = row_stats[r]
        cm, cth, cem = col_stats[col]
        mean_len = col_len[col]
        append([
            r, col, r / n_rows, col / n_cols, 1.0 if r == top_row else 0.0, 1.0 if col == 0 else 0.0,
            1.0 if below >= rows_total else 0.0, rowspan, colspan, 1.0 if colspan >= n_cols and n_cols > 1 else 0.0,
            rm, cm, breaks.get(c.element, 0), 1.0 if c.tag == "th" else 0.0,
            min(1.0, m.emphasis_chars / length) if length else 0.0,
            *_TYPE_FLAGS.get(t, _NO_TYPE),
            length, words[i], 1.0 if links[i] else 0.0,
            row_agree, col_agree,
            rth, cth, rem, cem,
            above_th, 1.0 if left is not None and left.tag == "th" else 0.0,
            _SECTION.get(c.section, 0.0), 1.0 if text.endswith(":") else 0.0, table_th, rows_total, cols_total,
            1.0 if first_text[i] else 0.0,
            1.0 if below_top and top_text[col] else 0.0,
            1.0 if below_top and top_strong_col[col] else 0.0,
            row_numeric, col_alpha_share,
            length / mean_len if mean_len else 0.0, row_emph[r], top_differs, top_strong,
            col_distinct[col], 1.0 if col == first_alpha else 0.0, col_links[col],
            1.0 if same_top[i] else 0.0, row_same[r],
            1.0 if m.images > 0 else 0.0, above_empty, below_empty,
            1.0 if same_head[i] else 0.0, row_same_head[r], col_th_body[col],
            rows_total - below, 1.0 if _NOTE.match(text) else 0.0, row_texts[r],
            1.0 if col == key_col else 0.0, top_words, emph_below[r],
        ])
    return out


#: the text types in the order of the codes of :func:`cell_columns`' lookups
_TYPES = ("numeric", "date", "alpha", "empty", "other")
_TYPE_CODE = {t: i for i, t in enumerate(_TYPES)}
#: tables of at least this many cells have their cells typed from :func:`cell_columns`
#: (when the C forest is built); smaller ones from :func:`cell_features`, cheaper there
BIG_TABLE = 2000
_NUMERIC_CODE, _DATE_CODE, _ALPHA_CODE, _EMPTY_CODE = (_TYPE_CODE[t] for t in ("numeric", "date", "alpha", "empty"))
_CODES = range(len(_TYPES))


def _zeros(size: int) -> array:
    return array("d", bytes(8 * size))


def text_facts(v: TableView) -> tuple[list[str], list[int], list[float], list[float]]:
    """Of each distinct text of ``v`` (``v.text_ids``), made once per table: its key (lower
    case, white space collapsed), its words, ``ends_colon`` and ``note_mark``."""
    if v.facts is None:
        v.facts = _text_facts(list(v.text_ids))
    return v.facts


def _text_facts(texts: list[str]) -> tuple[list[str], list[int], list[float], list[float]]:
    """Of each of ``texts`` (distinct): its key (lower case, white space collapsed), its
    words (lower case splits as the text: no character changes to or from white space),
    ``ends_colon`` and ``note_mark``. A text of digits alone (most texts of a big table
    of numbers: no case, no space, no colon, no note mark) is its own key, one word, 0.0
    and 0.0: only the others are looked at one by one."""
    keys, words, colon, note = list(texts), [1] * len(texts), [0.0] * len(texts), [0.0] * len(texts)
    for i in compress(range(len(texts)), map(not_, map(str.isdigit, texts))):
        t = texts[i]
        keys[i] = k = " ".join(t.lower().split()) if t else ""
        words[i] = k.count(" ") + 1 if k else 0
        if t.endswith(":"):
            colon[i] = 1.0
        if _NOTE.match(t):
            note[i] = 1.0
    return keys, words, colon, note


def _row_starts(row: list[int], n_rows: int, width: int) -> list[int]:
    """Where the cells starting in each row start among the cells (in row order; ``row``:
    each cell's row), and where the last row's end: ``width`` cells a row in a full grid
    (``width`` 0: counted)."""
    if width:
        return list(range(0, n_rows * width + 1, width))
    starts = [0] * (n_rows + 1)
    for r, k in Counter(row).items():
        starts[r + 1] = k
    for r in range(n_rows):
        starts[r + 1] += starts[r]
    return starts


def _shares_by_code(groups: list[list[int]], sizes: list[int], kinds: tuple[int, ...]) -> tuple[array, array]:
    """For each group (a row or a column: its cells' type codes; ``sizes``: its cells) and
    each type code in it, what :func:`_by_type` gives a cell of that type: the shares of
    the group's other cells of its type and of ``kinds``; by group and code (0 where no
    cell of the group has the code)."""
    k_types = len(_TYPES)
    agree, of_kinds = _zeros(len(groups) * k_types), _zeros(len(groups) * k_types)
    for at, codes, k in zip(range(0, len(groups) * k_types, k_types), groups, sizes):
        others = (k - 1) or 1
        counts = list(map(codes.count, _CODES))
        same_kind = sum(map(counts.__getitem__, kinds))
        for t in compress(_CODES, counts):
            agree[at + t] = (counts[t] - 1) / others
            of_kinds[at + t] = (same_kind - (t in kinds)) / others
    return agree, of_kinds


def _length_shares(lengths: list[int], col_len: list[float], col: list[int], text_of: list[int],
                   text_lengths: list[int]) -> list | tuple:
    """``col_len_rel`` of each cell, its length over its column's mean length (0.0 where
    that is 0): a value per (column, length) looked up by the cell's column and the number
    of its text's length, ``(values, col, length number, lengths)``, when there are fewer
    such pairs than cells (a big table's texts have few lengths); else a list."""
    len_ids: dict[int, int] = {}
    len_of_text = [len_ids.setdefault(x, len(len_ids)) for x in text_lengths]
    k = len(len_ids)
    if len(col_len) * k > len(lengths):
        return [x / m if m else 0.0 for x, m in zip(lengths, map(col_len.__getitem__, col))]
    return [x / m if m else 0.0 for m in col_len for x in len_ids], col, list(map(len_of_text.__getitem__, text_of)), k


def cell_columns(v: TableView, breaks: dict) -> list:
    """:func:`cell_features` given feature by feature, for a big table (what
    ``Model.predict_columns`` reads in C, ``kitten/tables/_forest.c``; expanded by
    ``model.expand_columns`` it is the same vectors, number for number, as
    ``tests/test_tables.py`` and ``benchmarks/same_table_features.py --columns`` check).
    Each feature is a number (the same for every cell), a list (or an ``array("d")``) of
    a value per cell, or a value of the cell's row, column, text or row and text type
    looked up by an index per cell (lists of numbers and ints, which the C forest reads
    once each: an ``array`` made of a list costs several times as much): a value of a row is computed once per row, not once per cell, and a
    text's length, words and type once per distinct text. Per cell only a few lists are
    made, with C loops (``map``, slices) where they can: in a full grid (no span, no
    hole: ``Grid.full``) a row or column is a slice of the cells' lists and the
    neighbours are the lists shifted; what most cells lack (markup, breaks, a repeated
    header) is set where it is."""
    g = v.grid
    cells = g.cells
    n = len(cells)
    types, marks, links = v.types, v.marks, v.links
    slots, rows_total, cols_total = g.slots, g.n_rows, g.n_cols
    n_rows, n_cols = rows_total or 1, cols_total or 1
    k_types = len(_TYPES)
    full = g.full and n > 0
    R, C = rows_total, cols_total


    def by(values, index) -> tuple:
        return (values if type(values) is list else list(values)), index

    text = v.texts
    if full:  # cell r * C + c
        row = list(chain.from_iterable(map(repeat, range(R), repeat(C, R))))
        col = list(range(C)) * R
    else:
        row = list(map(_ROW, cells))
        col = list(map(_COL, cells))
    row_i, col_i = row, col
    spans = bool(g.spanning)
    # each distinct text once (the view's numbers): its length, words, key (case and
    # spaces ignored), type
    text_of = v.text_of
    text_i = text_of
    distinct = list(v.text_ids)
    type_i = list(map(_TYPE_CODE.__getitem__, types))
    key_d, words_d, colon_d, note_d = text_facts(v)

    def keyed(keys: set) -> list[int]:
        """The cells whose text's key is one of ``keys``, found by their texts' numbers."""
        ids = set(compress(range(len(key_d)), map(keys.__contains__, key_d)))
        return list(compress(range(n), map(ids.__contains__, text_of)))

    length = v.lengths
    text_lengths = list(map(len, distinct))
    has = [x > 0 for x in length]
    th = v.th
    marked = v.marked  # cells with markup of their own
    strong = list(th)  # a th, or 80% of its text emphasized
    for i in marked:
        strong[i] = th[i] or bool(text[i]) and marks[i].emphasis_chars >= 0.8 * len(text[i])
    row_groups, col_groups = _groups(v)
    if full:  # a row (column) is a slice of the cells' lists
        row_sizes, col_sizes = [C] * R, [R] * C

        def sums(values: list, groups: list) -> list:
            return [sum(values[s]) for s in groups]

        def codes(groups: list) -> list:
            return [type_i[s] for s in groups]
    else:
        row_sizes, col_sizes = list(map(len, row_groups)), list(map(len, col_groups))

        def sums(values: list, groups: list) -> list:
            return [sum(map(values.__getitem__, ix)) for ix in groups]

        def codes(groups: list) -> list:
            return [list(map(type_i.__getitem__, ix)) for ix in groups]

    def shares(values: list, groups: list, sizes: list) -> list:
        return [x / (k or 1) for x, k in zip(sums(values, groups), sizes)]

    empty = [not x for x in has]
    table_th = sum(th) / (n or 1)
    if spans:
        merged = [c.rowspan > 1 or c.colspan > 1 for c in cells]
        row_merged, col_merged = shares(merged, row_groups, row_sizes), shares(merged, col_groups, col_sizes)
    else:
        row_merged, col_merged = [0.0] * len(row_groups), [0.0] * len(col_groups)
    row_th, col_th = shares(th, row_groups, row_sizes), shares(th, col_groups, col_sizes)
    row_empty, col_empty = shares(empty, row_groups, row_sizes), shares(empty, col_groups, col_sizes)
    row_emph = shares(strong, row_groups, row_sizes)
    col_len = shares(length, col_groups, col_sizes)
    top_row = next((r for r, k in enumerate(row_sizes) if k > 1), 0)
    tops = [slots[top_row][j] for j in range(cols_total)] if rows_total else []
    # the cells below the top row, by column (its body: those with text, whose type is not
    # empty), as their type codes, text numbers and links
    if full:
        below = [((top_row + 1) * C + j, n, C) for j in range(C)]
        below_types = [type_i[slice(*x)] for x in below]
        below_texts = [text_of[slice(*x)] for x in below]
        below_links = [links[slice(*x)] for x in below]
    else:
        below_ix = [[i for i in ix if row[i] > top_row] for ix in col_groups]
        below_types = [list(map(type_i.__getitem__, ix)) for ix in below_ix]
        below_texts = [list(map(text_of.__getitem__, ix)) for ix in below_ix]
        below_links = [list(map(links.__getitem__, ix)) for ix in below_ix]
    no_text = v.text_ids.get("", -1)  # the number of the empty text
    differs = 0
    col_distinct, col_alpha, col_links = [], [], []
    stats = []  # per column: cells of the body, distinct texts, numbers and dates
    for in_types, in_texts, in_links, top_cell in zip(below_types, below_texts, below_links, tops):
        in_body = list(map(in_types.count, _CODES))
        body = len(in_types) - in_body[_EMPTY_CODE]
        distinct_texts = set(in_texts)
        n_distinct = len(distinct_texts) - (no_text in distinct_texts)
        stats.append((body, n_distinct, in_body[_NUMERIC_CODE] + in_body[_DATE_CODE]))
        if top_cell is not None and top_cell.text and body:
            in_body[_EMPTY_CODE] = 0
            differs += in_body[type_i[top_cell.index]] != max(in_body)
        k = body or 1
        col_distinct.append(n_distinct / k)
        col_alpha.append(in_body[_ALPHA_CODE] / k)
        col_links.append(in_links.count(True) / k)
    top_differs = differs / (len(col_groups) or 1)
    top_strong = row_emph[top_row] if row_emph else 0.0
    key_col = _key_column(stats)
    top_cells = (range(row_groups[top_row].start, row_groups[top_row].stop) if full else row_groups[top_row]) \
        if row_groups else ()
    top_words = _top_words([(types[i], words_d[text_of[i]]) for i in top_cells if has[i]], stats)
    first_alpha = next((j for j, a in enumerate(col_alpha) if a >= 0.5), -1)
    first_text = _zeros(n)
    for ix in (range(s.start, s.stop) for s in row_groups) if full else row_groups:
        first = next(compress(ix, map(has.__getitem__, ix)), None)
        if first is not None:
            first_text[first] = 1.0
    row_texts = sums(has, row_groups)
    top_text = [top is not None and bool(top.text) for top in tops]
    top_strong_col = [top is not None and strong[top.index] for top in tops]
    # same_as_top: below the top row (then never the top cell itself), with text, the key of
    # its column's top cell; looked for among the cells whose key is some top cell's
    top_key = [key_d[text_of[top.index]] if top is not None else "" for top in tops]
    same_top = [False] * n
    for i in keyed(set(top_key) - {""}):
        if has[i] and row[i] > top_row and key_d[text_of[i]] == top_key[col[i]]:
            same_top[i] = True
    # same_as_header, as cell_features: the rows of headers (top row, or mostly strong cells
    # with text) add their cells' keys to their columns, in row order; a cell below the top
    # row is a repeat when its key is among its column's so far. Only the cells whose key
    # some header row adds can be one.
    strong_text = list(map(and_, strong, has))
    adding = [r for r, (texts, strong_n) in enumerate(zip(row_texts, sums(strong_text, row_groups)))
              if r >= top_row and texts and (r == top_row or strong_n * 2 > texts)]
    starts = _row_starts(row, R, C if full else 0)  # the cells starting in row r are cells[starts[r]:starts[r + 1]]
    added = {key_d[text_of[i]] for r in adding for i in range(starts[r], starts[r + 1]) if has[i]}
    candidates: dict[int, list[int]] = {}
    for i in keyed(added):
        if has[i] and row[i] > top_row:
            candidates.setdefault(row[i], []).append(i)
    seen: list[set] = [set() for _ in range(cols_total)]
    same_head = [False] * n
    adding_set = set(adding)
    for r in sorted(adding_set | set(candidates)):
        for i in candidates.get(r, ()):
            if key_d[text_of[i]] in seen[col[i]]:
                same_head[i] = True
        if r in adding_set:
            for i in range(starts[r], starts[r + 1]):
                if has[i]:
                    for j in range(col[i], col[i] + cells[i].colspan):
                        seen[j].add(key_d[text_of[i]])
    row_same = [x / (t or 1) for x, t in zip(sums(same_top, row_groups), row_texts)] if any(same_top) \
        else [0.0] * len(row_groups)
    row_same_head = [x / (t or 1) for x, t in zip(sums(same_head, row_groups), row_texts)] if any(same_head) \
        else [0.0] * len(row_groups)
    # the top cell of a column is at or above top_row
    below_top = [False] * ((top_row + 1) * C) + [True] * (n - (top_row + 1) * C) if full \
        else list(map(top_row.__lt__, row))
    col_th_body = shares(list(map(and_, th, below_top)), col_groups, sums(below_top, col_groups))
    # a cell's shares of its row's (column's) other cells by text type: by row (column)
    # and type code
    row_agree, row_numeric = _shares_by_code(codes(row_groups), row_sizes, (_NUMERIC_CODE, _DATE_CODE))
    col_agree, col_alpha_share = _shares_by_code(codes(col_groups), col_sizes, (_ALPHA_CODE,))
    # the neighbours: above, left of and below the cell
    thf = [1.0 if x else 0.0 for x in th]
    if full:  # cell r * C + c: above is C cells back, below C cells on
        emptyf = [1.0 if x else 0.0 for x in empty]
        above_th = [0.0] * C + thf[:n - C]
        above_empty = [-1.0] * C + emptyf[:n - C]
        left_th = [0.0] + thf[:-1]
        left_th[::C] = [0.0] * R
        below_empty = emptyf[C:] + [-1.0] * C
    else:
        above = [slots[r - 1][j] if r else None for r, j in zip(row, col)]
        above_th = [1.0 if a is not None and a.tag == "th" else 0.0 for a in above]
        above_empty = [(1.0 if a is None or not a.text else 0.0) if r else -1.0 for a, r in zip(above, row)]
        left_th = [1.0 if j and slots[r][j - 1] is not None and slots[r][j - 1].tag == "th" else 0.0
                   for r, j in zip(row, col)]
        below = [c.row + c.rowspan for c in cells]
        below_empty = [-1.0 if b >= rows_total else (1.0 if slots[b][j] is None or not slots[b][j].text else 0.0)
                       for b, j in zip(below, col)]
    if spans:
        below_i = [c.row + c.rowspan for c in cells]
        rowspan = [c.rowspan for c in cells]
        colspan = [c.colspan for c in cells]
        full_width = [1.0 if c.colspan >= n_cols and n_cols > 1 else 0.0 for c in cells]
        last_row = by([1.0 if b >= rows_total else 0.0 for b in range(rows_total + 1)], below_i)
        rows_below = by([rows_total - b for b in range(rows_total + 1)], below_i)
    else:  # below a cell is the next row
        rowspan = colspan = 1
        full_width = 1.0 if 1 >= n_cols and n_cols > 1 else 0.0
        last_row = by([1.0 if r + 1 >= rows_total else 0.0 for r in range(rows_total)], row_i)
        rows_below = by([rows_total - (r + 1) for r in range(rows_total)], row_i)
    sections = v.sections
    section = _SECTION.get(next(iter(sections)), 0.0) if len(sections) == 1 else \
        [_SECTION.get(c.section, 0.0) for c in cells]
    nonzero = {el: b for el, b in breaks.items() if b} if any(breaks.values()) else None
    breaks_col = [nonzero.get(c.element, 0) for c in cells] if nonzero else 0
    emphasis, image, link = _zeros(n), _zeros(n), _zeros(n)
    for i in marked:
        m = marks[i]
        emphasis[i] = min(1.0, m.emphasis_chars / length[i]) if length[i] else 0.0
        image[i] = 1.0 if m.images > 0 else 0.0
        link[i] = 1.0 if links[i] else 0.0
    below_top_i = below_top  # (bools: indexes 0 and 1)

    def sparse(values: list) -> array:
        out = _zeros(n)
        for i in compress(range(n), values):
            out[i] = 1.0
        return out

    return [
        by(range(rows_total), row_i), by(range(cols_total), col_i),
        by([r / n_rows for r in range(rows_total)], row_i), by([j / n_cols for j in range(cols_total)], col_i),
        by([1.0 if r == top_row else 0.0 for r in range(rows_total)], row_i),
        by([1.0 if j == 0 else 0.0 for j in range(cols_total)], col_i),
        last_row, rowspan, colspan, full_width,
        by(row_merged, row_i), by(col_merged, col_i), breaks_col, thf, emphasis,
        *(by([1.0 if code == x else 0.0 for code in range(k_types)], type_i) for x in range(4)),
        by(text_lengths, text_i), by(words_d, text_i), link,
        (row_agree, row_i, type_i, k_types), (col_agree, col_i, type_i, k_types),
        by(row_th, row_i), by(col_th, col_i), by(row_empty, row_i), by(col_empty, col_i),
        above_th, left_th,
        section, by(colon_d, text_i), table_th, rows_total, cols_total,
        first_text,
        ([0.0] * cols_total + [1.0 if x else 0.0 for x in top_text], below_top_i, col_i, cols_total),
        ([0.0] * cols_total + [1.0 if x else 0.0 for x in top_strong_col], below_top_i, col_i,
         cols_total),
        (row_numeric, row_i, type_i, k_types), (col_alpha_share, col_i, type_i, k_types),
        _length_shares(length, col_len, col, text_of, text_lengths),
        by(row_emph, row_i), top_differs, top_strong,
        by(col_distinct, col_i), by([1.0 if j == first_alpha else 0.0 for j in range(cols_total)], col_i),
        by(col_links, col_i),
        sparse(same_top), by(row_same, row_i),
        image, above_empty, below_empty,
        sparse(same_head), by(row_same_head, row_i), by(col_th_body, col_i),
        rows_below, by(note_d, text_i), by(row_texts, row_i),
        by([1.0 if j == key_col else 0.0 for j in range(cols_total)], col_i), top_words,
        by(_emph_vs_below(row_emph), row_i),
    ]


_TEXT, _ROW, _COL, _TAG, _SECTION_OF, _INDEX, _ELEMENT = (
    attrgetter(a) for a in ("text", "row", "col", "tag", "section", "index", "element"))


#: the ``numeric``, ``date``, ``alpha`` and ``empty`` features of each text type
_TYPE_FLAGS = {t: tuple(1.0 if t == x else 0.0 for x in ("numeric", "date", "alpha", "empty"))
               for t in ("numeric", "date", "alpha", "empty")}
_NO_TYPE = (0.0, 0.0, 0.0, 0.0)


def _by_type(counts: dict[str, int], others: int, *kinds: str) -> dict[str, tuple[float, float]]:
    """For a cell of each text type of ``counts`` (the types of a row or column, the cell
    among them): the share of the ``others`` other cells of its type, and of those of
    ``kinds`` (the cell left out when it is of one of them)."""
    same_kind = sum(counts[k] for k in kinds)
    return {t: ((n - 1) / others, (same_kind - (t in kinds)) / others) for t, n in counts.items()}


def _type_counts(cells: list[Cell], types: dict) -> dict[str, int]:
    """How many of ``cells`` have each text type (0 for the types absent)."""
    counts = dict.fromkeys(("numeric", "date", "alpha", "empty"), 0)
    for c in cells:
        t = types[c.index]
        counts[t] = counts.get(t, 0) + 1
    return counts


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
