"""A table's rows as written, one a line: the faithful style's tables.

Each row of the grid (``grid.py``) is a block of kind ``table_row`` (its source the
``tr``) holding the texts of the cells that start in it, left to right, joined by
:data:`SEPARATOR`: a cell spanning several rows or columns is written once, where it
starts, as the page writes it; an empty cell is written empty (``a | | c``: the columns
stay in place); a row without text is left out. The caption, if any, is a block of its
own before the rows.
"""
from __future__ import annotations

from typing import Any

from kitten.document import Block
from kitten.tables.grid import Grid

#: between the cells of a row
SEPARATOR = " | "


def row_blocks(grid: Grid, table: Any) -> list[Block]:
    """The caption and the rows of ``grid`` (cells' text filled in) as blocks."""
    by_row: list[list[str]] = [[] for _ in range(grid.n_rows)]
    for cell in sorted(grid.cells, key=lambda c: (c.row, c.col)):
        if cell.row < grid.n_rows:
            by_row[cell.row].append(cell.text)
    out = [Block("caption", "caption", table, [grid.caption], table)] if grid.caption else []
    for r, texts in enumerate(by_row):
        if any(texts):
            source = grid.rows[r] if r < len(grid.rows) else table
            out.append(Block("table_row", "tr", source, [SEPARATOR.join(texts).strip()], table))
    return out
