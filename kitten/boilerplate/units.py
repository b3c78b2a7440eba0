"""What the boilerplate CRF labels: the structure step's blocks, optionally cut as Victor cuts.

Victor (Marek, Pecina and Spousta, CLEANEVAL 2007) splits a page's text at tags, so the
lines of a ``<pre>`` are blocks of their own and so is an image's ``alt`` text. Kitten's
structure step makes coarser blocks (a ``<pre>`` is one block with its line breaks; alt
text, with ``[structure] img_alt``, is inline text of its block). The *unit rules*,
named in the feature settings (``units``, stored with the model), cut them as Victor
does before labelling:

- ``pre-lines``: a preformatted block of several non-blank lines becomes one unit per line;
- ``img-alt``: each alt text (:class:`~kitten.document.AltText`) of a block becomes a unit,
  the text between them another;
- ``br-paragraphs``: a block is cut after each run of two or more ``<br>`` (paragraphs
  written as ``text<br><br>text``, often a whole article in one table cell).

Training (``kitten/train/boilerplate.py``) labels the same units, so a model and its
units never differ. After labelling, :func:`kept_blocks` rebuilds the blocks from their
units not labelled ``other``: a block keeps its kind, source and group and only the text
of its kept units (a ``<pre>`` its kept lines, a paragraph its text without a dropped
alt text). Pure functions; the blocks given are not changed.
"""
from __future__ import annotations

import dataclasses

from kitten.document import BR, AltText, Block


def crf_units(blocks: list[Block], rules: tuple[str, ...] = ()) -> tuple[list[Block], list[int]]:
    """The units the CRF labels and, for each, the index of the block it comes from
    (without rules: the blocks themselves)."""
    if not rules:
        return list(blocks), list(range(len(blocks)))
    units: list[Block] = []
    owner: list[int] = []
    for i, b in enumerate(blocks):
        parts = _split(b, rules)
        units += parts
        owner += [i] * len(parts)
    return units, owner


def _split(b: Block, rules: tuple[str, ...]) -> list[Block]:
    if "pre-lines" in rules and b.kind == "preformatted":
        lines = [line + "\n" for line in b.text().split("\n") if line.strip()]
        if len(lines) > 1:  # each line keeps its end, so kept lines concatenate back
            return [dataclasses.replace(b, inlines=[line]) for line in lines]
    if "br-paragraphs" in rules and b.kind != "preformatted" and b.inlines.count(BR) >= 2:
        parts = _br_paragraphs(b)
        if len(parts) > 1:
            return [u for p in parts for u in _split(p, tuple(r for r in rules if r != "br-paragraphs"))]
    if "img-alt" in rules and any(isinstance(x, AltText) for x in b.inlines):
        runs: list[list] = [[]]
        for x in b.inlines:
            if isinstance(x, AltText):
                runs += [[x], []]
            else:
                runs[-1].append(x)
        runs = [r for r in runs if _has_text(r)]
        if len(runs) > 1:
            return [dataclasses.replace(b, inlines=r) for r in runs]
    return [b]


def _br_paragraphs(b: Block) -> list[Block]:
    """``b`` cut after each run of two or more line breaks (white space between them
    allowed): the paragraphs of a cell or ``div`` written with ``<br><br>``. Each part
    keeps its trailing breaks, so kept parts concatenate back; parts without text go."""
    parts: list[list] = [[]]
    pending: list = []  # breaks (and white space) not yet known to end a paragraph
    for x in b.inlines:
        if x is BR or (pending and x.isspace()):  # type: ignore[union-attr]
            pending.append(x)
            continue
        parts[-1] += pending
        if pending.count(BR) >= 2:
            parts.append([])
        pending = []
        parts[-1].append(x)
    parts[-1] += pending
    parts = [p for p in parts if _has_text(p)]
    return [dataclasses.replace(b, inlines=p) for p in parts]


def _has_text(inlines: list) -> bool:
    return any(x is not BR and not x.isspace() for x in inlines)


def kept_blocks(blocks: list[Block], units: list[Block], owner: list[int], labels: list[str]) -> list[Block]:
    """The blocks with a unit not labelled ``other``; a block cut into units keeps the
    text of those units only (the lines of a ``<pre>`` joined by line breaks)."""
    if len(units) == len(blocks):  # nothing cut
        return [b for b, lab in zip(blocks, labels) if lab != "other"]
    kept: dict[int, list] = {}
    parts: dict[int, int] = {}
    for u, i, lab in zip(units, owner, labels):
        parts[i] = parts.get(i, 0) + 1
        if lab != "other":
            kept.setdefault(i, []).extend(u.inlines)
    return [b if parts[i] == 1 else dataclasses.replace(b, inlines=kept[i])
            for i, b in enumerate(blocks) if i in kept]
