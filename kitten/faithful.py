"""The faithful style: the page's text as written, paragraphs separated by a blank line.

It reads the same ``Document`` as the parser style, after the same removals (menus,
hidden and screen-reader text, consent banners, the boilerplate gate when it runs, the
short link items of link lists), and adds nothing:

* no full stop: every block is written as its text ends;
* no abbreviation expansion (the structure step's ``Expansion`` inlines are left out:
  :func:`without_expansions`);
* lists as written: an item a line, its hand-written bullet kept, never flattened or
  joined to its introductory clause, a definition list's terms and definitions a line
  each (:func:`lists_config`);
* tables: a data table (and a short one-row or one-column table) a row a line, cells
  joined by `` | `` (``kitten/tables/rows.py``); other tables a paragraph per cell.

Each block is a paragraph; a block written with ``<br><br>`` is a paragraph per part
(the gate's ``br-paragraphs`` cut, ``kitten/boilerplate/units.py``), a single ``<br>``
starts a new line in the same paragraph, a ``<pre>`` keeps its lines (and their inner
white space). Paragraphs are separated by a blank line, except the items of one list
(and the paragraphs inside them) and the rows of one table: a line each (:func:`render`). Elsewhere white space is
collapsed, and lines without a letter or a digit are left out as in the parser style
(``[segment] drop_symbol_only``). The lines are ``Sentence`` objects (text, block,
offsets in the block's collapsed text), so JSON, CLEANEVAL and the reports read them as
they read the parser style's sentences.
"""
from __future__ import annotations

import dataclasses

from kitten.boilerplate.units import crf_units
from kitten.config import ListsConfig, SegmentConfig
from kitten.document import BR, Block, Document, Expansion, Sentence
from kitten.lists import LIST_TAGS
from kitten.log import PageLog
from kitten.segment import collapsed

#: block kinds written a line each, without a blank line between two of one list or table
LINE_KINDS = frozenset({"list_item", "term", "definition", "table_row"})


def without_expansions(doc: Document) -> Document:
    """``doc`` without the abbreviation expansions the structure step added."""
    if not doc.abbreviations:  # the page has no expanded abbreviation
        return doc
    blocks = [b if not any(isinstance(x, Expansion) for x in b.inlines)
              else dataclasses.replace(b, inlines=[x for x in b.inlines if not isinstance(x, Expansion)])
              for b in doc.blocks]
    return dataclasses.replace(doc, blocks=blocks)


def lists_config(config: ListsConfig) -> ListsConfig:
    """The lists settings of the faithful style: the short link items of link lists
    removed as in the parser style (``remove_link_items``), nothing rewritten."""
    return dataclasses.replace(config, remove_bullets=False, flatten=False, repeat_clause=False,
                               definitions=False)


def lines(doc: Document, config: SegmentConfig, log: PageLog | None = None, rules: str = "") -> list[Sentence]:
    """The lines of ``doc`` in document order, each with its block (a part of a block cut
    at ``<br><br>`` is a block of its own); ``log`` and ``rules`` as ``segment`` takes
    them (unused)."""
    out: list[Sentence] = []
    for block in crf_units(doc.blocks, ("br-paragraphs",))[0]:
        if block.kind == "preformatted":
            out += [Sentence(line, block) for line in (x.rstrip() for x in block.text().split("\n"))
                    if line.strip() and _kept(line, config)]
            continue
        whole = collapsed(block.text())  # the offsets' reference
        cursor = 0
        for raw in _br_lines(block):
            line = collapsed(raw)
            if not line or not _kept(line, config):
                continue
            at = whole.find(line, cursor)
            if at < 0:
                out.append(Sentence(line, block))
                continue
            cursor = at + len(line)
            out.append(Sentence(line, block, at, cursor))
    return out


def _br_lines(block: Block) -> list[str]:
    """The texts between the block's line breaks."""
    if BR not in block.inlines:
        return ["".join(block.inlines)]  # type: ignore[arg-type]
    parts: list[list[str]] = [[]]
    for x in block.inlines:
        if x is BR:
            parts.append([])
        else:
            parts[-1].append(x)
    return ["".join(p) for p in parts]


def _kept(line: str, config: SegmentConfig) -> bool:
    """Is the line written (not a line of symbols only, when those are left out)?"""
    return not config.drop_symbol_only or any(ch.isalnum() for ch in line)


def same_paragraph(a: Sentence, b: Sentence) -> bool:
    """Are two consecutive lines of one paragraph: of one block, of one list (its items,
    and the paragraphs inside them), or rows of one table?"""
    if a.block is b.block:
        return True
    group = a.block.group
    if group is None or group is not b.block.group:
        return False
    return (a.kind in LINE_KINDS and b.kind in LINE_KINDS) or group.tag[group.tag.rfind("}") + 1:] in LIST_TAGS


def render(sentences: list[Sentence]) -> str:
    """The text: a line each, a blank line between paragraphs, a final newline."""
    if not sentences:
        return ""
    parts = [sentences[0].text]
    for before, s in zip(sentences, sentences[1:]):
        parts.append("\n" if same_paragraph(before, s) else "\n\n")
        parts.append(s.text)
    return "".join(parts) + "\n"
