"""The text styles as the steps they run after the gate (``[output] style``).

Both read the same ``Document`` after the same removals; each step below is a plain
function, chosen once per style rather than decided inside the steps:

* ``parser`` (default): tables as clauses, lists rewritten by their rules, sentences
  split and punctuated (``kitten/segment.py``), one a line;
* ``faithful``: abbreviation expansions left out, tables as rows, lists as written,
  lines and paragraphs as written (``kitten/faithful.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kitten import faithful
from kitten.config import ListsConfig
from kitten.document import Document
from kitten.render import render_text
from kitten.segment import segment
from kitten.tables import CLAUSES, ROWS, TableWriter


def _same(x):
    return x


@dataclass(frozen=True)
class Style:
    """What a style does after the gate."""

    prepare: Callable[[Document], Document]  # the document before the tables step
    tables: TableWriter  # how the tables step writes a table it reads whole
    lists: Callable[[ListsConfig], ListsConfig]  # the lists settings, from the configured ones
    segment: Callable  # (doc, SegmentConfig, PageLog, rules) -> the lines written (Sentence)
    text: Callable  # the lines -> the text (``--format text``, JSON Lines' ``text``)


STYLES: dict[str, Style] = {
    "parser": Style(_same, CLAUSES, _same, segment, render_text),
    "faithful": Style(faithful.without_expansions, ROWS, faithful.lists_config, faithful.lines, faithful.render),
}
