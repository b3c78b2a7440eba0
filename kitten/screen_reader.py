"""Screen-reader phrases of share and link plugins, left out of the blocks' text.

The structure step leaves out the elements of screen-reader-only classes (``[structure]
hidden_classes``: ``sr-only``, ``screen-reader-text`` ...). Many plugins write their
phrase for screen readers in an element of a class of their own ("Click to share on
Twitter (Opens in new window)", ``apple.com (Opens in a new window)``, "Wird in neuem
Fenster geöffnet"), or in no element at all: those phrases, listed per language in
``rules/<lang>/screen-reader.txt``, are cut from the text where they stand
(:func:`without_phrases`), in both styles. The phrases of every language apply to every
page (a French page's share buttons often speak English). A phrase is cut with the
brackets around it and a dash before it; the space before it goes too when a space,
a mark or the end of the text follows. A block left without text goes; each cut is
recorded as a ``Removal`` (reason ``screen-reader-phrase``). Pure functions: the blocks
given are not changed.
"""
from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from typing import NamedTuple

from kitten.document import BR, Block, Document, Removal
from kitten.resources import lines, rules_dir

#: the rules file of each language
FILE = "screen-reader.txt"
#: the reason of the removals recorded
REASON = "screen-reader-phrase"


class Phrases(NamedTuple):
    """The phrases of every language as one pattern, and a word of each (lower-cased):
    a text holding none of the words holds no phrase (a quick test before the pattern)."""

    pattern: re.Pattern | None
    words: tuple[str, ...]


def _phrase(line: str) -> str:
    """One phrase of a rules file as a pattern: any white space between its words, ``'``
    for either apostrophe; in brackets when written in brackets, else with optional ones."""
    bracketed = line[:1] in "([" and line[-1:] in ")]"
    words = line[1:-1].split() if bracketed else line.split()
    body = r"\s+".join(re.escape(w).replace("'", "['’]") for w in words)
    return rf"[(\[]\s*{body}\s*[)\]]" if bracketed else rf"[(\[]?\s*\b{body}\b\s*\.?\s*[)\]]?"


@lru_cache(maxsize=8)
def phrases(rules: str = "") -> Phrases:
    """The phrases of every ``rules/<lang>/screen-reader.txt`` of the rules folder."""
    found = sorted({line for path in sorted(rules_dir(rules).glob(f"*/{FILE}"))
                    for line in lines(rules, path.parent.name, FILE)}, key=len, reverse=True)
    if not found:
        return Phrases(None, ())
    words = {max((w for w in line.strip("()[]").split() if "'" not in w), key=len).lower() for line in found}
    pattern = re.compile(r"(?:[-–—|,]\s*)?(?:" + "|".join(map(_phrase, found)) + ")", re.I)
    return Phrases(pattern, tuple(sorted(words)))


def cut(text: str, pattern: re.Pattern) -> str:
    """``text`` without the phrases ``pattern`` finds (the module docstring)."""
    out = []
    pos = 0
    for m in pattern.finditer(text):
        before = text[pos:m.start()]
        after = text[m.end():m.end() + 1]
        if before[-1:].isspace() and not after.isalnum():
            before = before.rstrip()
        out.append(before)
        pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def without_phrases(doc: Document, rules: str = "") -> tuple[list[Block], list[Removal]]:
    """The blocks of ``doc`` with the screen-reader phrases cut, and a removal for each
    block that had one (``rules``: the rules folder)."""
    found = phrases(rules)
    blocks = doc.blocks
    if found.pattern is None:
        return blocks, []
    texts = "\n".join([x for b in blocks for x in b.inlines if x is not BR]).lower()
    if not any(w in texts for w in found.words):  # most pages
        return blocks, []
    out: list[Block] = []
    removals: list[Removal] = []
    for b in blocks:
        inlines = [x if x is BR else _cut_inline(x, found.pattern) for x in b.inlines]
        if inlines == b.inlines:
            out.append(b)
            continue
        cut_text = " ".join(m.group().strip() for x in b.inlines if x is not BR for m in found.pattern.finditer(x))
        removals.append(Removal(b.source, REASON, cut_text[:80], doc.locate))
        if any(x is not BR and not x.isspace() for x in inlines):
            out.append(dataclasses.replace(b, inlines=inlines))
    return out, removals


def _cut_inline(x: str, pattern: re.Pattern) -> str:
    """An inline string without its phrases, of the same type (an ``AltText`` stays one)."""
    text = cut(x, pattern)
    return x if text == x else type(x)(text)
