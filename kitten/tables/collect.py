"""Find the leaf tables of a ``Document`` and the blocks that make their cells' text.

A leaf table is a ``table`` with no ``table`` inside. Its cells' text comes from the
document's blocks (so removals, abbreviation expansions and ``<br>`` handling of the
structure step apply), each block assigned to the nearest ``td``/``th`` above it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby, islice
from operator import attrgetter, itemgetter
from typing import Any

from kitten.document import BR, Block, Document
from kitten.tables.grid import Grid

NS = "{http://www.w3.org/1999/xhtml}"
#: the tag of a table element (a block's ``group`` is a list or a table)
TABLE = NS + "table"
_TD, _TH, _CAPTION = NS + "td", NS + "th", NS + "caption"


@dataclass(slots=True)
class TableBlocks:
    """A leaf table and the run of document blocks that belong to it."""

    element: Any = field(repr=False)
    first: int  # index of its first block in Document.blocks
    last: int  # index of its last block (inclusive)
    index: int = 0  # leaf index: position among the page's leaf tables, in document order
    embedded: bool = False  # the leaf sits inside another table
    cell_text: dict = field(default_factory=dict, repr=False)  # td/th element -> text
    cell_breaks: dict = field(default_factory=dict, repr=False)  # td/th element -> number of <br>
    caption: str = ""


def _table_above(el):
    """The nearest table above ``el`` (``el`` excluded), or None."""
    el = el.getparent()
    while el is not None and el.tag != TABLE:
        el = el.getparent()
    return el


def _block_text(block: Block) -> tuple[str, int]:
    """The block's text, white space collapsed (a line break is a space), and its number
    of line breaks."""
    inlines = block.inlines
    breaks = inlines.count(BR)  # (``Break`` compares by identity)
    text = "".join(inlines) if not breaks else "".join(" " if x is BR else x for x in inlines)
    return " ".join(text.split()), breaks


def leaf_tables(doc: Document) -> list[TableBlocks]:
    """The leaf tables that have text in ``doc``, in document order, with their blocks.

    The blocks come in runs of one group (a table, or a list inside a cell): each run's
    table is looked up once, and a run of plain cells (most of a big table's blocks) is
    read by :func:`_add_cells` in C loops (``map``, ``dict.update``), not block by block."""
    found: dict[int, TableBlocks] = {}
    leaf: dict[int, bool] = {}
    order: list[TableBlocks] = []
    tables: dict[int, Any] = {}  # the table of each group element (its own when it is one), None when none
    end = 0
    for group, run in groupby(doc.blocks, key=_GROUP):
        start = end
        run = list(run)
        end += len(run)
        if group is None:
            continue
        gid = id(group)
        table = tables.get(gid, False)  # a group's table looked for once, not once per block
        if table is False:
            table = tables[gid] = group if group.tag == TABLE else _table_above(group)
        if table is None:
            continue
        key = id(table)
        is_leaf = leaf.get(key)
        if is_leaf is None:
            is_leaf = leaf[key] = next(islice(table.iter(TABLE), 1, None), None) is None  # itself only
        if not is_leaf:
            continue
        tb = found.get(key)
        if tb is None:
            tb = found[key] = TableBlocks(table, start, start, len(order), _embedded(table))
            order.append(tb)
        tb.last = end - 1
        if not _add_cells(tb, run):
            for block in run:
                _add_block(tb, block, table)
    return order


_GROUP, _SOURCE, _INLINES, _TAG, _TEXT = (attrgetter(a) for a in ("group", "source", "inlines", "tag", "text"))
_CELL_TAGS = frozenset((_TD, _TH))


def _embedded(table) -> bool:
    """The table sits inside another table."""
    parent = table.getparent()
    while parent is not None:
        if parent.tag == TABLE:
            return True
        parent = parent.getparent()
    return False


def _add_cells(tb: TableBlocks, run: list[Block]) -> bool:
    """Give ``tb`` the texts of a run of blocks that are each the whole text of a cell not
    seen before, one run of text without a line break (what :func:`_add_block` would
    do, block by block); False, ``tb`` unchanged, when the run is not such (the caller
    reads it block by block)."""
    sources = list(map(_SOURCE, run))
    if not _CELL_TAGS.issuperset(map(_TAG, sources)):
        return False
    inlines = list(map(_INLINES, run))
    if set(map(len, inlines)) != {1}:
        return False
    firsts = list(map(itemgetter(0), inlines))
    if BR in firsts:  # (``Break`` compares by identity)
        return False
    texts = dict(zip(sources, map(" ".join, map(str.split, firsts))))
    if len(texts) != len(sources) or not tb.cell_text.keys().isdisjoint(texts):
        return False
    if tb.cell_text or tb.cell_breaks:
        tb.cell_text.update(texts)
        tb.cell_breaks.update(dict.fromkeys(texts, 0))
    else:  # the table's first run (a big table's only one): the dicts made here are its
        tb.cell_text, tb.cell_breaks = texts, dict.fromkeys(texts, 0)
    return True


def _add_block(tb: TableBlocks, block: Block, table) -> None:
    """Add one block of ``table`` to ``tb``: its text to its cell's (or to the caption)."""
    source = block.source
    tag = source.tag
    if tag == _TD or tag == _TH:  # most blocks of a table: a cell's own text
        cell, caption = source, False
    else:
        cell, caption = _cell(source, table)
    inlines = block.inlines
    if len(inlines) == 1 and inlines[0] is not BR:  # most blocks: one run of text, no break
        text, breaks = " ".join(inlines[0].split()), 0
    else:
        text, breaks = _block_text(block)
    if caption:
        tb.caption = f"{tb.caption} {text}".strip()
    elif cell is not None:
        cell_text = tb.cell_text
        old = cell_text.get(cell)
        if old:
            cell_text[cell] = f"{old} {text}"
            tb.cell_breaks[cell] += breaks + 1
        else:
            cell_text[cell] = text
            tb.cell_breaks[cell] = tb.cell_breaks.get(cell, 0) + breaks


def _cell(el, table) -> tuple[Any, bool]:
    """(nearest cell of ``table`` above ``el`` or ``el`` itself, is caption)."""
    while el is not None and el is not table:  # a few steps up to the table
        tag = el.tag
        if tag == _TD or tag == _TH:
            return el, False
        if tag == _CAPTION:
            return None, True
        el = el.getparent()
    return None, False


def fill_text(grid: Grid, tb: TableBlocks) -> Grid:
    """Give the grid's cells the text the document's blocks hold for them."""
    for cell in grid.cells:
        cell.text = tb.cell_text.get(cell.element, "")
    if tb.caption:
        grid.caption = tb.caption
    return grid


def table_text(grid: Grid, texts: list[str] | None = None) -> str:
    """White-space-normalized text of a table: caption, then cells in source order
    (``texts``: the cells' texts when the caller has them, not read from the cells again)."""
    parts = [grid.caption] if grid.caption else []
    parts += filter(None, map(_TEXT, grid.cells) if texts is None else texts)
    return " | ".join(parts)
