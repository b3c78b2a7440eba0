"""Segmentation step: ``Document`` -> sentences with explicit boundaries.

Parsers read punctuation, not layout, so every boundary the page shows by layout is
written as punctuation:

* **Block ends**: every block is its own segment; one that does not end with
  sentence-final punctuation (``. ? ! …``, possibly followed by closing quotes or
  brackets) gets a full stop. A block ending with a colon keeps it: it introduces what
  follows (the lists step joins the two).
* **``<br>``**: two or more in a row always end a segment. A single one is joined
  with a space when the line before it has no final punctuation and the next line
  continues it: it starts with a lower-case letter or a digit, or the line before ends
  with a continuation word (``rules/<lang>/continuation.txt``: articles,
  prepositions, conjunctions). Otherwise the lines stand alone (addresses, poems,
  lists written with ``<br>``) and each is a segment. ``[segment] join_br = false``
  makes every ``<br>`` end a segment.
* **Preformatted** blocks keep their lines: each line is a segment.
* White space, including no-break spaces, is collapsed to single spaces.
* Segments without any letter or digit (``|``, ``»``) are left out
  (``[segment] drop_symbol_only``).
"""
from __future__ import annotations

import re
from kitten.config import SegmentConfig
from kitten.document import BR, Block, Document, Sentence
from kitten.log import PageLog
from kitten.resources import word_list

_FINAL = frozenset(".?!…‽")
_CLOSERS = frozenset("\"'”’»)]}›")
_WORD_END = re.compile(r"([\w'’-]+)\W*$")
_HAS_ALNUM = re.compile(r"\w")
def segment(doc: Document, config: SegmentConfig, log: PageLog, rules: str = "") -> list[Sentence]:
    """The sentences of ``doc``, in document order (``rules``: the rules folder, default
    ``rules/`` of the checkout)."""
    words = word_list(rules, doc.lang, "continuation.txt")
    out: list[Sentence] = []
    joined = 0
    for block in doc.blocks:
        inlines = block.inlines
        if BR not in inlines and block.kind != "preformatted":  # most blocks: one segment
            text = " ".join("".join(inlines).split())
            if text and not (config.drop_symbol_only and not _HAS_ALNUM.search(text)):
                out.append(Sentence(punctuate(text), block))
            continue
        if block.kind == "preformatted":
            lines = [(line, 2) for line in block.text().split("\n")]
        else:
            lines = _lines(block)
        for text, n_joined in _segments(lines, words, config.join_br):
            joined += n_joined  # text is already stripped, white space collapsed
            if config.drop_symbol_only and not _HAS_ALNUM.search(text):
                continue
            out.append(Sentence(punctuate(text), block))
    if joined:
        log.add("segment", "br-joined", f"{joined} line breaks inside clauses joined")
    return out


def _lines(block: Block) -> list[tuple[str, int]]:
    """The block's lines, each with the number of ``<br>`` that end it."""
    lines: list[tuple[str, int]] = []
    current: list[str] = []
    breaks = 0
    for item in block.inlines:
        if item is BR:
            breaks += 1
            continue
        if breaks:
            if item.strip():  # white space between breaks does not end the run
                lines.append(("".join(current), breaks))
                current, breaks = [], 0
            else:
                continue
        current.append(item)
    lines.append(("".join(current), max(breaks, 2)))
    return lines


def _segments(lines: list[tuple[str, int]], words: frozenset[str], join_br: bool):
    """Join lines cut by a single ``<br>`` inside a clause; yield (segment, joins made)."""
    pending = ""
    joins = 0
    previous_breaks = 2
    for text, breaks in lines:
        line = " ".join(text.split())
        if not line:
            previous_breaks = max(previous_breaks, breaks)
            continue
        if pending and join_br and previous_breaks == 1 and continues(pending, line, words):
            pending = f"{pending} {line}"
            joins += 1
        else:
            if pending:
                yield pending, joins
                joins = 0
            pending = line
        previous_breaks = breaks
    if pending:
        yield pending, joins


def continues(before: str, after: str, words: frozenset[str]) -> bool:
    """Does ``after`` (the line after a single ``<br>``) continue the clause ``before``?"""
    if ends_sentence(before) or before.endswith(":"):
        return False
    first = after[0]
    if first.islower() or first.isdigit():
        return True
    m = _WORD_END.search(before)
    return bool(m and m.group(1).lower() in words)


def ends_sentence(text: str) -> bool:
    """Does ``text`` end with sentence-final punctuation (closing quotes/brackets allowed)?"""
    i = len(text) - 1
    while i >= 0 and text[i] in _CLOSERS:
        i -= 1
    return i >= 0 and text[i] in _FINAL


def punctuate(text: str) -> str:
    """``text`` with a full stop added when it does not end a sentence (or with a colon)."""
    if ends_sentence(text) or text.endswith(":"):
        return text
    if text[-1] in ",;-–—":
        return text[:-1].rstrip() + "."
    return text + "."
